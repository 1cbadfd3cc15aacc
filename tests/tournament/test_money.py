"""Prize pool, fees, guarantee overlay and rounding (issue 6; RULES.md §9.8)."""

from __future__ import annotations

import doctest
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from director.poker.errors import RuleViolation
from director.tournament import money
from director.tournament.money import (
    BuyIn,
    MoneyError,
    PrizePool,
    apportion,
    pool_from_payments,
    prize_pool,
    round_down,
)


def test_docstring_examples_hold():
    assert doctest.testmod(money).failed == 0


def test_prize_pool_is_entries_times_prize_part_and_fees_stay_with_the_house():
    # €110 = €100 to the prize pool + €10 fee, 37 entries (re-entries included).
    pool = prize_pool(entries=37, buy_in=BuyIn.from_total(11_000, fee=1_000))
    assert pool.collected == 37 * 10_000
    assert pool.fees == 37 * 1_000
    assert pool.total == 370_000
    assert pool.overlay == 0


def test_rebuys_and_add_ons_add_their_prize_part_to_the_pool():
    pool = prize_pool(entries=20, buy_in=BuyIn(5_000, 500),
                      rebuys=7, rebuy=BuyIn(5_000, 250), add_ons=15, add_on=BuyIn(4_000))
    assert pool.collected == 20 * 5_000 + 7 * 5_000 + 15 * 4_000
    assert pool.fees == 20 * 500 + 7 * 250
    assert pool.total == pool.collected


def test_guarantee_shortfall_is_an_overlay_the_house_pays():
    # €10,000 guaranteed, 80 × €100 collected: the house adds €2,000.
    pool = prize_pool(entries=80, buy_in=BuyIn(10_000, 1_500), guarantee=1_000_000)
    assert pool.collected == 800_000
    assert pool.overlay == 200_000
    assert pool.total == 1_000_000
    assert pool.fees == 120_000
    assert pool.house_result == 120_000 - 200_000


def test_guarantee_met_means_no_overlay():
    pool = prize_pool(entries=120, buy_in=BuyIn(10_000), guarantee=1_000_000)
    assert pool.overlay == 0
    assert pool.total == 1_200_000


def test_ledger_of_payments_gives_the_same_pool_as_the_counts():
    buy_in, rebuy = BuyIn(3_000, 300), BuyIn(3_000)
    ledger = [buy_in] * 9 + [rebuy] * 4
    assert pool_from_payments(ledger, guarantee=50_000) == prize_pool(
        entries=9, buy_in=buy_in, rebuys=4, rebuy=rebuy, guarantee=50_000)


@pytest.mark.parametrize("make", [
    lambda: BuyIn(prize=-100),
    lambda: BuyIn(prize=100, fee=-1),
    lambda: BuyIn(prize=10.5),  # type: ignore[arg-type]
    lambda: BuyIn.from_total(1_000, fee=2_000),
    lambda: prize_pool(entries=-1, buy_in=BuyIn(100)),
    lambda: prize_pool(entries=3, buy_in=BuyIn(100), guarantee=-5),
    lambda: prize_pool(entries=3, buy_in=BuyIn(100), add_ons=2),
    lambda: PrizePool(collected=-1),
])
def test_negative_or_fractional_amounts_are_refused_with_a_message(make):
    with pytest.raises(MoneyError) as refused:
        make()
    assert isinstance(refused.value, RuleViolation)
    assert refused.value.message[0].isupper()


def test_refusal_keeps_template_and_parameters_for_translation():
    with pytest.raises(MoneyError) as refused:
        BuyIn(prize=-100)
    assert refused.value.template == "The {what} cannot be negative ({amount})"
    assert refused.value.params == {"what": "prize part of the buy-in", "amount": -100}


def test_round_down_to_the_unit():
    assert round_down(12_399, 100) == 12_300
    assert round_down(12_400, 100) == 12_400
    assert round_down(99, 100) == 0
    with pytest.raises(MoneyError):
        round_down(100, 0)


def test_apportion_gives_leftover_units_to_the_largest_remainders():
    # 100 in thirds: one unit left over, it goes to the first by priority.
    assert apportion(100, [Fraction(100, 3)] * 3, priority=[2, 0, 1]) == (33, 33, 34)
    # 10 in units of 3: floors 3+3+3 = 9, the part below one unit (1) to the first.
    assert apportion(10, [Fraction(10, 3)] * 3, unit=3) == (4, 3, 3)


@given(total=st.integers(0, 10**9),
       weights=st.lists(st.integers(1, 10**6), min_size=1, max_size=12),
       unit=st.sampled_from([1, 5, 100, 500]))
def test_apportion_always_sums_exactly_and_respects_order(total, weights, unit):
    quotas = [Fraction(total * w, sum(weights)) for w in weights]
    amounts = apportion(total, quotas, unit=unit)
    assert sum(amounts) == total
    for i, amount in enumerate(amounts):
        assert abs(amount - quotas[i]) < unit + (total % unit if i == 0 else 0)
        if i > 0:
            assert amount % unit == 0
    for i in range(len(weights)):
        for j in range(len(weights)):
            if weights[i] > weights[j] and i != 0 and j != 0:
                assert amounts[i] >= amounts[j]


@given(entries=st.integers(0, 2_000), prize=st.integers(0, 100_000), fee=st.integers(0, 20_000),
       guarantee=st.integers(0, 10**8))
def test_pool_is_never_below_the_guarantee_and_fees_never_enter_it(entries, prize, fee, guarantee):
    pool = prize_pool(entries=entries, buy_in=BuyIn(prize, fee), guarantee=guarantee)
    assert pool.total == max(entries * prize, guarantee)
    assert pool.total - pool.overlay == entries * prize
    assert pool.fees == entries * fee
