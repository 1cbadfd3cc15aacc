"""The projected draw is loaded again when a seat changes, not when a hand only moved
chips: every "seating" event says which (``seats_changed``).  At 300 tables a hand
finishes every second or so; the draw, loaded again for each, never got past
its first page (``static/seating.js`` reads the flag; the browser test
``test_seating_browser.py`` sees it on the projector)."""

from __future__ import annotations

import json
import queue
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from director.services.events import events
from tests.web.test_dealer_helpers import drive, passive, seat_table
from tests.web.test_dealer_undo_elimination import bust_the_short_stack


def seating_events(app: Flask, tid: int, write: Callable[[], Any]) -> list[dict[str, Any]]:
    """The "seating" events a screen of the event is sent while ``write`` runs."""
    subscription = events(app).subscribe(tid)
    sent = []
    try:
        write()
        while True:                     # until the screens hear nothing more for a moment
            sent.append(subscription.queue.get(timeout=0.3))
    except queue.Empty:
        pass
    finally:
        events(app).unsubscribe(subscription)
    return [json.loads(item.split(b"data: ", 1)[1].split(b"\n", 1)[0])
            for item in sent if item.startswith(b"event: seating\n")]


def undo(client: FlaskClient, auth: dict[str, str], url: str) -> None:
    """The tablet's Undo after a finished hand: the hand is open again."""
    r = client.post(f"{url}/hand/undo", json={}, headers=auth)
    assert r.status_code == 200, r.get_json()


def test_a_hand_that_busts_nobody_tells_the_seating_screens_no_seat_changed(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"

    def fold_around() -> None:
        hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
        hand = drive(client, url, auth, hand, lambda h: "fold")
        assert hand["finished"], hand

    told = seating_events(app, t["tournament_id"], fold_around)
    # the chips moved (the projector's chip leaders read them again), no seat did
    assert [(e["players_left"], e["seats_changed"]) for e in told] == [(4, False)]


def test_a_bust_its_undo_and_a_late_entry_tell_the_seating_screens_seats_changed(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], chips=[10_000, 10_000, 300])
    tid, url = t["tournament_id"], f"/api/tables/{t['id']}"
    told = seating_events(app, tid, lambda: bust_the_short_stack(client, auth, url, t["seats"]["Cy"]))
    assert [(e["players_left"], e["seats_changed"]) for e in told] == [(2, True)]

    # the dealer takes the bust back (undo): Cy is in his seat again
    told = seating_events(app, tid, lambda: undo(client, auth, url))
    assert [(e["players_left"], e["seats_changed"]) for e in told] == [(3, True)]

    def late_entry() -> None:
        r = client.post(f"/api/tournaments/{tid}/seating/players", json={"name": "Late"},
                        headers=auth)
        assert r.status_code == 201, r.get_json()

    told = seating_events(app, tid, late_entry)
    assert [(e["players_left"], e["seats_changed"]) for e in told] == [(4, True)]


def test_undoing_a_hand_that_busted_nobody_tells_no_seat_changed(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = drive(client, url, auth, hand, passive)
    assert hand["finished"] or hand["awaiting"] == "showdown", hand
    if not hand["finished"]:
        r = client.post(f"{url}/hand/award", json={"high": [[hand["showdown_order"][0]]],
                                                   "version": hand["version"]}, headers=auth)
        assert r.status_code == 200, r.get_json()
    told = seating_events(app, t["tournament_id"], lambda: undo(client, auth, url))
    assert [(e["players_left"], e["seats_changed"]) for e in told] == [(3, False)]
