"""Undo takes back the dealer's last tap as a whole: a stud street's up-cards, every seat's."""

from __future__ import annotations

from collections.abc import Callable

from flask.testing import FlaskClient

from tests.conftest import level
from tests.web.test_dealer_helpers import play, seat_table

STUD = level(0, 0, game="F7S", ante=10, bring_in=25, small_bet=100, big_bet=200)


def test_undo_of_a_street_takes_back_every_up_card_then_the_street_is_entered_again(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"], levels=[STUD])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    seats = sorted(s["seat"] for s in hand["seats"])
    third = dict(zip(seats, ["2d", "2c", "Kh"], strict=True))
    hand = client.post(f"{url}/hand/deal", json={"cards": {str(s): [c] for s, c in third.items()},
                                                  "version": hand["version"]}, headers=auth).get_json()
    hand = play(client, url, auth, hand, ["bring_in", "call", "call"])
    before = hand
    fourth = dict(zip(seats, ["3s", "Ac", "Kd"], strict=True))
    dealt = client.post(f"{url}/hand/deal", json={"cards": {str(s): [c] for s, c in fourth.items()},
                                                   "version": hand["version"]}, headers=auth).get_json()
    assert dealt["to_act"] == seats[2]

    r = client.post(f"{url}/hand/undo", json={"version": dealt["version"]}, headers=auth)
    assert r.status_code == 200, r.get_json()
    undone = r.get_json()
    assert undone["awaiting"] == "street" and undone["to_act"] is None     # the whole street is back
    assert [s["cards"] for s in undone["seats"]] == [s["cards"] for s in before["seats"]]
    assert undone["log"][0]["text"].startswith("Undo: ")
    assert undone["log"][0]["text"].count("Seat ") == 3                    # one line names all three

    # the dealer enters the street again, corrected: nothing is refused
    fourth[seats[0]] = "4s"
    again = client.post(f"{url}/hand/deal", json={"cards": {str(s): [c] for s, c in fourth.items()},
                                                   "version": undone["version"]}, headers=auth)
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["to_act"] == seats[2]


def test_undo_of_one_action_takes_back_that_action_only(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"])
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    first = hand["to_act"]
    hand = play(client, url, auth, hand, ["call", "call"])
    r = client.post(f"{url}/hand/undo", json={"version": hand["version"]}, headers=auth)
    undone = r.get_json()
    assert undone["to_act"] != first and undone["to_act"] is not None
    r = client.post(f"{url}/hand/undo", json={"version": undone["version"]}, headers=auth)
    assert r.get_json()["to_act"] == first
