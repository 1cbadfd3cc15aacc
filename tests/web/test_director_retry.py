"""A director's clock control or status change sent again is applied once.

On the room's Wi-Fi an answer gets lost: the director's page (or an API client)
sends the same request again with the same ``idempotency_key``.  Sent again, it
changes nothing and answers the clock as it is now; a new click (a new key) is a
new change.  Without a key a request is applied each time it is sent, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from director.db import db
from director.models.requests import DirectorRequest
from director.models.seating import SeatingLogEntry
from director.services import audit
from tests.conftest import level
from tests.web.test_concurrency import posted_at_once

LEVELS = [level(25, 50, seconds=1200), level(50, 100, seconds=1200), level(100, 200, seconds=1200)]


@pytest.fixture
def clock(client: FlaskClient, auth: dict[str, str],
          make_tournament: Callable[..., int]) -> Callable[..., Any]:
    """``clock(path, **body)``: POST to the event's clock API, the answer."""
    tid = make_tournament(levels=LEVELS)

    def post(path: str, **body: Any) -> Any:
        return client.post(f"/api/tournaments/{tid}/clock/{path}", json=body, headers=auth)

    post.tid = tid  # type: ignore[attr-defined]
    return post


def log_lines(app: Flask, tid: int, key: str) -> int:
    """How many lines ``key`` ("time added") the event's log has."""
    with app.app_context():
        message = audit.SENTENCES[key][1]
        return sum(1 for entry in audit.recent(limit=1000)
                   if entry.message == message and (entry.details or {}).get("tournament_id") == tid)


def test_time_added_sent_again_with_its_key_is_added_once(clock, app):
    assert clock("start", idempotency_key="start-1").status_code == 200
    assert clock("pause", idempotency_key="pause-1").status_code == 200
    first = clock("adjust", seconds=60, idempotency_key="plus-1")
    again = clock("adjust", seconds=60, idempotency_key="plus-1")
    assert first.status_code == again.status_code == 200, again.get_json()
    assert first.get_json()["seconds_remaining"] == pytest.approx(1260, abs=1)
    assert again.get_json()["seconds_remaining"] == pytest.approx(1260, abs=1)
    assert again.get_json()["version"] == first.get_json()["version"]
    assert log_lines(app, clock.tid, "time added") == 1
    # A new click is a new change.
    third = clock("adjust", seconds=60, idempotency_key="plus-2")
    assert third.get_json()["seconds_remaining"] == pytest.approx(1320, abs=1)
    assert log_lines(app, clock.tid, "time added") == 2


def test_next_level_sent_again_with_its_key_moves_one_level(clock, app):
    clock("start")
    moved = clock("next", idempotency_key="next-1")
    again = clock("next", idempotency_key="next-1")
    assert moved.get_json()["level_index"] == again.get_json()["level_index"] == 1
    assert log_lines(app, clock.tid, "level started") == 1
    back = clock("previous", idempotency_key="back-1")
    assert clock("previous", idempotency_key="back-1").get_json()["level_index"] == 0
    assert back.get_json()["level_index"] == 0


def test_pause_and_resume_sent_again_answer_as_the_first_time(clock, app):
    clock("start")
    for _ in range(2):
        paused = clock("pause", idempotency_key="pause-1")
        assert paused.status_code == 200 and paused.get_json()["running"] is False
    for _ in range(2):
        resumed = clock("resume", idempotency_key="resume-1")
        assert resumed.status_code == 200 and resumed.get_json()["running"] is True
    assert log_lines(app, clock.tid, "clock paused") == 1
    assert log_lines(app, clock.tid, "clock resumed") == 1


def test_without_a_key_each_request_is_applied(clock):
    clock("start")
    clock("pause")
    clock("adjust", seconds=60)
    assert clock("adjust", seconds=60).get_json()["seconds_remaining"] == pytest.approx(1320, abs=1)


def test_copies_of_one_request_racing_each_other_are_applied_once(app, auth, clock):
    """Eight copies of one "+10 s" at once (a page and its retries): each answered 200,
    the time added once, one key kept."""
    clock("start")
    clock("pause")
    statuses = posted_at_once(app, f"/api/tournaments/{clock.tid}/clock/adjust",
                              {"seconds": 10, "idempotency_key": "race-1"}, auth)
    assert statuses == [200] * 8
    state = app.test_client().get(f"/api/tournaments/{clock.tid}/clock").get_json()
    assert state["seconds_remaining"] == pytest.approx(1210, abs=1)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(DirectorRequest).where(
            DirectorRequest.tournament_id == clock.tid)) == 1


def test_a_key_is_kept_per_event(client, auth, make_tournament):
    one, two = make_tournament(levels=LEVELS), make_tournament(levels=LEVELS)
    for tid in (one, two):
        client.post(f"/api/tournaments/{tid}/clock/start", headers=auth)
        answer = client.post(f"/api/tournaments/{tid}/clock/next", json={"idempotency_key": "k"},
                             headers=auth)
        assert answer.get_json()["level_index"] == 1


def test_a_refused_request_keeps_no_key_and_changes_nothing(clock):
    """"Next" on the last level is refused, and sent again it is refused again."""
    clock("start")
    clock("next")
    clock("next")
    for _ in range(2):
        refused = clock("next", idempotency_key="past-the-end")
        assert refused.status_code == 400 and "level_index" in refused.get_json()["errors"]


@pytest.mark.parametrize("key", ["", "x" * 101, 7, True, ["k"], {"k": 1}])
@pytest.mark.parametrize("path", ["start", "adjust"])
def test_a_bad_key_is_a_400_naming_it_and_changes_nothing(clock, client, key, path):
    body = {"seconds": 60} if path == "adjust" else {}
    before = client.get(f"/api/tournaments/{clock.tid}/clock").get_json()
    refused = clock(path, idempotency_key=key, **body)
    assert refused.status_code == 400
    assert list(refused.get_json()["errors"]) == ["idempotency_key"]
    after = client.get(f"/api/tournaments/{clock.tid}/clock").get_json()
    assert after["version"] == before["version"] and after["running"] is False


def test_cancel_and_reopen_sent_again_with_their_keys_answer_as_the_first_time(
        client, auth, make_tournament, app):
    tid = make_tournament(levels=LEVELS)
    url = f"/api/tournaments/{tid}"
    for _ in range(2):
        cancelled = client.post(f"{url}/cancel", json={"idempotency_key": "cancel-1"},
                                headers=auth)
        assert cancelled.status_code == 200 and cancelled.get_json()["status"] == "cancelled"
    for _ in range(2):
        reopened = client.post(f"{url}/reopen", json={"idempotency_key": "reopen-1"},
                               headers=auth)
        assert reopened.status_code == 200 and reopened.get_json()["status"] == "registering"
    assert log_lines(app, tid, "event cancelled") == 1
    assert log_lines(app, tid, "event reopened") == 1
    # Without a key the second cancel is refused, as before.
    assert client.post(f"{url}/cancel", headers=auth).status_code == 200
    assert client.post(f"{url}/cancel", headers=auth).status_code == 400


def test_the_pages_cancel_form_sent_twice_cancels_once(client, auth, make_tournament, login,
                                                       csrf, app):
    """The browser sends the form again (its answer was lost): the same key, one change,
    and the director reads that the event is cancelled, not an error."""
    tid = make_tournament(levels=LEVELS)
    login()
    page = client.get(f"/director/{tid}").get_data(as_text=True)
    form = page[page.index('change=\'cancel\'') if "change='cancel'" in page else
                page.index(f"/director/{tid}/cancel"):]
    key = form.split('name="idempotency_key" value="', 1)[1].split('"', 1)[0]
    assert len(key) >= 16
    for _ in range(2):
        done = client.post(f"/director/{tid}/cancel",
                           data={"csrf_token": csrf(), "idempotency_key": key},
                           follow_redirects=True)
        assert done.status_code == 200
        text = done.get_data(as_text=True)
        assert "The event is cancelled." in text and "Not changed" not in text
    assert log_lines(app, tid, "event cancelled") == 1


# ---------------------------------------------------------------- the seating page's clicks


def sent_twice(client: FlaskClient, csrf: Callable[[], str], page: str, section: str,
               action: str, fields: dict[str, str]) -> list[str]:
    """A page's form (the first after ``section``) sent twice with the key it was drawn
    with, as a double click or a browser's resend does: the two pages shown after."""
    text = client.get(page).get_data(as_text=True)
    key = text[text.index(section):].split('name="idempotency_key" value="', 1)[1]
    key = key.split('"', 1)[0]
    said = []
    for _ in range(2):
        done = client.post(action, follow_redirects=True,
                           data={"csrf_token": csrf(), "idempotency_key": key, **fields})
        assert done.status_code == 200
        said.append(done.get_data(as_text=True))
    return said


def test_the_draw_clicked_twice_draws_once_and_says_done_already(
        client, auth, field, login, csrf):
    """Before, the second click read "Seats are already drawn" in red after its own draw."""
    tid = field(12, draw=False, table_size=6)
    login()
    said = sent_twice(client, csrf, f"/director/{tid}/seating", f"/director/{tid}/seating/draw",
                      f"/director/{tid}/seating/draw", {})
    assert "already drawn" not in said[0] and "Done already: the seats are drawn" in said[1]
    assert "already drawn" not in said[1]
    seating = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    assert len(seating["tables"]) == 2
    assert sum(1 for p in seating["players"] if p["seat"] is not None) == 12


def test_the_draw_sent_again_with_its_key_answers_done_already_and_keeps_the_seats(
        client, auth, field):
    tid = field(12, draw=False, table_size=6)
    url = f"/api/tournaments/{tid}/seating/draw"
    first = client.post(url, json={"idempotency_key": "draw-1"}, headers=auth)
    seats = {p["id"]: p["seat"] for p in client.get(f"/api/tournaments/{tid}/seating",
                                                     headers=auth).get_json()["players"]}
    again = client.post(url, json={"idempotency_key": "draw-1"}, headers=auth)
    assert first.status_code == again.status_code == 200, again.get_json()
    assert again.get_json()["done_already"] is True
    assert {p["id"]: p["seat"] for p in client.get(f"/api/tournaments/{tid}/seating",
                                                    headers=auth).get_json()["players"]} == seats
    other = client.post(url, json={"idempotency_key": "draw-2"}, headers=auth)
    assert other.status_code == 400 and "draw" in other.get_json()["errors"]


def _table_one_button(client: FlaskClient, auth: dict[str, str], tid: int) -> int:
    seating = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    table = next(t for t in seating["tables"] if t["number"] == 1)
    return int(table["next_hand"]["button"])


def test_hand_finished_at_every_table_clicked_twice_takes_the_time_off_once(
        client, auth, field, login, csrf, app):
    """Hand-for-hand at the bubble: a double click on "Hand finished at every table" (one
    form, one key) counts one hand and takes the house's seconds off once (TDA RP-8)."""
    tid = field(12, table_size=6, hand_for_hand_seconds=120)
    client.post(f"/api/tournaments/{tid}/clock/start", headers=auth)
    assert client.post(f"/api/tournaments/{tid}/seating/hand-for-hand", headers=auth,
                       json={"action": "start"}).status_code == 200
    before = client.get(f"/api/tournaments/{tid}/clock").get_json()["seconds_remaining"]
    login()
    said = sent_twice(client, csrf, f"/director/{tid}/seating", 'id="hand-for-hand"',
                      f"/director/{tid}/seating/hand-for-hand", {"action": "finish"})
    assert "120 seconds off the clock" in said[0]
    assert "Done already: the hand is finished at every table, once (the same request arrived twice)." in said[1]
    after = client.get(f"/api/tournaments/{tid}/clock").get_json()["seconds_remaining"]
    assert round(before - after) == 120
    state = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    assert state["hand_for_hand"]["hands_played"] == 1


def test_a_hand_dealt_sent_again_with_its_key_moves_the_button_once(client, auth, field):
    tid = field(12, table_size=6)
    url = f"/api/tournaments/{tid}/seating/tables/1/deal"
    first = client.post(url, json={"idempotency_key": "deal-1"}, headers=auth)
    assert first.status_code == 200
    moved = _table_one_button(client, auth, tid)
    again = client.post(url, json={"idempotency_key": "deal-1"}, headers=auth)
    assert again.status_code == 200 and again.get_json()["done_already"] is True
    assert _table_one_button(client, auth, tid) == moved
    assert client.post(url, json={"idempotency_key": "deal-2"}, headers=auth).status_code == 200
    assert _table_one_button(client, auth, tid) != moved          # a new deal moves it on


def test_an_undo_sent_again_with_its_key_takes_back_nothing_more(client, auth, field):
    tid = field(12, table_size=6)                 # the draw: undoable until a hand is dealt
    url = f"/api/tournaments/{tid}/seating/undo"
    first = client.post(url, json={"idempotency_key": "undo-1"}, headers=auth)
    assert first.status_code == 200 and first.get_json()["undone"]
    again = client.post(url, json={"idempotency_key": "undo-1"}, headers=auth)
    assert again.status_code == 200 and again.get_json()["done_already"] is True
    refused = client.post(url, json={"idempotency_key": "undo-2"}, headers=auth)
    assert refused.status_code == 400 and "undo" in refused.get_json()["errors"]


def test_a_bust_sent_again_with_its_key_is_done_already_not_refused(
        client, auth, field, login, csrf):
    """The phone's *Bust a player* tapped twice (one form, one key): one bust, and the
    second tap reads "Done already", not "already out"."""
    tid = field(12, table_size=6)
    seating = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    out = seating["players"][0]["id"]
    login()
    said = sent_twice(client, csrf, f"/director/{tid}/phone", 'id="phone-bust"',
                      f"/director/{tid}/seating/eliminate",
                      {"back": "phone", "player_ids": str(out), "by": ""})
    assert "Eliminated (place 12)." in said[0]
    assert "Done already: the player is out, once (the same request arrived twice)." in said[1]
    after = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    assert after["players_left"] == 11
    api = f"/api/tournaments/{tid}/seating/eliminate"
    other = next(p["id"] for p in after["players"] if p["id"] != out)
    first = client.post(api, json={"player_id": other, "idempotency_key": "bust-2"}, headers=auth)
    again = client.post(api, json={"player_id": other, "idempotency_key": "bust-2"}, headers=auth)
    assert first.status_code == 200, first.get_json()
    assert again.status_code == 200 and again.get_json()["done_already"] is True
    assert client.get(f"/api/tournaments/{tid}/seating",
                      headers=auth).get_json()["players_left"] == 10


def test_a_key_sent_again_with_another_request_is_refused_and_changes_nothing(
        client, auth, field, login, csrf, clock):
    """The phone's *Bust a player* form kept from before (the browser's back button, its
    key drawn once) and sent again for another player: refused naming the key, the
    other player still in; the same bust sent again is still "Done already", and a key
    kept on one route and sent on another is refused too."""
    tid = field(12, table_size=6)
    players = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()["players"]
    first, second = players[0]["id"], players[1]["id"]
    login()
    text = client.get(f"/director/{tid}/phone").get_data(as_text=True)
    key = text[text.index('id="phone-bust"'):].split(
        'name="idempotency_key" value="', 1)[1].split('"', 1)[0]
    said = []
    for out in (first, second, first):
        done = client.post(f"/director/{tid}/seating/eliminate", follow_redirects=True,
                           data={"csrf_token": csrf(), "idempotency_key": key, "back": "phone",
                                 "player_ids": str(out), "by": ""})
        said.append(done.get_data(as_text=True))
    assert '<p class="flash" role="status">Eliminated (place 12).' in said[0]
    # said as a refusal (red, an alert), not as done
    assert ('<p class="flash error" role="alert">Not done: This form was sent before, for '
            'another change: reload the page and send it again') in said[1]
    assert '<p class="flash" role="status">Done already: the player is out, once' in said[2]
    after = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    assert after["players_left"] == 11
    assert next(p for p in after["players"] if p["id"] == second)["status"] == "active"
    # the API: the same body in another order and spacing is the same request
    api = f"/api/tournaments/{tid}/seating/eliminate"
    assert client.post(api, json={"player_id": second, "idempotency_key": "b-2"},
                       headers=auth).status_code == 200
    again = client.post(api, data=f'{{ "idempotency_key" : "b-2",  "player_id": {second} }}',
                        content_type="application/json", headers=auth)
    assert again.status_code == 200 and again.get_json()["done_already"] is True
    third = next(p["id"] for p in after["players"] if p["id"] not in (first, second))
    refused = client.post(api, json={"player_id": third, "idempotency_key": "b-2"}, headers=auth)
    assert refused.status_code == 400
    assert refused.get_json()["errors"] == {"idempotency_key": (
        "This form was sent before, for another change: reload the page and send it again")}
    assert client.get(f"/api/tournaments/{tid}/seating",
                      headers=auth).get_json()["players_left"] == 10
    # a clock's key sent with another clock control
    assert clock("start", idempotency_key="c-1").status_code == 200
    assert clock("pause", idempotency_key="c-1").status_code == 400
    assert clock("start", idempotency_key="c-1").status_code == 200


def _pending_after_two_busts(client: FlaskClient, auth: dict[str, str], tid: int) -> int:
    """Two busts at table 1 of two six-handed tables: the rules propose a balance."""
    seating = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    table = next(t for t in seating["tables"] if t["number"] == 1)
    for player_id in [s["player_id"] for s in table["seats"]][:2]:
        assert client.post(f"/api/tournaments/{tid}/seating/eliminate", headers=auth,
                           json={"player_id": player_id}).status_code == 200
    pending = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()["pending_plan"]
    assert pending is not None and pending["moves"]
    return int(pending["id"])


DECIDED_TWICE = {   # what the second click's page says: what the first did, once
    "confirm": "Done already: the moves are confirmed, once (the same request arrived twice).",
    "discard": "Done already: the plan is discarded, once (the same request arrived twice)."}


def _plan_decided_twice(client: FlaskClient, auth: dict[str, str], field: Any, login: Any,
                        csrf: Callable[[], str], decision: str, section: str,
                        ) -> tuple[int, list[str]]:
    """A pending balance's ``decision`` (confirm, discard) sent twice from the seating
    page's form (``section``: where on the page that form is): the event and the two
    pages shown after; the second says "Done already"."""
    tid = field(12, table_size=6)
    plan_id = _pending_after_two_busts(client, auth, tid)
    login()
    said = sent_twice(client, csrf, f"/director/{tid}/seating", section,
                      f"/director/{tid}/seating/plans/{plan_id}/{decision}", {})
    assert DECIDED_TWICE[decision] in said[1]
    return tid, said


def test_a_plan_confirmed_twice_from_the_page_moves_the_players_once_and_says_done_already(
        client, auth, field, login, csrf):
    """*Confirm these moves* double clicked (one form, one key): the balance is applied
    once and the second click reads "Done already", not "This plan was already
    confirmed"; a confirm sent again with the key through the API answers done_already."""
    tid, said = _plan_decided_twice(client, auth, field, login, csrf, "confirm",
                                    'id="pending-moves"')
    assert "Confirmed:" in said[0] and "already confirmed" not in said[1]
    room = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    assert sorted(len(t["seats"]) for t in room["tables"]) == [5, 5]
    assert room["can_undo"] is True
    plan_id = _pending_after_two_busts(client, auth, tid)            # 3 and 5: a new balance
    url = f"/api/tournaments/{tid}/seating/plans/{plan_id}/confirm"
    first = client.post(url, json={"idempotency_key": "confirm-2"}, headers=auth)
    again = client.post(url, json={"idempotency_key": "confirm-2"}, headers=auth)
    assert first.status_code == 200 and first.get_json()["confirmed"]
    assert again.status_code == 200 and again.get_json()["done_already"] is True
    refused = client.post(url, json={"idempotency_key": "confirm-3"}, headers=auth)
    assert refused.status_code == 400 and "already" in refused.get_json()["errors"]["plan_id"]


def test_a_plan_discarded_twice_says_done_already(client, auth, field, login, csrf):
    tid, said = _plan_decided_twice(client, auth, field, login, csrf, "discard",
                                    'id="confirm-plan"')
    assert "The proposed moves were discarded." in said[0]
    room = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    assert room["pending_plan"] is None
    assert sorted(len(t["seats"]) for t in room["tables"]) == [4, 6]


def test_a_reseat_sent_twice_moves_the_player_once_and_says_done_already(
        app, client, auth, field, login, csrf):
    """*Reseat* double clicked: the player moves once, and the second click reads "Done
    already", not "seat 6 is taken" by the player himself."""
    tid = field(10, table_size=6)
    room = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    table = next(t for t in room["tables"] if len(t["seats"]) < 6)
    free = min(set(range(1, 7)) - {s["seat"] for s in table["seats"]})
    other = next(t for t in room["tables"] if t["number"] != table["number"])
    mover = other["seats"][0]["player_id"]
    login()
    said = sent_twice(client, csrf, f"/director/{tid}/seating", 'id="reseat"',
                      f"/director/{tid}/seating/reseat",
                      {"player_id": str(mover), "table": str(table["number"]), "seat": str(free)})
    assert "Reseated:" in said[0]
    assert "Done already: the player is moved, once (the same request arrived twice)." in said[1]
    assert "is taken by" not in said[1]
    after = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    where = next(p for p in after["players"] if p["id"] == mover)
    assert (where["table"], where["seat"]) == (table["number"], free)
    with app.app_context():
        assert db.session.scalar(select(func.count(SeatingLogEntry.id)).where(
            SeatingLogEntry.tournament_id == tid, SeatingLogEntry.action == "reseat")) == 1
    url = f"/api/tournaments/{tid}/seating/reseat"
    body = {"player_id": mover, "table": other["number"], "seat": other["seats"][0]["seat"],
            "idempotency_key": "reseat-2"}
    assert client.post(url, json=body, headers=auth).status_code == 200
    again = client.post(url, json=body, headers=auth)
    assert again.status_code == 200 and again.get_json()["done_already"] is True


@pytest.mark.parametrize("key", ["", "x" * 101, 7, True, ["k"], {"k": 1}])
def test_a_bad_key_on_confirm_discard_or_reseat_is_a_400_naming_it_and_changes_nothing(
        client, auth, field, key):
    tid = field(12, table_size=6)
    plan_id = _pending_after_two_busts(client, auth, tid)
    before = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    seated = before["tables"][0]["seats"][0]
    url = f"/api/tournaments/{tid}/seating"
    for path, body in ((f"plans/{plan_id}/confirm", {}), (f"plans/{plan_id}/discard", {}),
                       ("reseat", {"player_id": seated["player_id"], "table": 2, "seat": 6})):
        refused = client.post(f"{url}/{path}", json={**body, "idempotency_key": key},
                              headers=auth)
        assert refused.status_code == 400, (path, refused.get_json())
        assert list(refused.get_json()["errors"]) == ["idempotency_key"], path
    after = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    assert after["pending_plan"]["id"] == plan_id and after["tables"] == before["tables"]


@pytest.mark.parametrize("write", ["confirm", "undo", "deal"])
def test_copies_of_one_seating_click_racing_each_other_are_applied_once_and_all_answered(
        app, client, auth, field, write):
    """Eight copies of one keyed click at once (a script, or a double click on a slow
    laptop): each reads the room before any commits, one wins and the others lose the
    seating's lock; they are answered as copies ("done already"), not "someone else
    changed the seating at the same moment"."""
    tid = field(12, table_size=6)
    url = f"/api/tournaments/{tid}/seating"
    if write == "confirm":
        url += f"/plans/{_pending_after_two_busts(client, auth, tid)}/confirm"
    elif write == "undo":
        url += "/undo"
    else:
        url += "/tables/1/deal"
    before = _table_one_button(client, auth, tid)
    statuses = posted_at_once(app, url, {"idempotency_key": f"race-{write}"}, auth)
    assert statuses == [200] * 8, statuses
    # This test's requests share the ``field`` fixture's app context, whose session still
    # reads the database as it was before the race (a server's requests each have their own).
    db.session.remove()
    with app.app_context():
        assert db.session.scalar(select(func.count(DirectorRequest.id)).where(
            DirectorRequest.tournament_id == tid)) == 1
    room = client.get(f"/api/tournaments/{tid}/seating", headers=auth).get_json()
    if write == "confirm":
        assert sorted(len(t["seats"]) for t in room["tables"]) == [5, 5]
    elif write == "undo":
        assert room["tables"] == []                        # the draw taken back, once
    else:
        moved = _table_one_button(client, auth, tid)
        assert moved != before
        again = client.post(url, json={"idempotency_key": "race-deal-2"}, headers=auth)
        assert again.status_code == 200, again.get_json()
        assert _table_one_button(client, auth, tid) not in (before, moved)


def test_every_page_write_sent_twice_says_what_it_did_in_each_language(app):
    """The second answer of a double click is the one the browser shows: for every
    write a page sends with a key it says what the first one did (not only "done
    already"), in the director's language."""
    from director.services import once
    from director.services.seating import HAND_FOR_HAND_ACTIONS
    from director.views.bodies import done_already

    actions = ["seating confirm", "seating discard", "seating undo", "seating break",
               "reseat", "hand dealt", "eliminate", "deal saved", "chip race", "seats drawn",
               *(f"hand-for-hand {action}" for action in HAND_FOR_HAND_ACTIONS)]
    for language, prefix in (("en", "Done already: "), ("sv", "Redan gjort: "),
                             ("id", "Sudah dilakukan: ")):
        with app.test_request_context(headers={"Accept-Language": language}):
            from flask_babel import refresh
            refresh()
            generic = done_already(once.Applied("k", "something else"))
            said = [done_already(once.Applied("k", action)) for action in actions]
        assert generic.startswith(prefix)
        assert all(text.startswith(prefix) and text != generic for text in said), said
        assert len(set(said)) == len(actions)
