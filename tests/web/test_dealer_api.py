"""The dealer API contract: start a hand, act, conflicts, idempotency, auth, undo."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import level
from tests.web.test_dealer_helpers import play, seat_table


@pytest.fixture
def table(client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> dict[str, Any]:
    return seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])


def test_start_hand_answers_the_contract(client: FlaskClient, auth: dict[str, str],
                                         table: dict[str, Any]) -> None:
    r = client.post(f"/api/tables/{table['id']}/hands", json={"absent_seats": []}, headers=auth)
    assert r.status_code == 201
    hand = r.get_json()
    for key in ("hand_id", "version", "game", "to_act", "legal", "pots", "seats", "board",
                "finished", "awards"):
        assert key in hand
    assert set(hand["legal"]) >= {"fold", "check", "call", "min_to", "max_to", "pot_to"}
    assert hand["game"] == "PO" and hand["finished"] is False and hand["board"] == []
    seats = {s["seat"]: s for s in hand["seats"]}
    assert set(seats) == set(table["seats"].values())
    # blinds 100/200 posted by the seats the seating named
    assert seats[hand["positions"]["small_blind"]]["bet"] == 100
    assert seats[hand["positions"]["big_blind"]]["bet"] == 200
    # PLO first to act: call 200, min raise 400, pot 700 (TDA pot-limit arithmetic)
    assert hand["legal"]["call"] == 200 and hand["legal"]["min_to"] == 400
    assert hand["legal"]["pot_to"] == 700
    labels = [b["label"] for b in hand["buttons"]]
    assert labels == ["Call 200", "Min raise to 400", "Pot: raise to 700", "Fold"]    # Fold far from Call
    assert client.get(f"/api/tables/{table['id']}/hand").get_json() == hand
    # a second start while the hand is played: 409 with the current hand
    again = client.post(f"/api/tables/{table['id']}/hands", json={}, headers=auth)
    assert again.status_code == 409 and again.get_json()["hand_id"] == hand["hand_id"]


def test_illegal_action_gets_the_engines_sentence(client: FlaskClient, auth: dict[str, str],
                                                  table: dict[str, Any]) -> None:
    hand = client.post(f"/api/tables/{table['id']}/hands", json={}, headers=auth).get_json()
    seat = hand["to_act"]
    r = client.post(f"/api/tables/{table['id']}/hand/actions", headers=auth, json={
        "seat": seat, "action": "raise", "amount": 900, "version": hand["version"],
        "idempotency_key": "k1"})
    assert r.status_code == 422
    assert r.get_json() == {"error": f"Pot-limit: the most Seat {seat} ({hand['to_act_name']}) "
                                     "may raise to is 700"}
    r = client.post(f"/api/tables/{table['id']}/hand/actions", headers=auth, json={
        "seat": seat, "action": "raise", "amount": 300, "version": hand["version"]})
    assert r.status_code == 422 and "400" in r.get_json()["error"]
    # nothing was applied; the corrected amount goes through
    r = client.post(f"/api/tables/{table['id']}/hand/actions", headers=auth, json={
        "seat": seat, "action": "raise", "amount": 700, "version": hand["version"],
        "idempotency_key": "k2"})
    assert r.status_code == 200 and r.get_json()["version"] == hand["version"] + 1


def test_out_of_turn_is_refused(client: FlaskClient, auth: dict[str, str], table: dict[str, Any]) -> None:
    hand = client.post(f"/api/tables/{table['id']}/hands", json={}, headers=auth).get_json()
    other = next(s["seat"] for s in hand["seats"] if s["seat"] != hand["to_act"])
    r = client.post(f"/api/tables/{table['id']}/hand/actions", headers=auth,
                    json={"seat": other, "action": "call", "version": hand["version"]})
    assert r.status_code == 422
    assert "is to act" in r.get_json()["error"] and f"Seat {hand['to_act']} (" in r.get_json()["error"]


def test_stale_version_gets_409_with_the_current_hand(client: FlaskClient, auth: dict[str, str],
                                                      table: dict[str, Any]) -> None:
    hand = client.post(f"/api/tables/{table['id']}/hands", json={}, headers=auth).get_json()
    first = client.post(f"/api/tables/{table['id']}/hand/actions", headers=auth, json={
        "seat": hand["to_act"], "action": "call", "version": hand["version"], "idempotency_key": "a"})
    assert first.status_code == 200
    late = client.post(f"/api/tables/{table['id']}/hand/actions", headers=auth, json={
        "seat": hand["to_act"], "action": "fold", "version": hand["version"], "idempotency_key": "b"})
    assert late.status_code == 409
    body = late.get_json()
    assert body["version"] == first.get_json()["version"] and "error" in body
    assert body["to_act"] == first.get_json()["to_act"]


def test_same_idempotency_key_applies_once(client: FlaskClient, auth: dict[str, str],
                                           table: dict[str, Any]) -> None:
    hand = client.post(f"/api/tables/{table['id']}/hands", json={}, headers=auth).get_json()
    body = {"seat": hand["to_act"], "action": "call", "version": hand["version"], "idempotency_key": "same"}
    one = client.post(f"/api/tables/{table['id']}/hand/actions", headers=auth, json=body)
    two = client.post(f"/api/tables/{table['id']}/hand/actions", headers=auth, json=body)
    assert one.status_code == two.status_code == 200
    assert one.get_json() == two.get_json()
    now = client.get(f"/api/tables/{table['id']}/hand").get_json()
    assert now["version"] == hand["version"] + 1
    assert sum(1 for line in now["log"] if "calls" in line["text"]) == 1


def test_a_key_sent_again_with_another_tap_is_refused_and_nothing_is_lost(
        client: FlaskClient, auth: dict[str, str], table: dict[str, Any]) -> None:
    """A retry is the same request with its key; a tablet that reuses a key for another
    tap is told (a 400 naming the key), not answered as the first tap: that would say
    "done" for a tap that was not applied."""
    url = f"/api/tables/{table['id']}/hand"
    hand = client.post(f"/api/tables/{table['id']}/hands", json={}, headers=auth).get_json()
    call = {"seat": hand["to_act"], "action": "call", "version": hand["version"], "idempotency_key": "k"}
    first = client.post(f"{url}/actions", headers=auth, json=call)
    assert first.status_code == 200
    after = first.get_json()
    fold = {"seat": after["to_act"], "action": "fold", "idempotency_key": "k"}
    for version in (after["version"], hand["version"]):      # at the hand's version, and stale
        reused = client.post(f"{url}/actions", headers=auth, json={**fold, "version": version})
        assert reused.status_code == 400, reused.get_json()
        assert "another tap" in reused.get_json()["errors"]["idempotency_key"]
    undo = client.post(f"{url}/undo", headers=auth, json={"version": after["version"], "idempotency_key": "k"})
    assert undo.status_code == 400 and "idempotency_key" in undo.get_json()["errors"]
    now = client.get(url).get_json()
    assert now["version"] == after["version"] and now["to_act"] == after["to_act"]
    # the first tap sent again is still a retry: its answer, applied once
    again = client.post(f"{url}/actions", headers=auth, json=call)
    assert again.status_code == 200 and again.get_json() == after
    # a request without an event (an undo) keeps its digest too
    undo = {"version": after["version"], "idempotency_key": "u"}
    assert client.post(f"{url}/undo", headers=auth, json=undo).status_code == 200
    assert client.post(f"{url}/undo", headers=auth, json=undo).status_code == 200
    other = client.post(f"{url}/undo", headers=auth, json={**undo, "street": True})
    assert other.status_code == 400 and "another tap" in other.get_json()["errors"]["idempotency_key"]
    assert client.get(url).get_json()["version"] == after["version"] + 1


def test_bad_bodies_get_400_naming_the_field(client: FlaskClient, auth: dict[str, str],
                                             table: dict[str, Any]) -> None:
    url = f"/api/tables/{table['id']}"
    client.post(f"{url}/hands", json={}, headers=auth)
    cases = [
        (b"not json", "body"),
        ({"action": "call"}, "seat"),
        ({"seat": 1, "action": "dance"}, "action"),
        ({"seat": 1, "action": "raise", "amount": "lots"}, "amount"),
        ({"seat": True, "action": "call"}, "seat"),
        ({"seat": 1, "action": "call", "version": "x"}, "version"),
        ({"seat": 1, "action": "call", "idempotency_key": 5}, "idempotency_key"),
    ]
    for data, field in cases:
        if isinstance(data, bytes):
            r = client.post(f"{url}/hand/actions", data=data, headers={**auth, "Content-Type": "application/json"})
        else:
            r = client.post(f"{url}/hand/actions", json=data, headers=auth)
        assert r.status_code == 400, data
        assert field in r.get_json()["errors"], (data, r.get_json())
    r = client.post(f"{url}/hands", json={"absent_seats": "3"}, headers=auth)
    assert r.status_code == 400 and "absent_seats" in r.get_json()["errors"]
    r = client.post(f"{url}/hand/board", json={"cards": ["Zz", "As", "Kd"]}, headers=auth)
    assert r.status_code == 400 and "cards" in r.get_json()["errors"]
    assert client.get("/api/tables/999/hand").status_code == 404
    assert client.post("/api/tables/999/hands", json={}, headers=auth).status_code == 404


def test_writes_need_the_tables_dealer_or_the_director(client: FlaskClient, auth: dict[str, str],
                                                       make_tournament: Callable[..., int]) -> None:
    t1 = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di", "Ed", "Fi", "Gus",
                                                    "Hal", "Ivy", "Jo", "Kim", "Lu"], table_size=6)
    tables = client.get(f"/api/tournaments/{t1['tournament_id']}/dealer/pairing", headers=auth).get_json()["tables"]
    assert len(tables) == 2
    one, two = tables
    assert client.post(f"/api/tables/{one['table_id']}/hands", json={}).status_code == 401
    bad = {"Authorization": "Bearer nope"}
    assert client.post(f"/api/tables/{one['table_id']}/hands", json={}, headers=bad).status_code == 401
    paired = client.post("/api/dealer/pair", json={"table": one["number"], "code": one["code"]})
    assert paired.status_code == 201
    token = {"Authorization": f"Bearer {paired.get_json()['token']}"}
    assert client.post(f"/api/tables/{one['table_id']}/hands", json={}, headers=token).status_code == 201
    assert client.post(f"/api/tables/{two['table_id']}/hands", json={}, headers=token).status_code == 403
    # a dealer cannot change the tournament
    assert client.post(f"/api/tournaments/{t1['tournament_id']}/clock/start", headers=token).status_code == 401
    assert client.post(f"/api/tables/{one['table_id']}/dealer/revoke", headers=token).status_code == 401
    # the session cookie the pairing set works too, with the page's CSRF token
    no_csrf = client.post(f"/api/tables/{one['table_id']}/hand/undo", json={})
    assert no_csrf.status_code == 400
    page = client.get(f"/dealer/table/{one['table_id']}")
    assert page.status_code == 200
    match = re.search(r'data-csrf="([^"]+)"', page.get_data(as_text=True))
    assert match
    header = {"X-CSRF-Token": match.group(1)}
    with_csrf = client.post(f"/api/tables/{one['table_id']}/hand/undo", json={}, headers=header)
    assert with_csrf.status_code == 200, with_csrf.get_json()   # let in: undo of the deal itself
    assert client.post(f"/api/tables/{two['table_id']}/hand/undo", json={}, headers=header).status_code == 403
    assert client.get(f"/dealer/table/{two['table_id']}").status_code == 302
    # revoked: the token and the old code stop working
    revoked = client.post(f"/api/tables/{one['table_id']}/dealer/revoke", headers=auth)
    assert revoked.status_code == 200 and revoked.get_json()["code"] != one["code"]
    assert client.post(f"/api/tables/{one['table_id']}/hand/undo", json={}, headers=token).status_code == 401
    assert client.post(f"/api/tables/{one['table_id']}/hand/undo", json={}, headers=header).status_code == 401
    assert client.post("/api/dealer/pair",
                       json={"table": one["number"], "code": one["code"]}).status_code == 400


def test_full_hand_moves_the_chips(client: FlaskClient, auth: dict[str, str], table: dict[str, Any]) -> None:
    url = f"/api/tables/{table['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = play(client, url, auth, hand, ["call", "call", "call", "check"])
    assert hand["awaiting"] == "board" and hand["prompt"] == "Burn and deal the flop"
    r = client.post(f"{url}/hand/board", json={"version": hand["version"]}, headers=auth)
    hand = r.get_json()
    assert r.status_code == 200 and hand["board"] == ["??", "??", "??"]
    hand = play(client, url, auth, hand, [("bet", 800), "fold", "fold", "fold"])
    assert hand["finished"] is True
    winner = hand["awards"][0]["seat"]
    assert hand["awards"][0]["amount"] == 800       # the uncalled 800 goes back (not a pot)
    assert hand["award_text"][0].startswith(f"Main pot 800: to seat {winner} (")
    chips = client.get(f"/api/tournaments/{table['tournament_id']}/seating").get_json()["tables"][0]["chips"]
    by_seat = {s: chips[str(pid)] for pid, s in table["player_seats"].items()}
    assert by_seat[winner] == 10_000 + 600
    assert sum(by_seat.values()) == 40_000


def test_undo_takes_back_the_last_event_and_a_finished_hands_chips(
        client: FlaskClient, auth: dict[str, str], table: dict[str, Any]) -> None:
    url = f"/api/tables/{table['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    start = hand
    hand = play(client, url, auth, hand, ["call"])
    r = client.post(f"{url}/hand/undo", json={"version": hand["version"], "idempotency_key": "u1"}, headers=auth)
    undone = r.get_json()
    assert r.status_code == 200 and undone["to_act"] == start["to_act"]
    assert undone["legal"] == start["legal"] and undone["version"] == hand["version"] + 1
    assert any(line["text"].startswith("Undo: Seat") for line in undone["log"])
    # the same undo sent again is not applied twice
    again = client.post(f"{url}/hand/undo", json={"version": hand["version"], "idempotency_key": "u1"},
                        headers=auth)
    assert again.get_json() == undone
    hand = play(client, url, auth, undone, ["fold", "fold", "fold"])
    assert hand["finished"]
    chips = client.get(f"/api/tournaments/{table['tournament_id']}/seating").get_json()["tables"][0]["chips"]
    assert sorted(chips.values()) == [9900, 10000, 10000, 10100]
    reopened = client.post(f"{url}/hand/undo", json={"version": hand["version"]}, headers=auth).get_json()
    assert reopened["finished"] is False
    chips = client.get(f"/api/tournaments/{table['tournament_id']}/seating").get_json()["tables"][0]["chips"]
    assert sorted(chips.values()) == [10000] * 4


def test_clock_call_shows_a_countdown(client: FlaskClient, auth: dict[str, str], table: dict[str, Any]) -> None:
    url = f"/api/tables/{table['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    r = client.post(f"{url}/hand/clock", json={"seat": hand["to_act"]}, headers=auth)
    assert r.status_code == 200
    call = r.get_json()["clock_call"]
    assert call["seat"] == hand["to_act"] and call["seconds"] == 30
    early = client.post(f"{url}/hand/rulings", json={"ruling": "clock_expired", "confirm": True}, headers=auth)
    assert early.status_code == 422 and "still has time" in early.get_json()["error"]
    wrong = client.post(f"{url}/hand/clock", json={"seat": hand["positions"]["big_blind"]}, headers=auth)
    assert wrong.status_code == 422


def test_hands_in_other_levels_use_the_clock_level(client: FlaskClient, auth: dict[str, str],
                                                   make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"],
                   levels=[level(100, 200), level(200, 400, ante=400, big_blind_ante=True)])
    client.post(f"/api/tournaments/{t['tournament_id']}/clock/next", headers=auth)
    hand = client.post(f"/api/tables/{t['id']}/hands", json={}, headers=auth).get_json()
    assert hand["level"]["stakes_label"].startswith("200/400")
    assert hand["pot_total"] == 200 + 400 + 400   # SB, BB and the big-blind ante
