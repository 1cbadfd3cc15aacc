"""Payout tables, rounding, eliminations and ties (issue 6; RULES.md §9.6, §9.8)."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from director.tournament import payouts
from director.tournament.money import MoneyError, apportion
from director.tournament.payouts import (
    BASIS_POINTS,
    TEMPLATES,
    PayoutTable,
    place_for_next_bust,
    places_for_busts,
    places_paid,
    prize_for_place,
    split_tied_places,
)

FIELDS = list(range(2, 400)) + list(range(400, 3_001, 7))


def test_docstring_examples_hold():
    assert doctest.testmod(payouts).failed == 0


# -- [PAY-1] places paid -------------------------------------------------------------------


def test_PAY_1_180_entries_at_15_percent_pay_27_places_and_at_10_percent_18():
    assert places_paid(180, 1_500) == 27
    assert places_paid(180, 1_000) == 18
    # 27 and 18 are whole 9-handed tables, so rounding to tables keeps them.
    assert places_paid(180, 1_500, table_size=9) == 27
    assert places_paid(180, 1_000, table_size=9) == 18
    assert TEMPLATES["wide"].table_for(180).places == 27
    assert TEMPLATES["standard"].table_for(180).places == 18


def test_places_paid_rounds_to_whole_tables_when_asked():
    assert places_paid(100, 1_500) == 15
    assert places_paid(100, 1_500, table_size=9) == 18  # 15 is nearer 2 tables than 1
    assert places_paid(70, 1_000, table_size=9) == 7  # below one table: not rounded


def test_small_fields_still_pay_one_two_or_three_places():
    assert [places_paid(n, 1_000) for n in (0, 1, 2, 5, 6, 10, 11, 20)] == [0, 1, 1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_shipped_templates_pay_about_10_to_15_percent_of_the_field(name):
    template = TEMPLATES[name]
    slack = (template.table_size or 0) / 2 + 1
    for entries in FIELDS:
        places = template.places_for(entries)
        assert 1 <= places < entries
        if entries >= 30:
            aimed = entries * template.paid_basis_points / BASIS_POINTS
            assert abs(places - aimed) <= slack
            assert 0.10 * entries - slack <= places <= 0.15 * entries + slack


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_shipped_tables_sum_to_100_percent_and_never_rise(name):
    for entries in FIELDS:
        shares = TEMPLATES[name].table_for(entries).shares
        assert sum(shares) == BASIS_POINTS
        assert all(a >= b > 0 for a, b in zip(shares, shares[1:], strict=False))


@pytest.mark.parametrize("name", ["standard", "wide"])
def test_large_field_winner_gets_15_to_25_percent_and_min_cash_is_1_5_to_2_buy_ins(name):
    template = TEMPLATES[name]
    for entries in FIELDS:
        table = template.table_for(entries)
        if table.places < 10:
            continue
        assert 1_500 <= table.shares[0] <= 2_500, (entries, table.shares[0])
        # Prize pool = entries × buy-in, so the min-cash in buy-ins is share × entries.
        min_cash_buy_ins = table.shares[-1] * entries / BASIS_POINTS
        assert 1.3 <= min_cash_buy_ins <= 2.3, (entries, min_cash_buy_ins)


def _shares_by_a_hundred_bisection_steps(places, min_share):
    """The large-field shares as first written: a hundred bisection steps, each place's
    curve from ``payouts._curve``."""
    winner, last = payouts._winner_share(places), float(min_share)

    def total(power):
        return places * last + (winner - last) * sum(
            payouts._curve(place, places, power) for place in range(1, places + 1))

    low, high = -5.0, 20.0
    for _ in range(100):
        middle = (low + high) / 2
        if total(middle) > 1:
            low = middle
        else:
            high = middle
    power = (low + high) / 2
    exact = [last + (winner - last) * payouts._curve(place, places, power)
             for place in range(1, places + 1)]
    scale = BASIS_POINTS / sum(exact)
    return apportion(BASIS_POINTS, [share * scale for share in exact])


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_large_field_tables_are_the_basis_points_a_hundred_bisection_steps_give(name):
    """The payout curve is worked out faster (it stops once the bisection no longer
    moves) and gives the same basis points at every number of places."""
    template = TEMPLATES[name]
    for places in [*range(10, 80), *range(80, payouts.MAX_TEMPLATE_PLACES + 1, 13)]:
        min_share = template.min_cash * template.paid_basis_points / BASIS_POINTS / places
        assert payouts._large_field_shares(places, min_share) == \
            _shares_by_a_hundred_bisection_steps(places, min_share), places


def test_small_field_tables_pay_the_winner_more():
    assert TEMPLATES["standard"].table_for(8).shares == (6_500, 3_500)
    assert TEMPLATES["standard"].table_for(30).shares == (5_000, 3_000, 2_000)
    assert TEMPLATES["standard"].table_for(90).shares[0] > 2_500


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_bands_cover_every_field_size_without_gaps(name):
    bands = TEMPLATES[name].bands(600)
    assert bands[0].first == 2 and bands[-1].last == 600
    for before, after in zip(bands, bands[1:], strict=False):
        assert after.first == before.last + 1
        assert after.places > before.places
    for band in bands:
        assert TEMPLATES[name].places_for(band.first) == band.places
        assert TEMPLATES[name].places_for(band.last) == band.places


def test_table_stays_the_same_within_a_band():
    template = TEMPLATES["standard"]
    assert template.table_for(105) == template.table_for(114)
    assert template.table_for(114) != template.table_for(115)


def test_more_places_than_templates_cover_need_a_custom_table():
    with pytest.raises(MoneyError, match="custom table"):
        TEMPLATES["wide"].table_for(10_000)


# -- custom tables ------------------------------------------------------------------------


@pytest.mark.parametrize(("percentages", "reason"), [
    (["50", "30", "19"], "The payout table adds up to 99 %, not 100 %"),
    (["50", "30", "20.01"], "The payout table adds up to 100.01 %, not 100 %"),
    (["30", "40", "30"], "Place 2 (40 %) pays more than place 1 (30 %)"),
    (["100", "0"], "Place 2 pays nothing: remove the place or give it a share"),
    (["50", "-10", "60"], "Place 2 pays nothing: remove the place or give it a share"),
    (["50.005", "49.995"], "The share of place 1 has more than two decimals: 50.005"),
    (["fifty", "50"], "The share of place 1 is not a number: 'fifty'"),
    (["NaN"], "The share of place 1 is not a number: 'NaN'"),
    ([], "A payout table needs at least one paid place"),
])
def test_custom_table_that_is_not_100_percent_or_rises_is_refused(percentages, reason):
    with pytest.raises(MoneyError) as refused:
        PayoutTable.from_percentages(percentages)
    assert refused.value.message == reason


def test_custom_table_accepts_percent_signs_and_decimals():
    table = PayoutTable.from_percentages(["40%", "25.5 %", "17.25", "10.25", "7"])
    assert table.shares == (4_000, 2_550, 1_725, 1_025, 700)
    assert table.percentages() == ("40", "25.5", "17.25", "10.25", "7")


# -- amounts and rounding -----------------------------------------------------------------


def test_rounding_remainder_goes_to_first_place_and_amounts_sum_to_the_pool():
    # 3,457.89 to share 50/30/20 in whole euros (unit 100 cents).
    amounts = PayoutTable((5_000, 3_000, 2_000)).amounts(345_789, unit=100)
    assert amounts[1:] == (103_700, 69_100)  # 1,037.36 and 691.57 rounded down
    assert amounts[0] == 345_789 - 103_700 - 69_100
    assert sum(amounts) == 345_789


def test_guaranteed_pool_with_overlay_is_paid_out_in_full():
    from director.tournament.money import BuyIn, prize_pool

    pool = prize_pool(entries=57, buy_in=BuyIn(10_000, 1_000), guarantee=1_000_000)
    assert pool.overlay == 430_000
    table = TEMPLATES["standard"].table_for(57)
    amounts = table.amounts(pool.total, unit=500)
    assert sum(amounts) == 1_000_000
    assert all(amount % 500 == 0 for amount in amounts)


@given(entries=st.integers(2, 1_500), pool=st.integers(0, 10**9),
       unit=st.sampled_from([1, 100, 500, 1_000, 2_500]),
       name=st.sampled_from(sorted(TEMPLATES)))
def test_amounts_sum_exactly_to_the_pool_and_never_rise_by_place(entries, pool, unit, name):
    table = TEMPLATES[name].table_for(entries)
    amounts = table.amounts(pool, unit=unit)
    assert len(amounts) == table.places
    assert sum(amounts) == pool
    assert all(a >= b for a, b in zip(amounts, amounts[1:], strict=False))
    for share, amount in zip(table.shares[1:], amounts[1:], strict=True):
        assert amount % unit == 0
        assert 0 <= pool * share / BASIS_POINTS - amount < unit
    assert amounts[0] >= pool * table.shares[0] // BASIS_POINTS - unit


def test_negative_prize_pool_is_refused():
    with pytest.raises(MoneyError):
        PayoutTable((10_000,)).amounts(-1)


# -- eliminations, places and ties (RULES.md §9.6) ----------------------------------------


def test_next_player_out_finishes_in_the_place_of_the_players_left():
    assert place_for_next_bust(52) == 52
    assert place_for_next_bust(2) == 2
    with pytest.raises(MoneyError):
        place_for_next_bust(1)


def _fifty_paid() -> tuple[int, ...]:
    table = TEMPLATES["standard"].table_for(500)
    assert table.places == 50
    return table.amounts(5_000_000, unit=100)


def test_H4H_1_three_busts_on_the_announcement_hand_share_the_50th_prize():
    amounts = _fifty_paid()
    places = places_for_busts(52, 3)
    assert places == (52, 51, 50)
    shares = split_tied_places(amounts, places)
    assert sum(shares) == amounts[49]
    assert max(shares) - min(shares) <= 1
    assert all(3 * share in range(amounts[49] - 2, amounts[49] + 3) for share in shares)


def test_H4H_2_different_tables_split_50th_and_51st_same_table_bigger_stack_places_higher():
    amounts = _fifty_paid()
    fiftieth = prize_for_place(amounts, 50)
    assert prize_for_place(amounts, 51) == 0
    # X (table 1) and Y (table 4) tie: each gets half of the 50th prize.
    x, y = split_tied_places(amounts, places_for_busts(51, 2))
    assert x + y == fiftieth
    assert abs(x - y) <= 1 and x >= y
    # Same table: X began the hand with 12,000, Y with 8,000 → X 50th (paid), Y 51st (not).
    assert prize_for_place(amounts, 50) == fiftieth > 0
    assert prize_for_place(amounts, 51) == 0


def test_tied_split_in_rounding_units_gives_leftover_units_in_listed_order():
    amounts = (50_000, 30_100, 19_900)
    # Two players tie for 2nd and 3rd: 30,100 + 19,900 = 50,000, half each.
    assert split_tied_places(amounts, (3, 2), unit=1_000) == (25_000, 25_000)
    # Three tie for 2nd-4th (4th unpaid): 40,000 / 3 in thousands is 13,000 each and one
    # thousand left over, which goes to the first listed.
    assert split_tied_places((60_000, 25_300, 14_700), (2, 3, 4), unit=1_000) == (
        14_000, 13_000, 13_000)


def test_tied_places_must_follow_one_another():
    with pytest.raises(MoneyError, match="follow one another"):
        split_tied_places((500, 300, 200), (1, 3))
