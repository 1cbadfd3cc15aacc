"""The fast hand readers agree with a literal reading of the rules.

RULES.md §6.3: an Omaha hand is exactly two hole cards plus exactly three
board cards, 60 candidates; stud: best five of seven, and among equally
strong fives the one with the highest cards by suit (TDA 20-B).  These
properties check the optimised readers (pruned Omaha search, names cached by
strength, several hands read in one pass) against that brute force.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from director.poker.cards import DECK, Card, parse_cards
from director.poker.errors import CardError
from director.poker.hands import (
    omaha_high,
    omaha_high_strength,
    omaha_high_strengths,
    stud_high,
    stud_high_strength,
)


def five_strength(cards: tuple[Card, ...]) -> int:
    return stud_high_strength(cards)  # exactly five cards: the plain evaluation


deals = st.permutations(DECK).map(lambda deck: tuple(deck[:29]))


@settings(max_examples=150, deadline=None)
@given(deals, st.integers(3, 5))
def test_OM_omaha_high_is_the_best_of_the_60_two_plus_three_hands(deck: tuple[Card, ...],
                                                                  board_size: int) -> None:
    board = deck[:board_size]
    holes = [deck[5 + 4 * k: 9 + 4 * k] for k in range(6)]
    strengths = omaha_high_strengths(holes, board)
    for hole, fast in zip(holes, strengths, strict=True):
        candidates = [pair + three for pair in combinations(hole, 2)
                      for three in combinations(board, 3)]
        best = max(five_strength(c) for c in candidates)
        assert fast == best == omaha_high_strength(hole, board)
        hand = omaha_high(hole, board)
        assert hand.strength == best
        assert five_strength(hand.cards) == best
        used_hole = [c for c in hand.cards if c in hole]
        assert len(used_hole) == 2 and len([c for c in hand.cards if c in board]) == 3


@settings(max_examples=150, deadline=None)
@given(deals)
def test_stud_high_shows_the_strongest_five_with_the_highest_cards_by_suit(
        deck: tuple[Card, ...]) -> None:
    seven = deck[:7]
    hand = stud_high(seven)
    fives = [f for f in combinations(seven, 5) if five_strength(f) == hand.strength]
    assert fives
    highest = max(tuple(sorted(f, reverse=True)) for f in fives)
    assert sorted(hand.cards, reverse=True) == list(highest)


def test_OM_1_names_do_not_depend_on_which_hand_was_named_first() -> None:
    # The name is cached by strength; a second hand of the same strength in
    # other suits still shows its own cards.
    board = parse_cards("K♣ K♥ 7♠ 3♦ 9♠")
    a = omaha_high(parse_cards("K♦ 7♥ 7♣ 2♠"), board)
    b = omaha_high(parse_cards("K♠ 7♦ 2♣ 2♥"), board)
    assert a.name == b.name == "kings full of sevens"
    assert a.strength == b.strength
    assert set(parse_cards("K♦ 7♥")) <= set(a.cards)
    assert set(parse_cards("K♠ 7♦")) <= set(b.cards)


def test_strengths_of_several_hands_refuse_a_card_seen_twice() -> None:
    board = parse_cards("K♣ K♥ 7♠ 3♦ 9♠")
    with pytest.raises(CardError, match="appears twice"):
        omaha_high_strengths([parse_cards("A♠ A♦ 2♣ 2♦"), parse_cards("A♠ Q♦ 4♣ 4♦")], board)
    with pytest.raises(CardError, match="4 hole cards"):
        omaha_high_strengths([parse_cards("A♠ A♦ 2♣")], board)
