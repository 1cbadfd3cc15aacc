"""ICM (Malmuth-Harville) and chip-chop deals (issue 6).

The expected equities are computed independently here by brute force: every
finishing order, its Malmuth-Harville probability as an exact fraction, and
the prizes it pays.
"""

from __future__ import annotations

import doctest
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from director.tournament import icm as icm_module
from director.tournament.icm import MAX_ICM_PLAYERS, chip_chop, icm, icm_equities
from director.tournament.money import MoneyError


def brute_force_icm(stacks: list[int], prizes: list[int]) -> list[Fraction]:
    """Exact equities: sum over all finishing orders of P(order) × prizes."""
    padded = list(prizes) + [0] * (len(stacks) - len(prizes))
    equity = [Fraction(0)] * len(stacks)
    for order in permutations(range(len(stacks))):
        chance = Fraction(1)
        left = sum(stacks)
        for player in order:
            chance *= Fraction(stacks[player], left)
            left -= stacks[player]
        for place, player in enumerate(order):
            equity[player] += chance * padded[place]
    return equity


def test_docstring_examples_hold():
    assert doctest.testmod(icm_module).failed == 0


def test_classic_three_player_example_5000_3000_2000_with_50_30_20():
    stacks, prizes = [5_000, 3_000, 2_000], [5_000, 3_000, 2_000]  # prizes in basis points
    exact = brute_force_icm(stacks, prizes)
    # By hand: B is 2nd after A wins (0.5 × 3/5) or after C wins (0.2 × 3/8) = 0.375;
    # B = 0.3 × 50 + 0.375 × 30 + 0.325 × 20 = 32.75 %.
    assert exact[1] == Fraction(3_275)
    assert [round(float(e) / 100, 2) for e in exact] == [38.39, 32.75, 28.86]
    assert [round(e, 6) for e in icm_equities(stacks, prizes)] == [round(float(e), 6) for e in exact]
    assert icm(stacks, prizes) == (3_839, 3_275, 2_886)


def test_wikipedia_example_50_30_20_percent_of_chips_paying_70_and_30():
    # en.wikipedia.org "Independent Chip Model": A ≈ 45, B ≈ 32, C ≈ 22 units.
    stacks, prizes = [50, 30, 20], [70, 30]
    exact = brute_force_icm(stacks, prizes)
    assert [int(e) for e in exact] == [45, 32, 22]
    amounts = icm(stacks, [7_000, 3_000])
    assert amounts == tuple(round(e * 100) for e in exact)
    assert sum(amounts) == 10_000


def test_heads_up_equity_is_second_prize_plus_chip_share_of_the_difference():
    # Heads-up ICM is a chip-chop of what first pays over second.
    assert icm([30_000, 10_000], [100_000, 60_000]) == (90_000, 70_000)


def test_equal_stacks_share_equally():
    amounts = icm([1_000] * 4, [40_001, 30_000, 20_000, 10_000])
    assert sum(amounts) == 100_001
    assert max(amounts) - min(amounts) <= 1


def test_deal_on_the_bubble_pays_nothing_for_the_unpaid_place():
    stacks, prizes = [8_000, 6_000, 4_000, 2_000], [5_000, 3_000, 2_000]
    exact = brute_force_icm(stacks, prizes)
    amounts = icm(stacks, prizes)
    assert sum(amounts) == 10_000
    assert all(abs(a - e) < 1 for a, e in zip(amounts, exact, strict=True))


def test_ten_players_against_the_subset_recursion_of_nine_plus_one():
    # Player 0's chance of winning is his chip share; the rest of his equity follows
    # from the 9-player ICM of the others given each possible winner.
    stacks = [12_000, 9_500, 8_000, 7_000, 6_500, 5_000, 4_000, 3_000, 2_500, 1_500]
    prizes = [300_000, 180_000, 120_000, 90_000, 70_000, 55_000, 45_000, 40_000, 35_000, 30_000]
    total = sum(stacks)
    expected = [0.0] * 10
    for winner in range(10):
        p = stacks[winner] / total
        expected[winner] += p * prizes[0]
        others = [i for i in range(10) if i != winner]
        rest = icm_equities([stacks[i] for i in others], prizes[1:])
        for i, equity in zip(others, rest, strict=True):
            expected[i] += p * equity
    assert icm_equities(stacks, prizes) == pytest.approx(expected, rel=1e-12)
    assert sum(icm(stacks, prizes)) == sum(prizes)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 50_000), min_size=2, max_size=6).flatmap(
    lambda stacks: st.tuples(
        st.just(stacks),
        st.lists(st.integers(0, 1_000_000), min_size=1, max_size=len(stacks)).map(
            lambda prizes: sorted(prizes, reverse=True)))))
def test_icm_matches_brute_force_to_within_one_unit(case):
    stacks, prizes = case
    exact = brute_force_icm(stacks, prizes)
    assert icm_equities(stacks, prizes) == pytest.approx([float(e) for e in exact], rel=1e-9, abs=1e-6)
    amounts = icm(stacks, prizes)
    assert all(abs(a - e) < 1 + 1e-9 for a, e in zip(amounts, exact, strict=True))


@st.composite
def deals(draw, max_players=MAX_ICM_PLAYERS):
    players = draw(st.integers(2, min(max_players, 10)))
    stacks = draw(st.lists(st.integers(1, 10**7), min_size=players, max_size=players))
    prizes = draw(st.lists(st.integers(0, 10**8), min_size=1, max_size=players))
    return stacks, sorted(prizes, reverse=True)


@settings(max_examples=80, deadline=None)
@given(deals())
def test_icm_sums_to_money_left_bigger_stack_never_less_and_within_prizes(deal):
    stacks, prizes = deal
    amounts = icm(stacks, prizes)
    assert all(isinstance(a, int) for a in amounts)
    assert sum(amounts) == sum(prizes)
    padded = prizes + [0] * (len(stacks) - len(prizes))
    assert all(min(padded) <= a <= max(padded) for a in amounts)
    for i in range(len(stacks)):
        for j in range(len(stacks)):
            if stacks[i] > stacks[j]:
                assert amounts[i] >= amounts[j]


def test_icm_in_rounding_units_keeps_the_sum():
    amounts = icm([5_000, 3_000, 2_000], [500_050, 300_000, 200_000], unit=100)
    assert sum(amounts) == 1_000_050
    assert [a % 100 for a in amounts] == [50, 0, 0]  # the odd 50 to the chip leader


def test_chip_chop_is_proportional_to_chips():
    assert chip_chop([60_000, 30_000, 10_000], [50_000, 30_000, 20_000]) == (60_000, 30_000, 10_000)


def test_chip_chop_with_guaranteed_minimum_gives_everyone_the_lowest_prize_first():
    # Everyone is sure of 20,000; the other 40,000 goes by chips.
    amounts = chip_chop([60_000, 30_000, 10_000], [50_000, 30_000, 20_000], guarantee_lowest=True)
    assert amounts == (20_000 + 24_000, 20_000 + 12_000, 20_000 + 4_000)


def test_chip_chop_can_pay_a_big_leader_more_than_first_but_icm_cannot():
    stacks, prizes = [95_000, 3_000, 2_000], [50_000, 30_000, 20_000]
    assert chip_chop(stacks, prizes)[0] > prizes[0]
    assert icm(stacks, prizes)[0] <= prizes[0]


@settings(max_examples=80, deadline=None)
@given(deals(max_players=12), st.booleans(), st.sampled_from([1, 100, 500]))
def test_chip_chop_sums_to_money_left_and_bigger_stack_never_less(deal, guarantee_lowest, unit):
    stacks, prizes = deal
    amounts = chip_chop(stacks, prizes, guarantee_lowest=guarantee_lowest, unit=unit)
    assert sum(amounts) == sum(prizes)
    for i in range(len(stacks)):
        for j in range(len(stacks)):
            if stacks[i] > stacks[j]:
                assert amounts[i] >= amounts[j]
    if guarantee_lowest and unit == 1 and len(prizes) == len(stacks):
        assert min(amounts) >= prizes[-1]


@pytest.mark.parametrize(("stacks", "prizes", "reason"), [
    ([10_000], [100], "A deal needs at least 2 players, not 1"),
    ([10_000, 0], [100, 50], "Every player in a deal needs chips: player 2 has 0"),
    ([10_000, 5_000], [100, 50, 25], "There are 3 prizes left for 2 players"),
    ([10_000, 5_000], [50, 100], "Place 2 pays more than place 1"),
    ([10_000, 5_000], [100, -5], "The prize for place 2 must be a whole, non-negative amount, not -5"),
    ([1_000] * (MAX_ICM_PLAYERS + 1), [100],
     f"ICM handles at most {MAX_ICM_PLAYERS} players; {MAX_ICM_PLAYERS + 1} are left"),
])
def test_bad_deal_input_is_refused_with_a_message(stacks, prizes, reason):
    with pytest.raises(MoneyError) as refused:
        icm(stacks, prizes)
    assert refused.value.message == reason
