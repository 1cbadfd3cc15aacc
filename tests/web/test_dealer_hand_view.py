"""The dealer tablet's view of a hand (issue 13), through the JSON API: what ``hand_json``
says about the pots, the prompt, the buttons, the showdown, the misdeal and Undo."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask.testing import FlaskClient

from tests.conftest import level
from tests.web.test_dealer_helpers import o8_showdown, play, seat_table

NO_LIMIT = level(100, 200, game="NO")
STUD = level(0, 0, game="F7S", ante=10, bring_in=25, small_bet=100, big_bet=200)


def post(client: FlaskClient, url: str, auth: dict[str, str], hand: dict[str, Any],
         body: dict[str, Any], status: int = 200) -> dict[str, Any]:
    r = client.post(url, json={**body, "version": hand["version"]}, headers=auth)
    assert r.status_code == status, r.get_json()
    return dict(r.get_json())


def seat_of(hand: dict[str, Any], number: int) -> dict[str, Any]:
    return next(s for s in hand["seats"] if s["seat"] == number)


def pots_add_up(hand: dict[str, Any]) -> None:
    assert hand["pot_total"] == sum(p["amount"] for p in hand["pots"]), (hand["pot_total"], hand["pots"])


def heads_up_all_in(client: FlaskClient, make_tournament: Callable[..., int],
                    auth: dict[str, str]) -> tuple[str, dict[str, Any], int, int, int]:
    """No-limit Omaha heads-up, 10,000 against 4,000: the deep stack to act shoves and
    the short stack calls all-in for less.  Returns (url, hand, deep seat, short seat,
    the deep stack's chips nobody could call)."""
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo"], chips=[10_000, 4_000], levels=[NO_LIMIT])
    url = f"/api/tables/{t['id']}"
    deep, short = t["seats"]["Ann"], t["seats"]["Bo"]
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    if hand["to_act"] != deep:          # the short stack is on the button: next hand
        hand = play(client, url, auth, hand, ["fold"])
        hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert hand["to_act"] == deep
    chips = {n: seat_of(hand, n)["stack"] + seat_of(hand, n)["bet"] for n in (deep, short)}
    hand = play(client, url, auth, hand, ["all_in"])
    pots_add_up(hand)                   # the shove is in the middle until the round closes
    assert hand["pot_total"] == chips[deep] + 200
    hand = play(client, url, auth, hand, ["call"])
    return url, hand, deep, short, chips[deep] - chips[short]


ANN, BO = "AsKsQsJs", "2c3c4d5h"
BOARD = [["Ah", "Kh", "7d"], ["7c"], ["9h"]]


def run_out(client: FlaskClient, url: str, auth: dict[str, str], hand: dict[str, Any]) -> dict[str, Any]:
    for cards in BOARD:
        assert hand["awaiting"] == "board", hand["prompt"]
        hand = post(client, f"{url}/hand/board", auth, hand, {"cards": cards})
        pots_add_up(hand)
    assert hand["awaiting"] == "showdown"
    return hand


def test_uncalled_part_of_a_bet_goes_back_when_the_round_closes_tda_15b(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    url, hand, deep, short, excess = heads_up_all_in(client, make_tournament, auth)
    called = seat_of(hand, short)["bet"]
    # The round is closed: the part nobody could call (about 6,000) is back in the stack at once.
    assert excess >= 6_000 and called >= 3_800
    assert seat_of(hand, deep)["stack"] == excess and seat_of(hand, deep)["bet"] == called
    assert hand["pot_total"] == 2 * called
    pots_add_up(hand)
    assert hand["returned"] == [{"seat": deep, "name": "Ann", "amount": excess}]
    hand = run_out(client, url, auth, hand)
    hand = post(client, f"{url}/hand/show", auth, hand, {"seat": deep, "cards": ANN})
    hand = post(client, f"{url}/hand/show", auth, hand, {"seat": short, "cards": BO})
    assert hand["finished"]
    pots_add_up(hand)
    assert f"{excess:,} returned to Seat {deep} (Ann)" in hand["award_text"]
    assert hand["award_text"][0].startswith(f"Main pot {2 * called:,}")
    assert seat_of(hand, deep)["stack"] == 14_000


def test_no_muck_at_an_all_in_showdown_every_hand_is_tabled_tda_16(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    url, hand, deep, short, _excess = heads_up_all_in(client, make_tournament, auth)
    hand = run_out(client, url, auth, hand)
    assert hand["can_muck"] is False
    r = client.post(f"{url}/hand/muck", json={"seat": short, "version": hand["version"]}, headers=auth)
    assert r.status_code == 422
    error = r.get_json()["error"]
    assert "TDA 16" in error and f"Seat {short} (Bo)" in error and "face up" in error
    assert client.get(f"{url}/hand").get_json()["version"] == hand["version"]     # nothing applied


def test_muck_is_offered_at_a_showdown_without_an_all_in(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[level(100, 200, game="PO/8")])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert hand["can_muck"] is False                      # no showdown yet

    def look(at: dict[str, Any]) -> None:
        assert at["can_muck"] is True

    o8_showdown(client, url, auth, hand, flop_bet=200, at_showdown=look)


def test_showdown_names_every_tabled_hand_losers_included(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[level(100, 200, game="PO/8")])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand, order = o8_showdown(client, url, auth, hand, flop_bet=200)
    names = {s["seat"]: s["name"] for s in hand["seats"]}
    lines = hand["shown_text"]
    assert len(lines) == 3
    for seat, line in zip(sorted(order), lines, strict=True):
        assert line.startswith(f"Seat {seat} ({names[seat]}) shows "), line
    high_winner, low_a, _low_b = order
    winner_line = next(line for line in lines if line.startswith(f"Seat {high_winner} "))
    assert winner_line.endswith(": three kings; no low"), winner_line
    loser_line = next(line for line in lines if line.startswith(f"Seat {low_a} "))
    assert loser_line.endswith(" shows A♠ 4♣ Q♦ Q♥: two pair, kings and queens; 8-4-3-2-A low"), loser_line
    assert all(line in hand["award_text"] for line in lines)


def stud_fourth_street(client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str],
                       third: list[str], fourth: list[str], **house: Any) -> tuple[str, dict[str, Any], list[int]]:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[STUD])
    if house:
        r = client.post(f"/api/tournaments/{t['tournament_id']}/house-rules", json=house, headers=auth)
        assert r.status_code == 200, r.get_json()
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seats = sorted(s["seat"] for s in hand["seats"])
    hand = post(client, f"{url}/hand/deal", auth, hand,
                {"cards": {str(s): [c] for s, c in zip(seats, third, strict=True)}})
    hand = play(client, url, auth, hand, ["bring_in", "call", "call"])
    hand = post(client, f"{url}/hand/deal", auth, hand,
                {"cards": {str(s): [c] for s, c in zip(seats, fourth, strict=True)}})
    return url, hand, seats


def test_stud_prompt_names_the_high_hand_only_before_anyone_acted_on_the_street(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    # Q♠ J♦ beats Q♥ J♠ by the suit of the queen (TDA RP-10-D, the default policy).
    url, hand, (low, high, other) = stud_fourth_street(
        client, make_tournament, auth, ["2c", "Qs", "Qh"], ["3d", "Jd", "Js"])
    assert hand["to_act"] == high
    assert hand["prompt"].startswith(f"Seat {high} (") and "high hand showing (Q♠ J♦)" in hand["prompt"]
    hand = play(client, url, auth, hand, ["check"])
    assert hand["to_act"] == other
    assert hand["prompt"] == f"Seat {other} ({seat_of(hand, other)['name']}) to act"


def test_open_pair_on_fourth_street_gets_its_own_big_bet_button_rrp_stud_4(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    url, hand, (low, pair, other) = stud_fourth_street(
        client, make_tournament, auth, ["2c", "Qs", "9h"], ["3d", "Qd", "Js"], stud_4th_street_double=True)
    assert hand["to_act"] == pair
    buttons = [(b["action"], b["amount"], b["label"]) for b in hand["buttons"]]
    assert buttons == [("check", None, "Check"), ("bet", 100, "Bet 100"),
                       ("bet", 200, "Bet 200 (open pair)"), ("fold", None, "Fold")]
    hand = play(client, url, auth, hand, [("bet", 200)])
    assert hand["current_bet"] == 200
    # Without the house rule there is only the small bet.
    _url, plain, _seats = stud_fourth_street(client, make_tournament, auth, ["2c", "Qs", "9h"], ["3d", "Qd", "Js"])
    assert [b["label"] for b in plain["buttons"]] == ["Check", "Bet 100", "Fold"]


def test_misdeal_shows_no_pot_no_bets_and_the_stacks_before_the_hand(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = play(client, url, auth, hand, [("raise", 700)])
    done = post(client, f"{url}/hand/rulings", auth, hand,
                {"ruling": "exposed_card", "positions": [1], "confirm": True})["hand"]
    assert done["misdeal"]
    assert done["pots"] == [] and done["pot_total"] == 0
    assert all(s["bet"] == 0 and s["stack"] == 10_000 for s in done["seats"])
    assert all("posted" not in s for s in done["seats"])


def test_big_blind_ante_is_labelled_bb_ante_and_shown_as_posted(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"],
                   levels=[level(100, 200, ante=200, big_blind_ante=True)])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert hand["level"]["stakes_label"] == "100/200 BB ante 200"
    bb, sb = hand["positions"]["big_blind"], hand["positions"]["small_blind"]
    assert seat_of(hand, bb)["posted"] == {"blind": 200, "ante": 200}
    assert seat_of(hand, bb)["stack"] == 9_600 and seat_of(hand, bb)["bet"] == 200
    assert seat_of(hand, sb)["posted"] == {"blind": 100, "ante": 0}
    assert all("posted" not in s for s in hand["seats"] if s["seat"] not in (bb, sb))
    assert hand["pot_total"] == 500
    pots_add_up(hand)


def test_buttons_put_the_safest_action_first_and_fold_at_the_far_end(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert [b["label"] for b in hand["buttons"]] == ["Call 200", "Min raise to 400", "Pot: raise to 700", "Fold"]
    assert {b["seat"] for b in hand["buttons"]} == {hand["to_act"]}
    hand = play(client, url, auth, hand, ["call", "call", "call"])
    bb = hand["positions"]["big_blind"]
    assert hand["to_act"] == bb                           # the big blind's option
    labels = [b["label"] for b in hand["buttons"]]
    assert labels[0] == "Check" and labels[-1] == "Fold" and labels[1] != "Fold"
    assert {b["seat"] for b in hand["buttons"]} == {bb}


def test_undo_says_what_it_takes_back_and_right_after_the_deal_voids_the_deal(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert hand["can_undo"] is True
    assert hand["undo_label"] == "Undo the deal of hand 1"
    seat, name = hand["to_act"], hand["to_act_name"]
    raised = play(client, url, auth, hand, [("raise", 700)])
    assert raised["undo_label"] == f"Undo: Seat {seat} ({name}) raises to 700"
    assert client.get(f"{url}/hand").get_json()["undo_label"] == raised["undo_label"]
    back = post(client, f"{url}/hand/undo", auth, raised, {})
    assert back["to_act"] == seat and back["undo_label"] == hand["undo_label"]
    voided = post(client, f"{url}/hand/undo", auth, back, {})
    assert voided["misdeal"] and voided["finished"] and voided["pots"] == []
    assert voided["can_undo"] is True and voided["undo_label"].startswith("Undo: Misdeal (")
    again = client.post(f"{url}/hands", json={}, headers=auth)
    assert again.status_code == 201
    assert again.get_json()["positions"] == hand["positions"]      # the same button
