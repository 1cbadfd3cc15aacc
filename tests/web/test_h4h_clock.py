"""Issue 14, item 3: hand-for-hand takes the time off once (TDA RP-8; WSOP-T 126).

When hand-for-hand starts the clock pauses; each completed round (every table
finished its hand) takes the house's set time off the level, once; when it ends
the clock runs again.  Before, the clock kept running *and* the time came off per
hand: twice."""

from __future__ import annotations

from collections.abc import Callable

from flask.testing import FlaskClient

from director.db import db
from director.models.seating import SeatingLogEntry
from director.services import clock, read_model, seating
from director.services.audit import said_again


def running_and_left(tid: int) -> tuple[bool, float]:
    db.session.expire_all()
    state = read_model.clock_state(tid)
    return state["running"], state["seconds_remaining"]


def test_TDA_RP8_hand_for_hand_start_pauses_the_clock(field: Callable[..., int]) -> None:
    tid = field(12, table_size=6, hand_for_hand_seconds=120)
    clock.start(tid)
    seating.hand_for_hand(tid, "announce")
    assert running_and_left(tid)[0] is True              # the announcement hand: still running
    seating.hand_for_hand(tid, "start")
    running, left = running_and_left(tid)
    assert running is False and 1190 < left <= 1200
    assert seating.hand_for_hand_on(tid)
    assert running_and_left(tid)[1] == left              # paused: no time runs


def test_TDA_RP8_each_completed_round_takes_the_set_time_off_once(
        field: Callable[..., int]) -> None:
    tid = field(12, table_size=6, hand_for_hand_seconds=120)
    clock.start(tid)
    seating.hand_for_hand(tid, "start")
    _, before = running_and_left(tid)
    result = seating.hand_for_hand(tid, "finish")
    assert result["seconds_deducted"] == 120
    running, after = running_and_left(tid)
    assert running is False and round(before - after, 3) == 120   # once; nothing runs besides
    seating.hand_for_hand(tid, "finish")
    running, after = running_and_left(tid)
    assert running is False and round(before - after, 3) == 240


def test_TDA_RP8_hand_for_hand_end_restarts_the_clock(field: Callable[..., int]) -> None:
    tid = field(12, table_size=6, hand_for_hand_seconds=120)
    clock.start(tid)
    seating.hand_for_hand(tid, "start")
    seating.hand_for_hand(tid, "finish")
    _, left = running_and_left(tid)
    seating.hand_for_hand(tid, "stop")
    running, now_left = running_and_left(tid)
    assert running is True and left - 5 < now_left <= left
    assert not seating.hand_for_hand_on(tid)
    lines = [said_again(e.text) for e in seating.overview(tid).log]
    assert "Hand-for-hand is over: the clock runs again" in lines
    assert "Hand-for-hand: every table deals one hand and waits; the clock is paused" in lines


def test_a_clock_the_director_had_paused_stays_paused_after_hand_for_hand(
        field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    clock.start(tid)
    clock.pause(tid)
    seating.hand_for_hand(tid, "start")
    seating.hand_for_hand(tid, "stop")
    assert running_and_left(tid)[0] is False
    assert [said_again(e.text) for e in db.session.query(SeatingLogEntry).filter_by(
        tournament_id=tid)].count("Hand-for-hand is over") == 1


def test_hand_for_hand_through_the_api_pauses_and_restarts_the_clock(
        client: FlaskClient, auth: dict[str, str], field: Callable[..., int]) -> None:
    tid = field(12, table_size=6)
    url = f"/api/tournaments/{tid}"
    assert client.post(f"{url}/clock/start", headers=auth).status_code == 200
    r = client.post(f"{url}/seating/hand-for-hand", json={"action": "start"}, headers=auth)
    assert r.status_code == 200 and r.get_json()["hand_for_hand"]["on"] is True
    assert client.get(f"{url}/clock").get_json()["running"] is False
    r = client.post(f"{url}/seating/hand-for-hand", json={"action": "stop"}, headers=auth)
    assert r.status_code == 200
    assert client.get(f"{url}/clock").get_json()["running"] is True
