"""Issue 17: the satellite rules (director/tournament/satellites.py), with no Flask."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from director.tournament import satellites
from director.tournament.satellites import (
    SatelliteError,
    can_seat_deal,
    satellite_payout,
    seats_won,
    verify_seat_deal,
)


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(satellites).failed == 0


def test_the_prize_pool_pays_whole_equal_seats() -> None:
    payout = satellite_payout(prize_pool=1_100_00, seat_value=250_00, entries=11)
    assert (payout.seats, payout.remainder) == (4, 100_00)
    assert payout.amounts() == (250_00, 250_00, 250_00, 250_00, 100_00)


def test_the_remainder_goes_to_the_next_place_in_cash() -> None:
    payout = satellite_payout(prize_pool=1_100_00, seat_value=250_00, entries=11)
    assert payout.remainder_place == 5


def test_places_paid_are_the_seats_and_the_cash_place_after_them() -> None:
    payout = satellite_payout(prize_pool=1_100_00, seat_value=250_00, entries=11)
    assert payout.places_paid == 5 and payout.seats == 4
    assert satellite_payout(prize_pool=1_000_00, seat_value=250_00, entries=10).places_paid == 4


def test_a_pool_below_one_seat_pays_its_cash_to_first_place() -> None:
    payout = satellite_payout(prize_pool=200_00, seat_value=250_00, entries=2)
    assert payout.seats == 0 and payout.amounts() == (200_00,)


def test_never_more_seats_than_entries() -> None:
    payout = satellite_payout(prize_pool=1_000_00, seat_value=100_00, entries=4)
    assert payout.seats == 4 and payout.amounts()[0] == 700_00


def test_a_deal_gives_everyone_left_a_seat_only_when_no_more_are_left_than_seats() -> None:
    assert can_seat_deal(4, 4) and can_seat_deal(2, 4)
    assert not can_seat_deal(5, 4)
    with pytest.raises(SatelliteError, match="5 players are left for 4 seats"):
        verify_seat_deal(5, 4)


def test_a_seat_is_worth_more_than_nothing() -> None:
    with pytest.raises(SatelliteError):
        satellite_payout(prize_pool=100, seat_value=0, entries=3)


def test_seat_winners_are_the_seat_places_and_the_deal() -> None:
    assert seats_won([("Ann", None), ("Bo", None), ("Cy", 3), ("Di", 4)], 3,
                     {"Ann", "Bo"}) == ["Ann", "Bo", "Cy"]


@given(st.integers(0, 10**9), st.integers(1, 10**7), st.integers(0, 5_000))
def test_the_seats_and_the_remainder_add_up_to_the_prize_pool(pool: int, seat: int,
                                                              entries: int) -> None:
    payout = satellite_payout(prize_pool=pool, seat_value=seat, entries=entries)
    assert sum(payout.amounts()) == pool
    assert payout.seats <= entries
