"""The tablet holds its next hand when the rules say so, and says why.

* Hand-for-hand announced: "finish the current hand, then hold" (TDA RP-8, RULES.md §9.6).
* Hand-for-hand on: a table that has played its hand waits for every other
  table; when the last one finishes, the round ends by itself, with the
  hand-for-hand seconds off the clock, once (TDA RP-8).
* Play halted at a table 3 or more players short of the fullest once its
  blinds are affected, until the director balances (TDA 11-D, [BAL-1]).

Through the JSON API, as the tablets use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from director.services import dealer_hold
from director.services import seating as seating_service
from tests.web.test_dealer_helpers import play, seat_table

NAMES = [f"Player {i:02d}" for i in range(1, 13)]


def two_tables(client: FlaskClient, make_tournament: Callable[..., int],
               auth: dict[str, str]) -> tuple[int, list[str]]:
    """12 players at two 6-handed tables, the clock running: (tournament, each table's URL)."""
    table = seat_table(client, make_tournament, auth, NAMES, table_size=6)
    tid = table["tournament_id"]
    pairing = client.get(f"/api/tournaments/{tid}/dealer/pairing", headers=auth).get_json()["tables"]
    assert len(pairing) == 2
    r = client.post(f"/api/tournaments/{tid}/clock/start", headers=auth)
    assert r.status_code == 200, r.get_json()
    return tid, [f"/api/tables/{t['table_id']}" for t in pairing]


def deal(client: FlaskClient, url: str, auth: dict[str, str]) -> Any:
    return client.post(f"{url}/hands", json={"absent_seats": []}, headers=auth)


def fold_around(client: FlaskClient, url: str, auth: dict[str, str], hand: dict[str, Any]) -> dict[str, Any]:
    """Everyone folds to the big blind: the hand is over."""
    while not hand["finished"]:
        hand = play(client, url, auth, hand, ["fold"])
    return hand


def play_a_hand(client: FlaskClient, url: str, auth: dict[str, str]) -> dict[str, Any]:
    r = deal(client, url, auth)
    assert r.status_code == 201, r.get_json()
    return fold_around(client, url, auth, r.get_json())


def h4h(client: FlaskClient, tid: int, auth: dict[str, str], action: str) -> dict[str, Any]:
    r = client.post(f"/api/tournaments/{tid}/seating/hand-for-hand", json={"action": action}, headers=auth)
    assert r.status_code == 200, r.get_json()
    return dict(r.get_json())


def seconds_left(client: FlaskClient, tid: int) -> float:
    return float(client.get(f"/api/tournaments/{tid}/clock").get_json()["seconds_remaining"])


def test_TDA_RP_8_announced_hand_for_hand_finishes_the_current_hand_then_holds(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    tid, (one, two) = two_tables(client, make_tournament, auth)
    r = deal(client, one, auth)
    assert r.status_code == 201
    h4h(client, tid, auth, "announce")

    fold_around(client, one, auth, r.get_json())          # the current hand is played out
    for url in (one, two):                                 # ... then both tables hold
        refused = deal(client, url, auth)
        assert refused.status_code == 422
        assert refused.get_json()["error"] == ("Hand-for-hand has been announced: this table holds "
                                               "until the director starts hand-for-hand (TDA RP-8)")
        assert client.get(f"{url}/next").get_json()["hold"] == refused.get_json()["error"]

    h4h(client, tid, auth, "start")
    assert client.get(f"{one}/next").get_json()["hold"] is None
    assert deal(client, one, auth).status_code == 201


def test_TDA_RP_8_misdeal_of_the_announcement_hand_is_dealt_again(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    tid, (one, _) = two_tables(client, make_tournament, auth)
    hand = deal(client, one, auth).get_json()
    h4h(client, tid, auth, "announce")
    r = client.post(f"{one}/hand/rulings", headers=auth, json={
        "ruling": "exposed_card", "positions": [1], "confirm": True, "version": hand["version"]})
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["hand"]["misdeal"]
    redeal = deal(client, one, auth)
    assert redeal.status_code == 201, redeal.get_json()
    fold_around(client, one, auth, redeal.get_json())
    assert deal(client, one, auth).status_code == 422       # that hand is over: hold


def test_TDA_RP_8_each_table_plays_one_hand_and_waits_for_the_others(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    tid, (one, two) = two_tables(client, make_tournament, auth)
    h4h(client, tid, auth, "announce")
    h4h(client, tid, auth, "start")
    before = seconds_left(client, tid)

    play_a_hand(client, one, auth)
    refused = deal(client, one, auth)
    assert refused.status_code == 422
    assert refused.get_json()["error"] == ("Hand-for-hand: this table has played hand 1; wait for "
                                           "table 2 to finish it (TDA RP-8)")
    assert client.get(f"{one}/next").get_json()["hold"] == refused.get_json()["error"]
    state = client.get(f"/api/tournaments/{tid}/seating").get_json()["hand_for_hand"]
    assert state["hands_played"] == 0

    play_a_hand(client, two, auth)                           # the last table: the round ends
    state = client.get(f"/api/tournaments/{tid}/seating").get_json()["hand_for_hand"]
    assert state["hands_played"] == 1
    assert before - seconds_left(client, tid) >= 120         # 2 minutes off, per hand
    assert before - seconds_left(client, tid) < 130
    for url in (one, two):
        assert client.get(f"{url}/next").get_json()["hold"] is None
    assert deal(client, one, auth).status_code == 201        # hand-for-hand hand 2


def test_TDA_RP_8_a_round_ends_once_even_when_asked_twice(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    tid, (one, two) = two_tables(client, make_tournament, auth)
    h4h(client, tid, auth, "announce")
    h4h(client, tid, auth, "start")
    before = seconds_left(client, tid)
    play_a_hand(client, one, auth)
    play_a_hand(client, two, auth)                           # ends round 1
    with app.app_context():
        assert dealer_hold.finish_round(tid) is False        # nobody has played round 2 yet
    state = client.get(f"/api/tournaments/{tid}/seating").get_json()["hand_for_hand"]
    assert state["hands_played"] == 1
    assert before - seconds_left(client, tid) < 130


def test_TDA_RP_8_the_directors_finish_releases_a_table_without_a_tablet(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    """Table 2 deals with cards, not a tablet: the director's "hand finished at every
    table" ends the round, and table 1 deals again."""
    tid, (one, _) = two_tables(client, make_tournament, auth)
    h4h(client, tid, auth, "announce")
    h4h(client, tid, auth, "start")
    play_a_hand(client, one, auth)
    assert deal(client, one, auth).status_code == 422
    h4h(client, tid, auth, "finish")
    assert deal(client, one, auth).status_code == 201


def test_TDA_RP_8_hand_for_hand_over_no_hold(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    tid, (one, _) = two_tables(client, make_tournament, auth)
    h4h(client, tid, auth, "announce")
    h4h(client, tid, auth, "start")
    play_a_hand(client, one, auth)
    h4h(client, tid, auth, "stop")
    assert deal(client, one, auth).status_code == 201


def test_TDA_11_D_BAL_1_play_halts_at_a_table_three_short_until_balanced(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    """[BAL-1]: 9-handed, table A has 5, table B 8: 3 short, its blinds affected: A halts.
    Here: two 9-handed tables of 8 (16 players); three of table 1's players go out, one
    of them in the seat that pays the next big blind."""
    table = seat_table(client, make_tournament, auth, [f"P{i:02d}" for i in range(16)], table_size=9)
    tid, url = table["tournament_id"], f"/api/tables/{table['id']}"
    client.post(f"/api/tournaments/{tid}/clock/start", headers=auth)
    with app.app_context():
        state = seating_service.load_layout(tid).table(1)
    assert state.last_hand is not None
    due = state.last_hand.big_blind % state.size + 1          # the next big blind's seat
    by_seat = {seat: player.player_id for seat, player in state.seats.items()}
    gone = [by_seat[due]] if due in by_seat else []
    gone += [pid for seat, pid in sorted(by_seat.items()) if pid not in gone][:3 - len(gone)]
    for pid in gone:
        r = client.post(f"/api/tournaments/{tid}/seating/eliminate", json={"player_ids": [pid]},
                        headers=auth)
        assert r.status_code == 200, r.get_json()

    refused = deal(client, url, auth)
    assert refused.status_code == 422
    assert refused.get_json()["error"] == ("Play is halted at this table: it is 3 players short of "
                                           "the fullest table (TDA 11-D). Wait until the director "
                                           "balances the tables")
    assert client.get(f"{url}/next").get_json()["hold"] == refused.get_json()["error"]

    seating = client.get(f"/api/tournaments/{tid}/seating").get_json()
    plan = seating["pending_plan"]
    assert plan is not None
    r = client.post(f"/api/tournaments/{tid}/seating/plans/{plan['id']}/confirm", headers=auth)
    assert r.status_code == 200, r.get_json()
    assert client.get(f"{url}/next").get_json()["hold"] is None
    assert deal(client, url, auth).status_code == 201


def test_TDA_RP_8_the_directors_page_names_the_tables_still_playing(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str],
        login: Callable[[], None]) -> None:
    tid, (one, _) = two_tables(client, make_tournament, auth)
    h4h(client, tid, auth, "announce")
    h4h(client, tid, auth, "start")
    play_a_hand(client, one, auth)
    login()
    page = client.get(f"/director/{tid}/seating").get_data(as_text=True)
    assert "Hand-for-hand hand 1: waiting for table 2." in page
    assert '<a href="#hand-for-hand">waiting for 2</a>' in page      # in the figures at the top
