"""Colour-up and chip race: RULES.md §9.2 (TDA 24-25; RRP *Tournaments*), examples CR-1..CR-3."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from director.poker.cards import parse_card, parse_cards
from director.poker.errors import CardError, RuleViolation
from director.tournament.chip_race import (
    chips_to_race,
    deal_race_cards,
    exchange,
    plan_race,
    race,
)

CR1_ODD = {1: 3, 3: 2, 6: 1, 8: 3}


def test_CR_1_odd_225_races_two_T100_chips() -> None:
    plan = plan_race(CR1_ODD, removed=25, new=100)
    assert plan.odd_value == 225
    assert plan.chips_raced == 2  # 225 = 2 x 100 + 25, leftover 25 < 50
    assert plan.cards == {1: 3, 3: 2, 6: 1, 8: 3}  # one card per odd chip
    assert plan.seats == (1, 3, 6, 8)


def test_CR_1_highest_card_then_next_highest_other_player_win() -> None:
    plan = plan_race(CR1_ODD, removed=25, new=100)
    cards = {
        1: parse_cards("2c 9h Jd"),
        3: parse_cards("Kd 4s"),
        6: parse_cards("Qh"),
        8: parse_cards("As Ks 5c"),  # S8 also holds the K♠, but wins at most one chip
    }
    result = race(plan, cards)
    assert result.winners == (8, 3)
    assert result.new_chips == {1: 0, 3: 1, 6: 0, 8: 1}
    assert result.best_cards[8] == parse_card("As")
    assert result.protected == ()
    assert result.lines[3] == "Seat 8: A♠ wins new chip 1 (T100)"


def test_CR_2_odd_275_races_three_T100_chips() -> None:
    assert chips_to_race(275, 100) == 3  # 2 full chips + leftover 75 >= 50
    plan = plan_race({1: 3, 2: 3, 4: 3, 5: 2}, removed=25, new=100)
    assert plan.odd_value == 275 and plan.chips_raced == 3


def test_chip_race_rounding_policy() -> None:
    assert chips_to_race(250, 100) == 3  # exactly half a chip: the last chip is raced
    assert chips_to_race(275, 100, "down") == 2
    assert chips_to_race(225, 100, "up") == 3
    assert chips_to_race(200, 100, "up") == 2
    with pytest.raises(RuleViolation):
        chips_to_race(225, 100, "nearest")


def test_CR_3_player_cannot_be_raced_out() -> None:
    plan = plan_race(CR1_ODD, removed=25, new=100)
    cards = {1: parse_cards("2c 9h Jd"), 3: parse_cards("Kd 4s"), 6: parse_cards("3h"),
             8: parse_cards("As 3d 5c")}
    result = race(plan, cards, other_chips={1: 5000, 3: 2000, 6: 0, 8: 800})
    assert 6 not in result.winners
    assert result.protected == (6,)
    assert result.new_chips[6] == 1  # one T100, the smallest chip still in play
    assert "cannot be raced out" in result.lines[2]


def test_suit_breaks_a_tie_between_equal_ranks() -> None:
    plan = plan_race({2: 1, 4: 1, 7: 1}, removed=25, new=100)  # 75 -> one chip
    result = race(plan, {2: parse_cards("Ah"), 4: parse_cards("As"), 7: parse_cards("Kc")})
    assert result.winners == (4,)


def test_exchange_full_sets_directly() -> None:
    assert exchange(7, removed=25, new=100) == (1, 3)
    assert exchange(8, removed=25, new=100) == (2, 0)
    assert exchange(4, removed=500, new=1000) == (2, 0)
    with pytest.raises(RuleViolation):
        exchange(3, removed=25, new=60)


def test_plan_refuses_full_sets_and_drops_seats_without_odd_chips() -> None:
    with pytest.raises(RuleViolation, match="exchange every full set"):
        plan_race({1: 4}, removed=25, new=100)
    plan = plan_race({1: 0, 2: 2}, removed=25, new=100)
    assert plan.seats == (2,)
    assert plan.chips_raced == 1


def test_race_checks_the_cards() -> None:
    plan = plan_race({1: 2, 2: 1}, removed=25, new=100)
    with pytest.raises(RuleViolation, match="one per odd chip"):
        race(plan, {1: parse_cards("As"), 2: parse_cards("Kd")})
    with pytest.raises(CardError):
        race(plan, {1: (parse_card("As"), parse_card("Kd")), 2: (parse_card("As"),)})
    with pytest.raises(RuleViolation, match="racing seats"):
        race(plan, {1: parse_cards("As Kd")})


def test_deal_race_cards_seat_one_first_each_gets_all_his_cards() -> None:
    plan = plan_race(CR1_ODD, removed=25, new=100)
    dealt = deal_race_cards(plan, random.Random(2026))
    assert dealt == deal_race_cards(plan, random.Random(2026))  # reproducible with a seed
    deck = list(parse_cards("2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d7h7s8c8d8h8s"
                            "9c9d9h9sTcTdThTsJcJdJhJsQcQdQhQsKcKdKhKsAcAdAhAs"))
    random.Random(2026).shuffle(deck)
    assert dealt[1] == tuple(deck[0:3])
    assert dealt[3] == tuple(deck[3:5])
    assert dealt[6] == tuple(deck[5:6])
    assert dealt[8] == tuple(deck[6:9])
    assert race(plan, dealt).chips_raced == 2


@settings(max_examples=200, deadline=None)
@given(
    odd=st.dictionaries(st.integers(1, 10), st.integers(0, 3), min_size=1, max_size=10),
    seed=st.integers(0, 2**32),
    rounding=st.sampled_from(["half-up", "down", "up"]),
)
def test_race_awards_at_most_one_chip_per_player_and_the_right_count(
        odd: dict[int, int], seed: int, rounding: str) -> None:
    plan = plan_race(odd, removed=25, new=100, rounding=rounding)
    result = race(plan, deal_race_cards(plan, random.Random(seed)))
    assert len(set(result.winners)) == len(result.winners) == plan.chips_raced
    assert all(n <= 1 for n in result.new_chips.values())
    # The value awarded is within one chip of the value raced (half a chip with half-up).
    slack = 50 if rounding == "half-up" else 100
    assert abs(plan.chips_raced * 100 - plan.odd_value) <= slack
    # The winners hold the best cards.
    best = sorted(result.best_cards.values(), reverse=True)[:plan.chips_raced]
    assert sorted((result.best_cards[s] for s in result.winners), reverse=True) == best
