"""Rulings about the deal as a dealer with cards in hand names them (issue 13), and the
clock call's cancel, through the dealer JSON API.

* An Omaha card exposed on the deal is named by seat and which of his cards
  (``exposed``), not by deal position (TDA 35-A item 7; Robert's Rules, Hold'em
  irregularities 1); the service counts the deal position from the hand's seating.
* A stud down-card exposed on third street is confirmed whether or not the street's
  up-cards were entered, never by undoing the street (TDA RP-10-A).
* A clock call is cancelled with ``{"seat": null}`` (TDA 29).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.conftest import level
from tests.web.test_dealer_helpers import play, seat_table
from tests.web.test_dealer_rulings_fixes import STUD, rule, seat_of


def exposed(*cards: tuple[int, int] | tuple[int, int, str]) -> dict[str, Any]:
    return {"ruling": "exposed_card",
            "exposed": [{"seat": c[0], "card": c[1], **({"code": c[2]} if len(c) > 2 else {})}
                        for c in cards]}


# --------------------------------------------------------------------------- TDA 35-A item 7


def test_TDA_35_A_item_7_the_buttons_first_card_four_handed_is_replaced(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    """[MD-3] style: the button's first card is the fourth off the deck, not one of the
    first two: the deal goes on and the exposed card is the flop burn."""
    url, hand, button = four["url"], four["hand"], four["button"]
    status, body = rule(client, url, auth, exposed((button, 1, "As")))
    assert status == 200, body
    ruling = body["ruling"]
    assert ruling["decision"] == "replace_card" and ruling["params"]["position"] == 4
    assert ruling["rule"] == "Robert's Rules, Hold'em irregularities 1"
    assert ruling["text"].startswith(f"Seat {button} ({seat_of(hand, button)['name']})'s first card (A♠) "
                                     "was exposed. Finish the deal")
    assert "off the deck" not in ruling["text"]
    status, done = rule(client, url, auth, exposed((button, 1, "As")), hand)
    assert status == 200 and done["hand"]["finished"] is False
    assert any(line["text"].startswith("Ruling (Robert's Rules, Hold'em irregularities 1): Seat")
               for line in done["hand"]["log"])


def test_TDA_35_A_item_7_the_buttons_first_card_heads_up_is_a_misdeal(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    """[MD-2] heads-up: the big blind gets the first card, the button the second."""
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    button = hand["positions"]["button"]
    status, done = rule(client, url, auth, exposed((button, 1)), hand)
    assert status == 200, done
    ruling = done["ruling"]
    assert ruling["decision"] == "misdeal" and ruling["rule"] == "TDA 35-A item 7"
    assert ruling["params"]["position"] == 2
    assert ruling["text"].startswith(f"Seat {button} (") and "'s first card was exposed: one of the first " \
        "two cards off the deck is a misdeal" in ruling["text"]
    assert done["hand"]["misdeal"] is True


def test_TDA_35_A_item_7_the_small_blinds_first_card_is_a_misdeal(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    status, body = rule(client, four["url"], auth, exposed((four["sb"], 1, "Kd")))
    assert status == 200 and body["ruling"]["decision"] == "misdeal"
    assert body["ruling"]["params"]["position"] == 1 and "(K♦)" in body["ruling"]["text"]


def test_MD_3_a_seats_third_card_is_replaced_from_the_stub(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    url, utg = four["url"], four["utg"]
    status, body = rule(client, url, auth, exposed((utg, 3)))
    assert status == 200, body
    ruling = body["ruling"]
    # UTG is the third player from the button, four-handed: 2 passes of 4, then card 3.
    assert ruling["decision"] == "replace_card" and ruling["params"]["position"] == 11
    assert f"Seat {utg} (" in ruling["text"] and "'s third card was exposed." in ruling["text"]
    assert ruling["effect"] == {"type": "replace_card", "player": 2, "becomes": "flop burn"}


def test_MD_4_two_exposed_cards_are_a_misdeal(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    url, hand, utg, button = four["url"], four["hand"], four["utg"], four["button"]
    status, done = rule(client, url, auth, exposed((utg, 2, "7h"), (button, 3)), hand)
    assert status == 200, done
    ruling = done["ruling"]
    assert ruling["decision"] == "misdeal" and ruling["rule"] == "TDA 35-A item 7"
    assert ruling["params"]["positions"] == "7, 12"
    assert ruling["text"].startswith("2 down-cards were exposed (seats ") and ruling["text"].endswith(": misdeal")
    assert done["hand"]["misdeal"] is True


def test_TDA_30_an_absent_seat_is_dealt_in_so_it_counts_in_the_deal(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    """Ann is away: she is dealt in (her hand is dead, TDA 30), so she takes her card in
    every pass and the seats after her count one card more."""
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    away = t["seats"]["Ann"]
    hand = client.post(f"{url}/hands", json={"absent_seats": [away]}, headers=auth).get_json()
    pos = hand["positions"]
    # Four dealt in, from the small blind round to the button: the button's second card is
    # card 8 (6 if Ann were left out), the big blind's card 6 (5 if she were).
    seat, expected = (pos["button"], 8) if pos["button"] != away else (pos["big_blind"], 6)
    status, body = rule(client, url, auth, exposed((seat, 2)))
    assert status == 200, body
    assert body["ruling"]["params"]["position"] == expected


def test_positions_still_work(client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    status, body = rule(client, four["url"], auth, {"ruling": "exposed_card", "positions": [6]})
    assert status == 200 and body["ruling"]["decision"] == "replace_card"
    assert "card 6 off the deck" in body["ruling"]["text"]


@pytest.mark.parametrize(("sent", "field", "message"), [
    ([{"seat": 1, "card": 5}], "exposed[0].card", "Give 1 to 4: which of the seat's cards was exposed"),
    ([{"seat": 1, "card": 0}], "exposed[0].card", "Give 1 to 4: which of the seat's cards was exposed"),
    ([{"seat": 1}], "exposed[0].card", "Give 1 to 4: which of the seat's cards was exposed"),
    ([{"seat": 1, "card": 1}, {"card": 2}], "exposed[1].seat", "This is required"),
    ([{"seat": 1, "card": 1, "code": "Zz"}], "exposed[0].code", "Zz is not a card (write it as As, Td, 7h ...)"),
    ([], "exposed", "Give at least 1"),
    ("seat 1", "exposed", "Give a list"),
])
def test_TDA_35_A_item_7_a_bad_exposed_card_is_a_400_naming_it(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any], sent: Any, field: str,
        message: str) -> None:
    r = client.post(f"{four['url']}/hand/rulings", json={"ruling": "exposed_card", "exposed": sent},
                    headers=auth)
    assert r.status_code == 400, r.get_json()
    assert r.get_json()["errors"][field] == message


def test_TDA_35_A_item_7_a_seat_not_in_the_hand_or_a_card_named_twice_is_a_400(
        client: FlaskClient, auth: dict[str, str], four: dict[str, Any]) -> None:
    url, utg = four["url"], four["utg"]
    empty = next(s for s in range(1, 11) if s not in {four["sb"], four["bb"], utg, four["button"]})
    r = client.post(f"{url}/hand/rulings", json=exposed((utg, 1), (empty, 2)), headers=auth)
    assert r.status_code == 400 and "exposed[1].seat" in r.get_json()["errors"]
    r = client.post(f"{url}/hand/rulings", json=exposed((utg, 2), (utg, 2)), headers=auth)
    assert r.status_code == 400 and r.get_json()["errors"] == {"exposed[1].card": "This card is named twice"}
    r = client.post(f"{url}/hand/rulings", json={"ruling": "exposed_card"}, headers=auth)
    assert r.status_code == 400 and "exposed" in r.get_json()["errors"]


# --------------------------------------------------------------------------- TDA RP-10-A (stud)


@pytest.fixture
def stud(client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> dict[str, Any]:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[STUD])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    return {"url": url, "hand": hand, "seats": sorted(s["seat"] for s in hand["seats"])}


def test_RP_10_A_card_codes_from_the_picker_before_the_street_is_entered(
        client: FlaskClient, auth: dict[str, str], stud: dict[str, Any]) -> None:
    url, hand, s2 = stud["url"], stud["hand"], stud["seats"][1]
    status, done = rule(client, url, auth, {"ruling": "stud_exposed_downcards", "seat": s2,
                                            "cards": ["2c"]}, hand)
    assert status == 200, done
    assert done["ruling"]["decision"] == "becomes_up_card" and done["ruling"]["applies"] is True
    assert seat_of(done["hand"], s2)["up_cards"] == ["2c"]


def test_RP_10_A_after_the_street_was_entered_the_confirm_records_it_and_the_hand_goes_on(
        client: FlaskClient, auth: dict[str, str], stud: dict[str, Any]) -> None:
    """His third card was dealt up (8♠) and entered: no undo; the ruling is logged, the
    up-cards as entered stand and the bring-in still acts."""
    url, hand, (s1, s2, s3) = stud["url"], stud["hand"], stud["seats"]
    hand = client.post(f"{url}/hand/deal", json={"cards": {str(s1): ["5d"], str(s2): ["8s"],
                                                           str(s3): ["2h"]},
                                                 "version": hand["version"]}, headers=auth).get_json()
    bring_in = hand["to_act"]
    assert bring_in == s3
    status, done = rule(client, url, auth, {"ruling": "stud_exposed_downcards", "seat": s2,
                                            "cards": ["Ah"]}, hand)
    assert status == 200, done
    ruling, after = done["ruling"], done["hand"]
    assert ruling["decision"] == "play_on" and ruling["rule"] == "TDA RP-10-A" and "blocked" not in ruling
    assert "exposed down-card A♥ was not made his up-card" in ruling["text"]
    assert seat_of(after, s2)["up_cards"] == ["8s"] and after["to_act"] == bring_in
    assert any(line["text"].startswith("Ruling (TDA RP-10-A): Seat") and "A♥" in line["text"]
               for line in after["log"])
    play(client, url, auth, after, ["bring_in"])


def test_RP_10_A_after_the_street_was_entered_with_the_exposed_card_as_his_up_card(
        client: FlaskClient, auth: dict[str, str], stud: dict[str, Any]) -> None:
    url, hand, (s1, s2, s3) = stud["url"], stud["hand"], stud["seats"]
    hand = client.post(f"{url}/hand/deal", json={"cards": {str(s1): ["5d"], str(s2): ["2c"],
                                                           str(s3): ["Kh"]},
                                                 "version": hand["version"]}, headers=auth).get_json()
    status, done = rule(client, url, auth, {"ruling": "stud_exposed_downcards", "seat": s2,
                                            "cards": ["2c"]}, hand)
    assert status == 200, done
    assert done["ruling"]["decision"] == "becomes_up_card" and done["hand"]["to_act"] == s2


# --------------------------------------------------------------------------- TDA 29 (the clock)


def test_TDA_29_the_clock_call_carries_its_end_and_seconds_and_null_cancels_it(
        client: FlaskClient, make_tournament: Callable[..., int], auth: dict[str, str]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[level(100, 200)])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    r = client.post(f"{url}/hand/clock", json={"seat": hand["to_act"], "version": hand["version"]},
                    headers=auth)
    assert r.status_code == 200, r.get_json()
    call = r.get_json()["clock_call"]
    assert call["seat"] == hand["to_act"] and call["seconds"] == 30
    assert call["ends_at"].endswith("Z") and call["ends_at"] > call["called_at"]
    assert client.get(f"{url}/hand").get_json()["clock_call"] == call
    r = client.post(f"{url}/hand/clock", json={"seat": None, "version": r.get_json()["version"]},
                    headers=auth)
    assert r.status_code == 200, r.get_json()
    after = r.get_json()
    assert after["clock_call"] is None
    assert any(line["text"] == "Clock cancelled" for line in after["log"])
    assert client.get(f"{url}/hand").get_json()["clock_call"] is None
    expired = client.post(f"{url}/hand/rulings", json={"ruling": "clock_expired"}, headers=auth)
    assert expired.status_code == 422 and "No clock has been called" in expired.get_json()["error"]
