"""Every clock state the screens are told names the event's chip leaders: they are
read from the top of an index in the order they are shown (revision 0014), not
sorted out of the whole field at every change."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import POSTGRES_URL, query_plans, statements_sent


@pytest.mark.skipif(bool(POSTGRES_URL), reason="SQLite's query plans")
def test_the_chip_leaders_are_read_from_their_index_without_sorting_the_field(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> None:
    tid = make_entry_tournament()
    api = f"/api/tournaments/{tid}"
    for i, chips in enumerate((5_000, 9_000, 9_000, 1_000, 7_000)):
        assert client.post(f"{api}/seating/players", json={"name": f"P{i}", "chips": chips},
                           headers=auth).status_code == 201
    with statements_sent(app) as sent:
        clock = client.post(f"{api}/clock/start", headers=auth)
    assert clock.status_code == 200
    leaders = clock.get_json()["chip_leaders"]
    assert [(p["name"], p["chips"]) for p in leaders][:3] == [("P1", 9_000), ("P2", 9_000),
                                                               ("P4", 7_000)]
    reads = [(statement, parameters) for statement, parameters in sent
             if "ORDER BY player.chips DESC" in statement]
    assert len(reads) == 1, [s for s, _ in sent]
    steps = query_plans(app, reads[:1])[0]
    assert any("ix_player_chip_leaders" in step for step in steps), steps
    assert not any("TEMP B-TREE" in step for step in steps), steps      # no sort of the field
