"""The shot clock run by the hand (issue 31): house rules, the time of the player to act,
time-bank cards per player per level, the house rule at the end of his time, the time
each player took."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from director.db import db, utcnow
from director.models import Tournament
from director.models.audit import AuditEntry
from director.models.hands import DealerHand, HandEvent
from director.services import dealer
from tests.conftest import level
from tests.web.test_dealer_helpers import play, seat_table


def _shot_clock_table(client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str],
                      levels: list[dict[str, Any]] | None = None, **rules: Any) -> dict[str, Any]:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"],
                   levels=levels or [level(100, 200)])
    r = client.post(f"/api/tournaments/{t['tournament_id']}/house-rules",
                    json={"shot_clock": "30", "time_bank_cards": "1", **rules}, headers=auth)
    assert r.status_code == 200, r.get_json()
    return t


def _paused_hand(client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str],
                 levels: list[dict[str, Any]] | None = None
                 ) -> tuple[dict[str, Any], str, str, dict[str, Any]]:
    """A shot-clock table's hand dealt with the tournament clock running, then the clock
    paused: the table, its URL, the clock's URL and the hand."""
    t = _shot_clock_table(client, make_tournament, auth, levels)
    url = f"/api/tables/{t['id']}"
    clock = f"/api/tournaments/{t['tournament_id']}/clock"
    assert client.post(f"{clock}/start", headers=auth).status_code == 200
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert client.post(f"{clock}/pause", headers=auth).status_code == 200
    return t, url, clock, hand


def _age(app: Flask, hand_id: int, seconds: int) -> None:
    """The hand's writes moved ``seconds`` into the past (time has passed at the table)."""
    with app.app_context():
        for event in db.session.scalars(select(HandEvent).where(HandEvent.hand_id == hand_id)):
            event.created_at -= timedelta(seconds=seconds)
        row = db.session.get(DealerHand, hand_id)
        assert row is not None
        row.started_at -= timedelta(seconds=seconds)
        db.session.commit()
        dealer.forget_cached_hands()


def test_the_shot_clock_is_off_by_default_as_TDA_has_none(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo"], levels=[level(100, 200)])
    hand = client.post(f"/api/tables/{t['id']}/hands", json={}, headers=auth).get_json()
    assert hand["shot_clock"] is None
    r = client.post(f"/api/tables/{t['id']}/hand/shot-clock", json={"seat": hand["to_act"], "use": "time_bank"},
                    headers=auth)
    assert r.status_code == 422 and "without a shot clock" in r.get_json()["error"]


def test_the_shot_clock_starts_when_the_action_reaches_a_player_and_a_time_bank_card_adds_30_seconds(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = _shot_clock_table(client, make_tournament, auth)
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    clock = hand["shot_clock"]
    assert clock["seat"] == hand["to_act"] and clock["seconds"] == 30 and clock["warn_seconds"] == 10
    assert clock["cards_left"] == 1 and clock["expiry"] == "dead"
    assert dealer.utc(clock["ends_at"]) - dealer.utc(clock["started_at"]) == timedelta(seconds=30)
    after = play(client, url, auth, hand, ["call"])
    assert after["shot_clock"]["seat"] == after["to_act"] != hand["to_act"]
    assert after["shot_clock"]["started_at"] >= clock["started_at"]
    seat = after["to_act"]
    banked = client.post(f"{url}/hand/shot-clock", json={"seat": seat, "use": "time_bank",
                                                          "version": after["version"]}, headers=auth)
    assert banked.status_code == 200, banked.get_json()
    now = banked.get_json()["shot_clock"]
    assert now["cards_left"] == 0 and now["started_at"] == after["shot_clock"]["started_at"]
    assert dealer.utc(now["ends_at"]) - dealer.utc(now["started_at"]) == timedelta(seconds=60)
    assert any("time-bank card" in line["text"] for line in banked.get_json()["log"])
    again = client.post(f"{url}/hand/shot-clock", json={"seat": seat, "use": "time_bank",
                                                         "version": now and banked.get_json()["version"]},
                        headers=auth)
    assert again.status_code == 422 and "no time-bank card left" in again.get_json()["error"]


def test_a_shot_clock_that_has_not_run_out_cannot_be_applied(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = _shot_clock_table(client, make_tournament, auth)
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    r = client.post(f"{url}/hand/shot-clock", json={"seat": hand["to_act"], "use": "expired",
                                                     "version": hand["version"]}, headers=auth)
    assert r.status_code == 422 and "still has" in r.get_json()["error"]


def test_when_the_shot_clock_runs_out_the_house_rule_kills_the_hand(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = _shot_clock_table(client, make_tournament, auth)
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    _age(app, hand["hand_id"], 31)
    seat = hand["to_act"]
    r = client.post(f"{url}/hand/shot-clock", json={"seat": seat, "use": "expired",
                                                     "version": hand["version"]}, headers=auth)
    assert r.status_code == 200, r.get_json()
    after = r.get_json()
    assert next(s for s in after["seats"] if s["seat"] == seat)["status"] == "dead"
    assert any("Shot clock" in line["text"] for line in after["log"])


def test_with_the_check_or_fold_rule_a_player_out_of_time_checks_when_he_can(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = _shot_clock_table(client, make_tournament, auth, shot_clock_expiry="check-fold")
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = play(client, url, auth, hand, ["call", "call"])          # the big blind may check
    _age(app, hand["hand_id"], 31)
    r = client.post(f"{url}/hand/shot-clock", json={"seat": hand["to_act"], "use": "expired",
                                                     "version": hand["version"]}, headers=auth)
    assert r.status_code == 200, r.get_json()
    after = r.get_json()
    assert after["awaiting"] == "board" and all(s["status"] == "active" for s in after["seats"])


def test_the_time_each_player_took_is_kept_per_hand_and_shown_to_the_director(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = _shot_clock_table(client, make_tournament, auth)
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    first = hand["to_act"]
    _age(app, hand["hand_id"], 12)                  # he took 12 seconds
    hand = play(client, url, auth, hand, ["fold"])
    answer = client.get(f"/api/hands/{hand['hand_id']}").get_json()
    used = {u["seat"]: u["seconds"] for u in answer["time_used"]}
    assert used[first] in (12, 13)
    page = client.get(f"/director/{t['tournament_id']}/dealers/{t['id']}/hands", headers=auth)
    assert page.status_code == 200
    assert "Time used" in page.get_data(as_text=True)


def test_the_shot_clock_stands_still_while_the_tournament_clock_is_paused_and_runs_on_when_play_resumes(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = _shot_clock_table(client, make_tournament, auth)
    url = f"/api/tables/{t['id']}"
    clock = f"/api/tournaments/{t['tournament_id']}/clock"
    assert client.post(f"{clock}/start", headers=auth).status_code == 200
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert hand["shot_clock"]["paused"] is False
    assert client.post(f"{clock}/pause", headers=auth).status_code == 200
    _timeline(app, t["tournament_id"], hand["hand_id"], 60, {"paused": 55})   # 5 s used, then paused
    paused = client.get(f"{url}/hand").get_json()
    assert paused["shot_clock"]["paused"] is True
    r = client.post(f"{url}/hand/shot-clock", json={"seat": hand["to_act"], "use": "expired",
                                                     "version": hand["version"]}, headers=auth)
    assert r.status_code == 422 and "paused" in r.get_json()["error"]
    assert client.post(f"{clock}/resume", headers=auth).status_code == 200
    resumed = client.get(f"{url}/hand").get_json()["shot_clock"]
    assert resumed["paused"] is False
    left = dealer.utc(resumed["ends_at"]) - dealer.utc(resumed["now"])
    assert timedelta(seconds=24) <= left <= timedelta(seconds=25)   # the 25 s he had left
    r = client.post(f"{url}/hand/shot-clock", json={"seat": hand["to_act"], "use": "expired",
                                                     "version": hand["version"]}, headers=auth)
    assert r.status_code == 422 and "still has" in r.get_json()["error"]


def test_the_shot_clock_stands_still_while_the_tournament_clock_is_paused_with_the_level_given_back(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    """Paused in the first level with exactly the time it ran given back: the level shows
    no time run, and the tournament clock still stands still (it was started)."""
    t, url, clock, hand = _paused_hand(client, make_tournament, auth)
    with app.app_context():
        tournament = db.session.get(Tournament, t["tournament_id"])
        assert tournament is not None and not tournament.running
        tournament.elapsed_before = 0.0             # what it ran, given back to the second
        db.session.commit()
        dealer.forget_cached_hands()
    state = client.get(f"{url}/hand").get_json()
    assert state["version"] == hand["version"]
    assert state["shot_clock"]["paused"] is True
    assert client.get(clock).get_json()["started"] is True


def test_the_shot_clock_stands_still_while_the_paused_tournament_clock_is_moved_to_the_next_level(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    """The director pauses and moves to the next level (its blinds go up when play
    resumes): the new level has run nothing yet, and the clock still stands still."""
    t, url, clock, hand = _paused_hand(client, make_tournament, auth,
                                       levels=[level(100, 200), level(200, 400)])
    assert client.post(f"{clock}/next", headers=auth).status_code == 200
    state = client.get(clock).get_json()
    assert state["level_index"] == 1 and state["running"] is False
    assert client.get(f"{url}/hand").get_json()["shot_clock"]["paused"] is True


def _timeline(app: Flask, tournament_id: int, hand_id: int, reached: int, clock: dict[str, int]) -> None:
    """The action reached the player ``reached`` seconds ago; the tournament clock's lines
    of the log (``{"paused": 80, "resumed": 20}``: seconds ago) moved to those moments."""
    with app.app_context():
        now = utcnow()
        for event in db.session.scalars(select(HandEvent).where(HandEvent.hand_id == hand_id)):
            event.created_at = now - timedelta(seconds=reached)
        row = db.session.get(DealerHand, hand_id)
        assert row is not None
        row.started_at = now - timedelta(seconds=reached)
        for entry in db.session.scalars(select(AuditEntry).where(AuditEntry.kind == "clock")):
            said = next((w for w in clock if (entry.message or "").lower().startswith(f"clock {w}")), None)
            if said is not None and entry.details.get("tournament_id") == tournament_id:
                entry.at = now - timedelta(seconds=clock[said])
        db.session.commit()
        dealer.forget_cached_hands()


def test_a_pause_of_the_tournament_clock_keeps_the_time_the_player_had_left(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = _shot_clock_table(client, make_tournament, auth)
    url = f"/api/tables/{t['id']}"
    clock = f"/api/tournaments/{t['tournament_id']}/clock"
    assert client.post(f"{clock}/start", headers=auth).status_code == 200
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seat = hand["to_act"]
    assert client.post(f"{clock}/pause", headers=auth).status_code == 200
    assert client.post(f"{clock}/resume", headers=auth).status_code == 200
    # the action reached him 70 s ago; 10 s later the clock was paused for 60 s
    _timeline(app, t["tournament_id"], hand["hand_id"], 70, {"paused": 60, "resumed": 0})
    shot = client.get(f"{url}/hand").get_json()["shot_clock"]
    left = (dealer.utc(shot["ends_at"]) - dealer.utc(shot["now"])).total_seconds()
    assert 19 <= left <= 20                                   # not 30, not -40
    expire = {"seat": seat, "use": "expired", "version": hand["version"]}
    _timeline(app, t["tournament_id"], hand["hand_id"], 89, {"paused": 79, "resumed": 19})
    r = client.post(f"{url}/hand/shot-clock", json=expire, headers=auth)
    assert r.status_code == 422 and "still has 1 seconds" in r.get_json()["error"]
    _timeline(app, t["tournament_id"], hand["hand_id"], 90, {"paused": 80, "resumed": 20})
    r = client.post(f"{url}/hand/shot-clock", json=expire, headers=auth)
    assert r.status_code == 200, r.get_json()
    assert next(s for s in r.get_json()["seats"] if s["seat"] == seat)["status"] == "dead"


def test_while_the_tournament_clock_is_paused_the_time_left_is_what_he_had_when_it_stopped(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t, url, clock, hand = _paused_hand(client, make_tournament, auth)
    _timeline(app, t["tournament_id"], hand["hand_id"], 300, {"paused": 288})   # 12 s used
    shot = client.get(f"{url}/hand").get_json()["shot_clock"]
    assert shot["paused"] is True
    left = (dealer.utc(shot["ends_at"]) - dealer.utc(shot["now"])).total_seconds()
    assert 17 <= left <= 18


def test_the_time_a_tablet_was_offline_does_not_count_against_the_player_to_act_up_to_his_turn(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = _shot_clock_table(client, make_tournament, auth)
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seat = hand["to_act"]
    _timeline(app, t["tournament_id"], hand["hand_id"], 40, {})     # 40 s since he got the action
    back = {"seat": seat, "use": "offline", "offline_seconds": 25, "version": hand["version"],
            "idempotency_key": "back-1"}
    r = client.post(f"{url}/hand/shot-clock", json=back, headers=auth)
    assert r.status_code == 200, r.get_json()
    shot = r.get_json()["shot_clock"]
    left = (dealer.utc(shot["ends_at"]) - dealer.utc(shot["now"])).total_seconds()
    assert 14 <= left <= 15                               # 40 - 25 = 15 s used of 30
    assert any("offline" in line["text"] for line in r.get_json()["log"])
    again = client.post(f"{url}/hand/shot-clock", json=back, headers=auth)   # a retry: once
    assert again.get_json()["version"] == r.get_json()["version"]
    # offline longer than his turn: only his turn's time is given back, not more
    long = {**back, "offline_seconds": 3000, "version": r.get_json()["version"], "idempotency_key": "back-2"}
    shot = client.post(f"{url}/hand/shot-clock", json=long, headers=auth).get_json()["shot_clock"]
    left = (dealer.utc(shot["ends_at"]) - dealer.utc(shot["now"])).total_seconds()
    assert 29 <= left <= 30
    for bad in ({**back, "offline_seconds": None, "idempotency_key": None},
                {**back, "offline_seconds": "ten", "idempotency_key": None},
                {**back, "offline_seconds": -5, "idempotency_key": None}):
        r = client.post(f"{url}/hand/shot-clock", json=bad, headers=auth)
        assert r.status_code == 400 and "offline_seconds" in (r.get_json().get("errors") or {}), r.get_json()
