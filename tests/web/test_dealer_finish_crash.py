"""A hand's finish and the eliminations it causes are one unit of work (issue 27).

A real server (``director serve``) is killed at each named step of a finishing
hand (``DIRECTOR_CRASH_AT``, ``director.faults``): the tablet awards the pot of
a heads-up all-in, the short stack busts and the event ends.  Then the database
is opened and must hold all of it (the hand finished, the chips moved, the
loser out in 2nd place, the winner 1st, the event finished) or none of it (the
hand still at its showdown, both players in with the chips they started it
with): never an active player with 0 chips, never a finished hand without its
eliminations.  The same for the undo of that hand (the loser reinstated).
After the crash the restarted server finishes (or undoes) the hand normally.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import requests

from tests.web.test_crash_safety import Server, level

pytestmark = pytest.mark.slow

FINISH_STEPS = ["finish-start", "after-hand-rows", "after-chips", "after-eliminations",
                "before-commit", "after-commit"]
UNDO_STEPS = ["undo-after-reinstate", "undo-before-commit", "undo-after-commit"]
EVERYTHING = {"finish-start": False, "after-hand-rows": False, "after-chips": False,
              "after-eliminations": False, "before-commit": False, "after-commit": True,
              "undo-after-reinstate": False, "undo-before-commit": False,
              "undo-after-commit": True}


def heads_up(server: Server) -> dict[str, Any]:
    """Ann (10,000) and Bo (300) at one table; Bo all-in, Ann calls, the board is dealt:
    the hand waits for the dealer's award."""
    created = server.post("/api/tournaments", {"name": "Crash finish", "levels": [level(3600)]})
    tid = created.json()["id"]
    assert server.post(f"/api/tournaments/{tid}/money/settings",
                       {"buy_in": "100", "starting_stack": 10_000}).status_code == 200
    for name, chips in (("Ann", 10_000), ("Bo", 300)):
        assert server.post(f"/api/tournaments/{tid}/seating/players",
                           {"name": name, "chips": chips}).status_code == 201
    assert server.post(f"/api/tournaments/{tid}/seating/draw").ok
    assert server.post(f"/api/tournaments/{tid}/clock/start").ok     # late registration is over
    table_id = int(server.get(f"/api/tournaments/{tid}/dealer/pairing").json()["tables"][0]["table_id"])
    url = f"/api/tables/{table_id}"
    hand = server.post(f"{url}/hands", {"absent_seats": []}).json()
    seats = {s["name"]: s["seat"] for s in hand["seats"]}
    while not hand["finished"] and hand["awaiting"] != "showdown":
        if hand["to_act"] is not None:
            kind = "all_in" if hand["to_act"] == seats["Bo"] else (
                "check" if hand["legal"]["check"] else "call")
            answer = server.post(f"{url}/hand/actions", {"seat": hand["to_act"], "action": kind,
                                                         "amount": None, "version": hand["version"]})
        else:
            answer = server.post(f"{url}/hand/board", {"cards": None, "version": hand["version"]})
        assert answer.status_code == 200, answer.text
        hand = answer.json()
    assert hand["awaiting"] == "showdown", hand["prompt"]
    return {"tid": tid, "url": url, "hand": hand, "winner": seats["Ann"]}


def award(server: Server, game: dict[str, Any]) -> requests.Response:
    return server.post(f"{game['url']}/hand/award",
                       {"high": [[game["winner"]]], "version": game["hand"]["version"],
                        "idempotency_key": "award-1"})


def stored(db_file: Path, tid: int) -> dict[str, Any]:
    """What the database holds after the crash, read by SQLite itself."""
    with contextlib.closing(sqlite3.connect(db_file)) as con:
        hand = con.execute("SELECT status, chips_applied FROM dealer_hand WHERE tournament_id = ?",
                           (tid,)).fetchone()
        players = {name: {"status": status, "chips": chips, "place": place}
                   for name, status, chips, place in con.execute(
                       "SELECT name, status, chips, place FROM player WHERE tournament_id = ?", (tid,))}
        event = con.execute("SELECT status, finished_at FROM tournament WHERE id = ?", (tid,)).fetchone()
        logged = dict(con.execute("SELECT action, count(*) FROM seating_log WHERE tournament_id = ? "
                                  "GROUP BY action", (tid,)).fetchall())
    return {"hand": hand[0], "applied": hand[1] not in (None, "null"), "players": players,
            "event": event[0], "event_finished": event[1] is not None,
            "bust_logged": "eliminate" in logged, "back_logged": "reinstate" in logged}


def assert_all(state: dict[str, Any]) -> None:
    """The finish and everything it causes."""
    ann, bo = state["players"]["Ann"], state["players"]["Bo"]
    assert state["hand"] == "finished" and state["applied"], state
    assert (bo["status"], bo["chips"], bo["place"]) == ("eliminated", 0, 2), state
    assert (ann["status"], ann["chips"], ann["place"]) == ("active", 10_300, 1), state
    assert state["event_finished"] and state["bust_logged"], state


def assert_none(state: dict[str, Any], *, undone: bool = False) -> None:
    """Nothing of the finish: the hand still at its showdown, the chips where they were
    (``undone``: the finish was undone, its lines stay in the seating log)."""
    ann, bo = state["players"]["Ann"], state["players"]["Bo"]
    assert state["hand"] == "playing" and not state["applied"], state
    assert (bo["status"], bo["chips"], bo["place"]) == ("active", 300, None), state
    assert (ann["status"], ann["chips"], ann["place"]) == ("active", 10_000, None), state
    assert not state["event_finished"], state
    assert state["bust_logged"] == state["back_logged"] == undone, state


def never_half_done(state: dict[str, Any]) -> None:
    for name, player in state["players"].items():
        assert not (player["status"] == "active" and player["chips"] == 0), (name, state)
    assert (state["hand"] == "finished") == (state["players"]["Bo"]["status"] == "eliminated"), state


def crash(server: Server, step: str, post: Any) -> None:
    """Restart the server to die at ``step``, send the write that reaches it."""
    server.kill9()
    server.env["DIRECTOR_CRASH_AT"] = step
    server.start()
    with contextlib.suppress(requests.RequestException):   # it dies before it answers
        post()
    assert server.process is not None
    assert server.process.wait(timeout=20) == 1, "the server did not reach " + step
    server.env.pop("DIRECTOR_CRASH_AT")


@pytest.fixture
def server(tmp_path: Path) -> Any:
    running = Server(tmp_path)
    running.start()
    yield running
    if running.process and running.process.poll() is None:
        running.process.kill()
        running.process.wait(timeout=10)


@pytest.mark.parametrize("step", FINISH_STEPS)
def test_a_crash_while_a_hand_busts_a_player_leaves_all_of_it_or_none(
        server: Server, tmp_path: Path, step: str) -> None:
    game = heads_up(server)
    crash(server, step, lambda: award(server, game))

    state = stored(tmp_path / "crash.sqlite", game["tid"])
    never_half_done(state)
    (assert_all if EVERYTHING[step] else assert_none)(state)

    server.start()                                       # the tablet sends its award again
    again = award(server, game)
    assert again.status_code == 200, again.text
    assert again.json()["finished"]
    assert_all(stored(tmp_path / "crash.sqlite", game["tid"]))


@pytest.mark.parametrize("step", UNDO_STEPS)
def test_a_crash_while_the_bust_is_undone_leaves_all_of_it_or_none(
        server: Server, tmp_path: Path, step: str) -> None:
    game = heads_up(server)
    assert award(server, game).status_code == 200
    assert_all(stored(tmp_path / "crash.sqlite", game["tid"]))
    undo = {"idempotency_key": "undo-1"}

    crash(server, step, lambda: server.post(f"{game['url']}/hand/undo", undo))

    state = stored(tmp_path / "crash.sqlite", game["tid"])
    never_half_done(state)
    if EVERYTHING[step]:
        assert_none(state, undone=True)
    else:
        assert_all(state)

    server.start()
    again = server.post(f"{game['url']}/hand/undo", undo)
    assert again.status_code == 200, again.text
    assert again.json()["finished"] is False
    assert_none(stored(tmp_path / "crash.sqlite", game["tid"]), undone=True)
