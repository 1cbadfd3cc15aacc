"""The tablet's numbers at the edges: odd chips in the smallest chip in play (TDA 20,
RULES.md §7.3), a short all-in raise (TDA 43-B), a dead seat from the deal (TDA 30)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient

from director.poker.events import Action, ActionKind
from director.poker.games import Game
from director.poker.state import Hand, HandConfig
from director.services.dealer import buttons
from tests.conftest import level
from tests.web.test_dealer_helpers import o8_showdown, seat_table


def o8_split(client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int],
             smallest_chip: int | None = None) -> tuple[list[int], dict[tuple[str, int], int], int]:
    """Blinds 25/50 O8, three players call 50 and call a flop bet of 75: a pot of 375 whose
    high goes to one player and whose low two players tie.  Returns the showdown order, the
    amounts by (half, seat), and the low winner who is first clockwise from the button."""
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy"],
                   levels=[level(25, 50, game="PO/8")])
    if smallest_chip is not None:
        r = client.post(f"/api/tournaments/{t['tournament_id']}/seating/settings",
                        json={"smallest_chip": smallest_chip}, headers=auth)
        assert r.status_code == 200, r.get_json()
    url = f"/api/tables/{t['id']}"
    hand = client.post(f"{url}/hands", json={}, headers=auth).get_json()
    hand, order = o8_showdown(client, url, auth, hand, flop_bet=75)
    assert sum(a["amount"] for a in hand["awards"]) == 375
    button, size = hand["positions"]["button"], 9
    first_low = min(order[1:], key=lambda s: (s - button - 1) % size)
    return order, {(a["half"], a["seat"]): a["amount"] for a in hand["awards"]}, first_low


def test_ODD_1_tablet_counts_odd_chips_in_the_smallest_chip_in_play(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    """375 in T25 chips is 15 units: high 8 units (200), low 7 units split 4/3 (100/75),
    the odd unit of the low to the first winner clockwise from the button (TDA 20)."""
    order, amounts, first_low = o8_split(client, auth, make_tournament)
    high, *lows = order
    other_low = next(s for s in lows if s != first_low)
    assert amounts[("high", high)] == 200
    assert amounts[("low", first_low)] == 100
    assert amounts[("low", other_low)] == 75
    assert all(a % 25 == 0 for a in amounts.values())          # every share is whole T25 chips


def test_ODD_1_the_directors_smallest_chip_setting_wins(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    """With T1 chips in play (the setting) the same pot splits 188 / 94 / 93."""
    order, amounts, first_low = o8_split(client, auth, make_tournament, smallest_chip=1)
    high, *lows = order
    other_low = next(s for s in lows if s != first_low)
    assert (amounts[("high", high)], amounts[("low", first_low)], amounts[("low", other_low)]) == \
        (188, 94, 93)


def test_smallest_chip_setting_is_refused_when_negative(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    tid = make_tournament()
    r = client.post(f"/api/tournaments/{tid}/seating/settings", json={"smallest_chip": -25}, headers=auth)
    assert r.status_code == 400
    assert "smallest_chip" in r.get_json()["errors"]


def test_TDA_43_B_short_all_in_raise_is_offered_as_all_in_not_as_a_min_raise(ctx: Flask) -> None:
    """PLO 100/200: the button raises to 700; the small blind has 1,000 in all, short of
    the full raise to 1,200.  His only raise is all-in for 1,000, and the button says so."""
    hand = Hand.start(HandConfig(game=Game("PO"), starting_stacks=(1_000, 10_000, 10_000),
                                 blinds_or_straddles=(100, 200, 0), min_bet=200))
    hand = hand.apply(Action(2, ActionKind.RAISE, 700))
    assert hand.to_act == 0
    labels = [b["label"] for b in buttons(hand)]
    assert labels == ["Call 600", "All-in 1,000", "Fold"]
    assert not any(label.startswith("Min raise") for label in labels)
    all_in = buttons(hand)[-2]
    assert (all_in["action"], all_in["amount"]) == ("all_in", 1_000)


def test_TDA_30_absent_seat_shows_dead_from_the_deal(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    t = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    url = f"/api/tables/{t['id']}"
    bb = client.get(f"/api/tournaments/{t['tournament_id']}/seating").get_json()["tables"][0]["next_hand"]["big_blind"]
    hand = client.post(f"{url}/hands", json={"absent_seats": [bb]}, headers=auth).get_json()
    statuses = {s["seat"]: s["status"] for s in hand["seats"]}
    assert statuses[bb] == "dead"
    assert sorted(set(statuses.values())) == ["active", "dead"]
