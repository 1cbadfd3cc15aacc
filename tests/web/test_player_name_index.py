"""A player is looked for by name in his event from an index (revision 0017): an
entry's "already a player called ..." check and its record's lookup among the
event's earlier entries read one index entry, not every entry the event has had."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import POSTGRES_URL, query_plans, statements_sent


@pytest.mark.skipif(bool(POSTGRES_URL), reason="SQLite's query plans")
def test_an_entry_looks_for_its_name_in_the_index_not_through_every_entry(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> None:
    tid = make_entry_tournament()
    api = f"/api/tournaments/{tid}/seating/players"
    for i in range(30):
        assert client.post(api, json={"name": f"Player {i:02d}"},
                           headers=auth).status_code == 201
    with statements_sent(app) as sent:
        entry = client.post(api, json={"name": "Late Lena"}, headers=auth)
    assert entry.status_code == 201, entry.get_json()
    by_name = [(statement, parameters) for statement, parameters in sent
               if "lower(player.name) =" in statement]
    assert len(by_name) >= 2, [s for s, _ in sent]   # the same-name check, the record's
    plans = query_plans(app, by_name)
    for steps in plans:
        assert any("USING INDEX ix_player_name" in step for step in steps), steps

