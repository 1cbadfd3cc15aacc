"""A late entry or a bust finds the event's pending seating plan in one step of an
index, however many plans the event has made (revision 0013): a plan is stored for
each of them, about 6,000 at a 2,400-entry event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import POSTGRES_URL, query_plans, statements_sent


def plan_steps(app: Flask, statements: list[tuple[str, Any]]) -> list[str]:
    """The query-plan steps of the statements that read or change seating plans."""
    read = [(statement, parameters) for statement, parameters in statements
            if "seating_plan" in statement
            and statement.lstrip().upper().startswith(("SELECT", "UPDATE"))]
    return [step for steps in query_plans(app, read) for step in steps if "seating_plan" in step]


@pytest.mark.skipif(bool(POSTGRES_URL), reason="SQLite's query plans")
def test_a_late_entry_finds_the_pending_plan_through_the_status_index(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> None:
    tid = make_entry_tournament()
    api = f"/api/tournaments/{tid}"
    assert client.post(f"{api}/seating/settings", json={"table_size": 6},
                       headers=auth).status_code == 200
    for i in range(13):
        assert client.post(f"{api}/seating/players", json={"name": f"Early {i:02d}"},
                           headers=auth).status_code == 201
    assert client.post(f"{api}/seating/draw", headers=auth).status_code == 200
    with statements_sent(app) as sent:
        late = client.post(f"{api}/seating/players", json={"name": "Late Lou"}, headers=auth)
    assert late.status_code == 201, late.get_json()
    steps = plan_steps(app, sent)
    assert steps, "the late entry did not look for the pending plan"
    assert all("ix_seating_plan_tournament_status" in step for step in steps), steps
