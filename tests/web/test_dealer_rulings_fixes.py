"""The rulings panel through the dealer JSON API: out of turn (TDA 53, RULES.md §2.8),
undercall (TDA 51-B, §2.7) and stud exposed down-cards (TDA RP-10-A, §3.5, §11.1).

The acceptance check of issue 5 found a preview that said "stands" followed by a
confirm refused with 422; every test here confirms what it previews.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import level
from tests.web.test_dealer_helpers import play, seat_table
from tests.web.test_i18n_dealer import paired_tablet

STUD = level(0, 0, game="F7S", ante=10, bring_in=25, small_bet=100, big_bet=200)


def rule(client: FlaskClient, url: str, auth: dict[str, str], body: dict[str, Any],
         hand: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    """Post a ruling (with ``hand``: confirmed at that hand's version)."""
    sent = dict(body)
    if hand is not None:
        sent.update(confirm=True, version=hand["version"])
    r = client.post(f"{url}/hand/rulings", json=sent, headers=auth)
    return r.status_code, r.get_json()


def seat_of(hand: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(s for s in hand["seats"] if s["seat"] == seat)


# --------------------------------------------------------------------------- out of turn (TDA 53)


def test_OOT_1_raise_before_the_skipped_player_acts_backs_up_and_confirm_is_not_refused(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    """Issue 5 (/tmp/qa/23_ruling_oot.png): the button raises to 600 while UTG is to act.
    The preview no longer says "stands"; the confirm is accepted and UTG is still to act."""
    url, hand, utg, button = four["url"], four["hand"], four["utg"], four["button"]
    oot = {"ruling": "action_out_of_turn", "seat": button, "action": "raise", "amount": 600,
           "bet_when_acted": 200}
    status, preview = rule(client, url, auth, oot)
    assert status == 200
    ruling = preview["ruling"]
    assert ruling["decision"] == "backs_up" and ruling["rule"] == "TDA 53"
    assert ruling["applies"] is False and ruling["effect"] is None
    assert ruling["text"].startswith(f"The action backs up to seat {utg} (")
    assert "stands only if the action to him does not change" in ruling["text"]
    status, done = rule(client, url, auth, oot, hand)
    assert status == 200, done
    after = done["hand"]
    assert after["to_act"] == utg and after["buttons"][0]["label"] == "Call 200"
    assert any(line["text"].startswith("Ruling (TDA 53): The action backs up") for line in after["log"])


def test_OOT_1_raise_stands_when_the_skipped_player_calls_and_is_applied_in_turn(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    url, hand, button = four["url"], four["hand"], four["button"]
    oot = {"ruling": "action_out_of_turn", "seat": button, "action": "raise", "amount": 600,
           "bet_when_acted": 200}
    assert rule(client, url, auth, oot, hand)[0] == 200
    hand = play(client, url, auth, client.get(f"{url}/hand").get_json(), ["call"])    # UTG calls
    assert hand["to_act"] == button
    status, preview = rule(client, url, auth, oot)
    assert status == 200 and preview["ruling"]["decision"] == "binding"
    assert preview["ruling"]["applies"] is True
    status, done = rule(client, url, auth, oot, hand)
    assert status == 200, done
    after = done["hand"]
    assert seat_of(after, button)["bet"] == 600 and after["current_bet"] == 600
    assert after["to_act"] == four["sb"]


def test_OOT_1_raise_returned_when_the_skipped_player_raises(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    url, hand, button = four["url"], four["hand"], four["button"]
    oot = {"ruling": "action_out_of_turn", "seat": button, "action": "raise", "amount": 600,
           "bet_when_acted": 200}
    hand = play(client, url, auth, hand, [("raise", 500)])                        # UTG raises
    status, done = rule(client, url, auth, oot, hand)
    assert status == 200, done
    ruling, after = done["ruling"], done["hand"]
    assert ruling["decision"] == "not_binding"
    assert "call 500 or raise to at least 800" in ruling["text"]
    # his options are restored: nothing was applied, he is to act facing 500
    assert after["to_act"] == button and seat_of(after, button)["bet"] == 0
    assert after["legal"]["call"] == 500 and after["legal"]["min_to"] == 800
    assert after["version"] == hand["version"]


def test_OOT_fold_out_of_turn_is_binding_at_once_and_the_action_backs_up(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    url, hand, utg, sb = four["url"], four["hand"], four["utg"], four["sb"]
    fold = {"ruling": "action_out_of_turn", "seat": sb, "action": "fold"}
    status, done = rule(client, url, auth, fold, hand)
    assert status == 200, done
    assert done["ruling"]["decision"] == "binding" and done["ruling"]["applies"] is True
    after = done["hand"]
    assert seat_of(after, sb)["status"] == "folded" and after["to_act"] == utg
    hand = play(client, url, auth, after, ["call", "call"])                     # UTG, button
    assert hand["to_act"] == four["bb"]                                          # the folded SB is skipped


def test_OOT_illegal_amount_is_flagged_at_the_preview_and_the_confirm_only_logs_it(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    url, hand, utg = four["url"], four["hand"], four["utg"]
    short = {"ruling": "action_out_of_turn", "seat": utg, "action": "raise", "amount": 300,
             "bet_when_acted": 200}
    status, body = rule(client, url, auth, short)
    assert status == 200 and body["ruling"]["applies"] is False
    assert "minimum raise to 400" in body["ruling"]["blocked"]
    assert "It cannot be entered as ruled: " in body["ruling"]["text"]
    status, done = rule(client, url, auth, short, hand)
    assert status == 200, done
    assert done["hand"]["to_act"] == utg and seat_of(done["hand"], utg)["bet"] == 0
    assert any("It cannot be entered as ruled" in line["text"] for line in done["hand"]["log"])


def test_OOT_by_a_folded_player_is_refused(client: FlaskClient, auth: dict[str, str],
                                           four: dict[str, Any]) -> None:
    url, hand, utg = four["url"], four["hand"], four["utg"]
    hand = play(client, url, auth, hand, ["fold"])
    status, body = rule(client, url, auth, {"ruling": "action_out_of_turn", "seat": utg,
                                            "action": "call"})
    assert status == 422 and "no action left" in body["error"]


# --------------------------------------------------------------------------- undercall (TDA 51-B)


def test_UC_pre_flop_undercall_names_the_big_blind_and_is_a_full_call(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    url, hand, utg = four["url"], four["hand"], four["utg"]
    under = {"ruling": "undercall", "seat": utg, "pushed": 100}
    status, done = rule(client, url, auth, under, hand)
    assert status == 200, done
    assert done["ruling"]["text"] == (f"Seat {utg} ({seat_of(hand, utg)['name']})'s 100 is short of the "
                                      "big blind of 200, the opening bet: it is a full call of 200 (100 more)")
    assert seat_of(done["hand"], utg)["bet"] == 200


def test_UC_heads_up_undercall_of_a_raise_says_raise(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand = play(client, url, auth, hand, [("raise", 600)])
    status, done = rule(client, url, auth, {"ruling": "undercall", "seat": hand["to_act"],
                                            "pushed": 200, "opening_bet": True}, hand)
    assert status == 200, done
    text = done["ruling"]["text"]
    assert "short of the raise to 600" in text and "opening" not in text
    assert text.startswith("Heads-up, seat") and "full call of 600 (200 more)" in text


def test_UC_multi_way_undercall_of_a_raise_goes_to_the_floor(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    url, hand, button = four["url"], four["hand"], four["button"]
    hand = play(client, url, auth, hand, [("raise", 600)])
    status, body = rule(client, url, auth, {"ruling": "undercall", "seat": button, "pushed": 200,
                                            "opening_bet": True})
    assert status == 200
    assert body["ruling"]["decision"] == "floor_decides" and "facing a raise" in body["ruling"]["text"]


def test_UC_1_undercall_of_the_flop_bet_names_the_bet(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    url, hand = four["url"], four["hand"]
    hand = play(client, url, auth, hand, ["call", "call", "call", "check"])
    hand = client.post(f"{url}/hand/board", json={"cards": None, "version": hand["version"]},
                       headers=auth).get_json()
    hand = play(client, url, auth, hand, [("bet", 800)])
    status, done = rule(client, url, auth, {"ruling": "undercall", "seat": hand["to_act"],
                                            "pushed": 200}, hand)
    assert status == 200, done
    assert "short of the bet of 800, the opening bet: it is a full call of 800 (600 more)" \
        in done["ruling"]["text"]


def test_UC_stud_undercall_names_the_bring_in_then_the_completion(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[STUD])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seats = sorted(s["seat"] for s in hand["seats"])
    ups = dict(zip(seats, ["2d", "9c", "Kh"], strict=True))
    hand = client.post(f"{url}/hand/deal", json={"cards": {str(s): [c] for s, c in ups.items()},
                                                  "version": hand["version"]}, headers=auth).get_json()
    hand = play(client, url, auth, hand, ["bring_in"])
    status, body = rule(client, url, auth, {"ruling": "undercall", "seat": hand["to_act"], "pushed": 10})
    assert status == 200 and "short of the bring-in of 25, the opening bet" in body["ruling"]["text"]
    hand = play(client, url, auth, hand, [("complete", 100)])
    status, body = rule(client, url, auth, {"ruling": "undercall", "seat": hand["to_act"], "pushed": 50})
    assert status == 200 and "short of the completion to 100, the opening bet" in body["ruling"]["text"]


# --------------------------------------------------------------------------- stud exposed down-cards (§3.5)


@pytest.fixture
def stud(client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> dict[str, Any]:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[STUD])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    assert hand["awaiting"] == "street"
    return {"url": url, "hand": hand, "seats": sorted(s["seat"] for s in hand["seats"])}


def test_ST_10_exposed_down_card_confirm_sets_it_as_the_up_card_and_it_brings_in(
        client: FlaskClient, auth: dict[str, str], stud: dict[str, Any]) -> None:
    url, hand, (s1, s2, s3) = stud["url"], stud["hand"], stud["seats"]
    exposed = {"ruling": "stud_exposed_downcards", "seat": s2, "cards": "2c"}
    status, preview = rule(client, url, auth, exposed)
    assert status == 200
    ruling = preview["ruling"]
    assert ruling["decision"] == "becomes_up_card" and ruling["applies"] is True
    assert "third card face down" in ruling["text"]
    assert ruling["text"].endswith("Rule: TDA RP-10-A, the TDA default: this tournament sets no other")
    status, done = rule(client, url, auth, exposed, hand)
    assert status == 200, done
    after = done["hand"]
    assert seat_of(after, s2)["up_cards"] == ["2c"]
    assert after["awaiting"] == "street"                      # the others' up-cards still to enter
    r = client.post(f"{url}/hand/deal", json={"cards": {str(s1): ["5d"], str(s3): ["Kh"]},
                                               "version": after["version"]}, headers=auth)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["to_act"] == s2                        # the 2♣ is the low card: he brings in


def test_ST_10_after_the_ruling_the_street_may_be_entered_with_every_seat(
        client: FlaskClient, auth: dict[str, str], stud: dict[str, Any]) -> None:
    """The tablet asks for every seat's up-card: the exposed card, entered again, is taken
    as already there; a different card for that seat is refused with the engine's sentence."""
    url, hand, (s1, s2, s3) = stud["url"], stud["hand"], stud["seats"]
    status, done = rule(client, url, auth, {"ruling": "stud_exposed_downcards", "seat": s2,
                                            "cards": "2c"}, hand)
    assert status == 200, done
    after = done["hand"]
    wrong = client.post(f"{url}/hand/deal", json={"cards": {str(s1): ["5d"], str(s2): ["9c"],
                                                            str(s3): ["Kh"]},
                                                  "version": after["version"]}, headers=auth)
    assert wrong.status_code == 422
    assert "already has his cards for third street" in wrong.get_json()["error"]
    r = client.post(f"{url}/hand/deal", json={"cards": {str(s1): ["5d"], str(s2): ["2c"], str(s3): ["Kh"]},
                                               "version": after["version"]}, headers=auth)
    assert r.status_code == 200, r.get_json()
    assert r.get_json()["to_act"] == s2
    assert seat_of(r.get_json(), s2)["up_cards"] == ["2c"]

def test_ST_10_exposed_card_after_his_up_card_was_entered_plays_on_without_an_undo(
        client: FlaskClient, auth: dict[str, str], stud: dict[str, Any]) -> None:
    """Issue 13: his third card was dealt face up and entered before the ruling; the
    cards stand, the confirm records the exposed card and the hand goes on (TDA RP-10-A)."""
    url, hand, (s1, s2, s3) = stud["url"], stud["hand"], stud["seats"]
    hand = client.post(f"{url}/hand/deal", json={"cards": {str(s1): ["5d"], str(s2): ["8s"],
                                                           str(s3): ["Kh"]},
                                                 "version": hand["version"]}, headers=auth).get_json()
    status, body = rule(client, url, auth, {"ruling": "stud_exposed_downcards", "seat": s2,
                                            "cards": "2c"})
    assert status == 200 and body["ruling"]["applies"] is False and "blocked" not in body["ruling"]
    assert body["ruling"]["decision"] == "play_on"
    assert "his third card 8♠ is already face up and entered" in body["ruling"]["text"]
    # the same card as the entered up-card: nothing to apply, the confirm is logged
    status, done = rule(client, url, auth, {"ruling": "stud_exposed_downcards", "seat": s2,
                                            "cards": "8s"}, hand)
    assert status == 200 and done["ruling"]["applies"] is False


def test_ST_10_house_policy_misdeal_names_its_rule_and_source(
        client: FlaskClient, auth: dict[str, str], stud: dict[str, Any]) -> None:
    url, hand, s2 = stud["url"], stud["hand"], stud["seats"][1]
    exposed = {"ruling": "stud_exposed_downcards", "seat": s2, "cards": "2c",
               "policy": {"stud_one_downcard_exposed": "misdeal"}}
    status, done = rule(client, url, auth, exposed, hand)
    assert status == 200, done
    assert done["ruling"]["decision"] == "misdeal"
    assert done["ruling"]["text"].endswith("Rule: WSOP-T 88-a-6, house policy sent with the ruling")
    assert done["hand"]["misdeal"] is True


def test_OOT_1_binding_raise_ruled_in_turn_reads_in_swedish(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int]) -> None:
    """The out-of-turn ruling that stands is asked when the action reaches the player
    (what tests/web/test_i18n_dealer.py should do; before his turn the action backs up)."""
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    tablet = paired_tablet(app, t, "sv")
    csrf = re.search(r'data-csrf="([^"]+)"', tablet.get(f"/dealer/table/{t['id']}").get_data(as_text=True))
    assert csrf
    headers = {"X-CSRF-Token": csrf.group(1)}
    url = f"/api/tables/{t['id']}"
    hand = tablet.post(f"{url}/hands", json={}, headers=headers).get_json()
    button = hand["positions"]["button"]
    hand = play(tablet, url, headers, hand, ["call"])
    assert hand["to_act"] == button
    r = tablet.post(f"{url}/hand/rulings", headers=headers, json={
        "ruling": "action_out_of_turn", "seat": button, "action": "raise", "amount": 600,
        "bet_when_acted": 200})
    assert r.status_code == 200, r.get_json()
    assert "hans höjning till 600 i fel tur står" in r.get_json()["ruling"]["text"]
