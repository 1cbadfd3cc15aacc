"""Killed hands in the pots (RULES.md §8.1 step 3; TDA 29, 30).

"Blinds and bets of players whose hands were killed are treated like folded
players' chips": a killed hand is never eligible, and what it put in stays in
the pot.  Unlike a folded or mucked hand that bet the most, a killed hand that
put in more than anybody else gets no uncalled excess back: its chips are
forfeited ([ABS-1], [ABS-2]).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from director.poker.errors import RuleViolation
from director.poker.events import Action, ActionKind, DealHole
from director.poker.games import Game
from director.poker.pots import Pot, build_pots
from director.poker.state import Hand, HandConfig

SB, BB, UTG, BTN = 0, 1, 2, 3


def shape(pots: list[Pot]) -> list[tuple[str, int, tuple[int, ...]]]:
    return [(p.name, p.amount, p.eligible) for p in pots]


def test_ABS_2_killed_big_blind_keeps_no_uncalled_excess() -> None:
    # PLO 100/200, the absent BB's hand is killed; everybody folds to the SB.
    pots, returned = build_pots([100, 200, 0, 0], [True, False, False, False], killed=[BB])
    assert returned == [0, 0, 0, 0]
    assert shape(pots) == [("Main pot", 300, (SB,))]


def test_ABS_2_a_folded_top_bet_is_still_returned_but_a_killed_one_is_not() -> None:
    # The same chips: folded, the 100 above the small blind is an uncalled bet.
    pots, returned = build_pots([100, 200], [True, False])
    assert returned == [0, 100]
    assert shape(pots) == [("Main pot", 200, (SB,))]
    pots, returned = build_pots([100, 200], [True, False], killed=[BB])
    assert returned == [0, 0]
    assert shape(pots) == [("Main pot", 300, (SB,))]


def test_ABS_1_killed_blind_stays_in_the_slices_it_reached() -> None:
    # Dead BB 200; UTG all in for 150, BTN calls 200, SB folds his 100.
    pots, returned = build_pots([100, 200, 150, 200], [False, False, True, True], killed=[BB])
    assert returned == [0, 0, 0, 0]
    assert shape(pots) == [("Main pot", 550, (UTG, BTN)), ("Side pot 1", 100, (BTN,))]


def test_a_killed_hand_is_never_eligible_even_if_called_live() -> None:
    pots, returned = build_pots([200, 200, 200], [True, True, True], killed=[1])
    assert shape(pots) == [("Main pot", 600, (0, 2))]
    assert returned == [0, 0, 0]


def test_a_killed_player_must_be_in_the_hand() -> None:
    with pytest.raises(RuleViolation, match="There is no player 5 to kill"):
        build_pots([100, 200], [True, True], killed=[4])


def test_a_raise_over_a_killed_blind_is_still_returned() -> None:
    # The killed BB's 200 counts as the second-largest contribution: UTG's
    # raise to 600 is called by nobody, so 400 comes back to him.
    pots, returned = build_pots([100, 200, 600], [False, False, True], killed=[1])
    assert returned == [0, 0, 400]
    assert shape(pots) == [("Main pot", 500, (2,))]


def test_ABS_2_state_uses_the_killed_flag_and_pays_the_small_blind() -> None:
    hand = Hand.start(HandConfig(game=Game.PO, starting_stacks=(10_000,) * 4,
                                 blinds_or_straddles=(100, 200, 0, 0), min_bet=200,
                                 dead_players=(BB,)))
    for p in range(4):
        hand = hand.apply(DealHole(p, (None,) * 4))
    hand = hand.apply(Action(UTG, ActionKind.FOLD)).apply(Action(BTN, ActionKind.FOLD))
    assert hand.finished
    assert hand.returned() == [0, 0, 0, 0]
    assert [(a.player, a.amount) for a in hand.awards()] == [(SB, 300)]
    assert hand.stacks == (10_200, 9_800, 10_000, 10_000)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[int], list[bool], int, list[int]]:
    n = draw(st.integers(2, 9))
    contributions = draw(st.lists(st.integers(0, 2_000), min_size=n, max_size=n))
    live = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    killed = sorted(draw(st.sets(st.integers(0, n - 1), max_size=n)))
    dead = draw(st.integers(0, 500))
    return contributions, live, dead, killed


@given(tables())
def test_property_killed_chips_are_conserved_and_never_returned(
        table: tuple[list[int], list[bool], int, list[int]]) -> None:
    contributions, live, dead, killed = table
    pots, returned = build_pots(contributions, live, dead, killed=killed)
    assert sum(p.amount for p in pots) + sum(returned) == sum(contributions) + dead
    assert all(returned[i] == 0 for i in killed)
    contenders = [i for i in range(len(live)) if live[i] and i not in killed]
    for pot in pots:
        assert not set(pot.eligible) & set(killed)
        if contenders:
            assert pot.eligible
    assert (shape(pots), returned) == reference(contributions, live, dead, killed)


def reference(contributions: list[int], live: list[bool], dead: int, killed: list[int]
              ) -> tuple[list[tuple[str, int, tuple[int, ...]]], list[int]]:
    """RULES.md §8.1 written out literally, slice by slice, to check the fast version."""
    n = len(contributions)
    chips = list(contributions)
    returned = [0] * n
    top = max(chips)
    owner = chips.index(top)
    second = max([c for i, c in enumerate(chips) if i != owner], default=0)
    if owner not in killed and top > second:
        returned[owner] = top - second
        chips[owner] = second
    contenders = tuple(i for i in range(n) if live[i] and i not in killed)
    slices = [(dead, contenders)] if dead else []
    previous = 0
    for level in sorted({c for c in chips if c > 0}):
        amount = sum(min(c, level) - min(c, previous) for c in chips)
        slices.append((amount, tuple(i for i in contenders if chips[i] >= level)))
        previous = level
    amounts: list[int] = []
    eligibles: list[tuple[int, ...]] = []
    for amount, eligible in slices:
        if not eligible and not amounts:
            eligible = contenders
        if amounts and (eligible == eligibles[-1] or not eligible):
            amounts[-1] += amount
        else:
            amounts.append(amount)
            eligibles.append(eligible)
    names = ["Main pot", *(f"Side pot {i}" for i in range(1, 20))]
    return [(names[k], a, e) for k, (a, e) in enumerate(zip(amounts, eligibles, strict=True))], returned
