"""The seating settings sent again as they are (the settings page saved without a
change) count the room's tables, not read every seat for it: at a 2,400-entry event
the write read the whole room twice (its check and its answer), and grew 2x from
300 entries.  A change of the rules still plans the room again."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import statements_sent


def statements_of(app: Flask, send: Callable[[], Any]) -> tuple[Any, list[str]]:
    with statements_sent(app, lambda statement, _parameters: statement) as sent:
        return send(), sent


def test_the_seating_settings_sent_again_do_not_read_the_seats_and_a_change_plans_the_room_again(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> None:
    tid = make_entry_tournament()
    api = f"/api/tournaments/{tid}"
    settings = {"table_size": 6, "balance_threshold": 3}
    assert client.post(f"{api}/seating/settings", json=settings, headers=auth).status_code == 200
    for i in range(14):
        assert client.post(f"{api}/seating/players", json={"name": f"P{i:02d}"},
                           headers=auth).status_code == 201
    assert client.post(f"{api}/seating/draw", headers=auth).status_code == 200
    again, sent = statements_of(app, lambda: client.post(f"{api}/seating/settings",
                                                         json=settings, headers=auth))
    assert again.status_code == 200, again.get_json()
    # the room read once, by the answer (the room's figures and whether the last plan
    # can be undone), not a second time by the write to count the tables in play
    whole_room = [s for s in sent if re.search(r"FROM seat\b", s) and " IN " not in s]
    assert len(whole_room) == 1, whole_room
    # 14 players at 3 tables of 6 (5, 5, 4): a table of 4 holds them all but 2 ...
    refused = client.post(f"{api}/seating/settings", json={"room_tables": 2}, headers=auth)
    assert refused.status_code == 400
    assert "fewer tables than the 3 in play" in refused.get_json()["errors"]["room_tables"]
    # a bust at the table of 4: 5, 5, 3 is within 3 (no plan) ...
    tables = client.get(f"{api}/seating", headers=auth).get_json()["tables"]
    short = min(tables, key=lambda t: len(t["seats"]))
    out = [short["seats"][0]["player_id"]]
    busted = client.post(f"{api}/seating/eliminate", json={"player_ids": out}, headers=auth)
    assert busted.status_code == 200 and busted.get_json()["pending_plan"] is None
    # ... and balanced within 1 is a new rule: the room is planned again
    changed, sent = statements_of(app, lambda: client.post(
        f"{api}/seating/settings", json={"balance_threshold": 1}, headers=auth))
    assert changed.status_code == 200, changed.get_json()
    assert changed.get_json()["seating"]["pending_plan"] is not None, "the new rule proposed nothing"
