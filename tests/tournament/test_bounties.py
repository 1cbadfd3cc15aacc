"""Issue 17: the bounty rules (director/tournament/bounties.py), with no Flask."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from director.poker.pots import Pot, award_pots
from director.tournament import bounties
from director.tournament.bounties import (
    BountyError,
    BountyKind,
    PotWon,
    eliminators,
    knock_out,
    pko_halves,
    split_bounty,
    verify_take_back,
)


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(bounties).failed == 0


def test_fixed_bounty_is_paid_whole_and_the_eliminators_head_stays_the_same() -> None:
    ko = knock_out(BountyKind.FIXED, bounty=5_000, eliminators=[4], busted=9)
    assert ko.paid == {4: 5_000} and ko.head == {} and ko.by == (4,)


def test_PKO_half_to_the_eliminator_half_on_his_head() -> None:
    ko = knock_out(BountyKind.PKO, bounty=10_000, eliminators=[4], busted=9)
    assert ko.paid == {4: 5_000} and ko.head == {4: 5_000}


def test_PKO_odd_unit_is_paid_in_cash() -> None:
    assert pko_halves(7_500, unit=100) == (3_800, 3_700)
    assert pko_halves(7_501) == (3_751, 3_750)


def test_split_pot_splits_the_bounty_odd_unit_left_of_the_button() -> None:
    # Seats in hand order: index 0 is the first player left of the button.  Players 1 and
    # 3 split the pot that busts player 2: the odd unit goes to player 1 (TDA 20-A).
    assert split_bounty(5_001, [1, 3]) == {1: 2_501, 3: 2_500}
    ko = knock_out(BountyKind.FIXED, bounty=5_001, eliminators=[1, 3], busted=2)
    assert ko.paid == {1: 2_501, 3: 2_500}


def test_split_pot_order_comes_from_the_pots_odd_chip() -> None:
    # The engine's awards of a split Omaha pot: the odd chip goes to the first winner left
    # of the button, and the bounty's odd unit follows it.
    pots = [Pot(1_025, (0, 1, 2), "Main pot")]
    from director.poker.hands import HighHand  # noqa: PLC0415

    high = {0: HighHand(10, (), "pair", "a pair"), 1: HighHand(50, (), "flush", "a flush"),
            2: HighHand(50, (), "flush", "a flush")}
    awards = award_pots(pots, high, None, stud=False, unit=25)
    table = [PotWon(a.pot_index, pots[a.pot_index].eligible, ((a.player, a.amount, a.odd_chips),))
             for a in awards]
    merged = [PotWon(0, (0, 1, 2), tuple(w for p in table for w in p.won))]
    assert [(a.player, a.amount, a.odd_chips) for a in awards] == [(1, 525, 25), (2, 500, 0)]
    found = eliminators(0, merged)
    assert found == ((1, 500), (2, 500))             # even shares, player 1 first
    ko = knock_out(BountyKind.FIXED, bounty=5_100, eliminators=[p for p, _c in found],
                   weights=[c for _p, c in found], unit=100, busted=0)
    assert ko.paid == {1: 2_600, 2: 2_500}


def test_the_eliminator_is_the_winner_of_the_last_pot_the_busted_player_was_eligible_for() -> None:
    pots = [PotWon(0, (0, 1, 2), ((1, 900, 0),)),      # main pot: Bo (1)
            PotWon(1, (1, 2), ((2, 600, 0),))]          # side pot: Cy (2), Ann (0) not in it
    assert eliminators(0, pots) == ((1, 900),)
    assert eliminators(5, pots) == ()


def test_hi_lo_high_and_low_winners_share_the_bounty_by_their_part_of_the_pot() -> None:
    pots = [PotWon(0, (0, 1, 2, 3), ((1, 525, 25), (2, 250, 0), (3, 250, 0)))]
    found = eliminators(0, pots)
    assert found == ((1, 500), (2, 250), (3, 250))
    assert split_bounty(1_000, [1, 2, 3], [500, 250, 250]) == {1: 500, 2: 250, 3: 250}


def test_no_bounty_still_records_who_knocked_him_out() -> None:
    ko = knock_out("none", bounty=0, eliminators=[3], busted=1)
    assert ko.by == (3,) and ko.paid == {} and ko.to_json()["by"] == [3]


def test_a_player_cannot_knock_himself_out() -> None:
    with pytest.raises(BountyError, match="himself"):
        knock_out("fixed", bounty=100, eliminators=[1], busted=1)


def test_a_pko_knockout_cannot_be_taken_back_once_the_raised_head_was_won() -> None:
    record = knock_out("pko", bounty=5_000, eliminators=[3], busted=1).to_json()
    verify_take_back(record, {3: False}, {3: "Bo"})
    with pytest.raises(BountyError, match="undo Bo's elimination first"):
        verify_take_back(record, {3: True}, {3: "Bo"})


@given(st.integers(0, 10**9), st.lists(st.integers(1, 10**6), min_size=1, max_size=9),
       st.sampled_from([1, 5, 100, 500]), st.sampled_from(["fixed", "pko"]))
def test_a_knockout_moves_exactly_the_bounty(bounty: int, weights: list[int], unit: int,
                                             kind: str) -> None:
    players = list(range(10, 10 + len(weights)))
    ko = knock_out(kind, bounty=bounty, eliminators=players, weights=weights, unit=unit)
    assert sum(ko.paid.values()) + sum(ko.head.values()) == bounty
    assert all(v >= 0 for v in [*ko.paid.values(), *ko.head.values()])
