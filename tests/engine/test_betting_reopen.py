"""Short all-ins and re-opening the betting in no-limit and pot-limit (RULES.md §2.6;
TDA 2024 rule 47-A; RRP No-Limit 3 and 5)."""

from __future__ import annotations

import pytest

from director.poker.errors import RuleViolation
from director.poker.events import Action, ActionKind
from director.poker.games import Game
from director.poker.state import Hand, HandConfig
from tests.engine.scripting import play


def nl(players: int, sb: int, bb: int, stacks: dict[int, int], game: Game = Game.NO) -> Hand:
    chips = [1_000_000] * players
    for i, s in stacks.items():
        chips[i] = s
    return Hand.start(HandConfig(game=game, starting_stacks=tuple(chips),
                                 blinds_or_straddles=(sb, bb) + (0,) * (players - 2), min_bet=bb))


def ro_flop() -> Hand:
    """NL 50/100, five players see the flop for 100 each; B has 125 left, D 200."""
    hand = nl(5, 50, 100, {1: 225, 3: 300})
    hand = play(hand, "c c c c x F")
    # A bets 100; B all-in 125; C calls 125; D all-in 200; E calls 200.
    return play(hand, "r100 ai c ai c")


def test_RO_1_cumulative_short_all_ins_reopen() -> None:
    """[RO-1] NL 50/100, flop. A bets 100; B all-in 125; C calls 125; D all-in 200; E calls 200.
    Back to A: he faces +100 (= a full bet) -> may raise (min to 300)."""
    hand = ro_flop()
    assert hand.to_act == 0
    legal = hand.legal()
    assert legal.call == 100 and legal.min_to == 300


def test_RO_2_player_facing_less_than_a_full_raise_may_only_call() -> None:
    """[RO-2] Continue: A just calls 200. C (had 125 in) now faces +75 -> call or fold only."""
    hand = play(ro_flop(), "c")
    assert hand.to_act == 2
    legal = hand.legal()
    assert legal.call == 75 and legal.min_to is None
    with pytest.raises(RuleViolation, match="may only call or fold"):
        hand.apply(Action(2, ActionKind.RAISE, 400))


def test_RO_3_full_raise_reopens() -> None:
    """[RO-3] Continue instead: A min-raises to 300. C faces +175 >= 100 -> re-opened, C may re-raise."""
    hand = play(ro_flop(), "r300")
    assert hand.to_act == 2
    assert hand.legal().min_to == 400


def test_RO_4_min_raise_stays_the_last_full_bet() -> None:
    """[RO-4] NL 50/100 flop: A bets 300, B all-in 500, C all-in 650, D all-in 800, E calls. F's
    minimum raise is to 1100 (the full bet 300 is still the largest full increment)."""
    hand = nl(6, 50, 100, {1: 600, 2: 750, 3: 900})
    hand = play(hand, "c c c c c x F r300 ai ai ai c")
    assert hand.to_act == 5
    assert hand.legal().min_to == 1100


def ro5() -> Hand:
    # SB, BB, A (UTG), B, C: A limps 4000, B folds, C all-in 7500, SB folds.
    hand = nl(5, 2000, 4000, {4: 7500})
    return play(hand, "c f ai f")


def test_RO_5_big_blind_not_yet_acted_may_raise() -> None:
    """[RO-5] NL 2000/4000 pre-flop: A limps 4000; C all-in 7500 (+3500 < 4000); folds to the BB.
    BB (not yet acted) may fold, call, or raise to >= 11500."""
    hand = ro5()
    assert hand.to_act == 1
    legal = hand.legal()
    assert legal.fold and legal.call == 3500 and legal.min_to == 11500


def test_RO_5_limper_facing_a_short_all_in_and_a_call() -> None:
    """[RO-5] If BB calls, A faces +3500 -> call or fold only."""
    hand = play(ro5(), "c")
    assert hand.to_act == 2
    assert hand.legal().call == 3500 and hand.legal().min_to is None


def test_RO_5_limper_facing_a_full_raise() -> None:
    """[RO-5] If BB min-raises to 11500, A faces +7500 -> re-opened."""
    hand = play(ro5(), "r11500")
    assert hand.to_act == 2
    assert hand.legal().call == 7500
    assert hand.legal().min_to == 15500  # the largest full raise is still 4000


def test_RO_6_pot_limit_short_all_in() -> None:
    """[RO-6] PLO: see [PL-13]: A bets 600, B all-in to 900; C and D just call; A may only call 300
    or fold (not re-opened)."""
    hand = nl(4, 100, 200, {1: 1100}, game=Game.PO)
    hand = play(hand, "c c c x F r600 ai c c")
    assert hand.to_act == 0
    assert hand.legal().call == 300 and not hand.can_raise()
