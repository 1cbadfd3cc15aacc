"""Pot-limit maximum (RULES.md §2.3; TDA 2024 rule 54; RRP No-Limit and Pot-Limit)."""

from __future__ import annotations

import pytest

from director.poker.errors import RuleViolation
from director.poker.events import Action, ActionKind
from director.poker.games import Game
from director.poker.policy import Policy
from director.poker.state import Hand, HandConfig
from tests.engine.scripting import play


def plo(blinds: tuple[int, ...], stacks: tuple[int, ...] | None = None, **kw: object) -> Hand:
    players = len(blinds)
    bb = max(blinds)
    config = HandConfig(game=Game.PO, starting_stacks=stacks or (1_000_000,) * players,
                        blinds_or_straddles=blinds, min_bet=kw.pop("min_bet", bb), **kw)  # type: ignore[arg-type]
    return Hand.start(config)


def test_PL_1_first_to_act_preflop() -> None:
    """[PL-1] PLO 1/2, first to act pre-flop: P = 3, C = 2 -> max to 7. Min to 4."""
    legal = plo((1, 2, 0, 0, 0, 0)).legal()
    assert (legal.min_to, legal.max_to, legal.pot_to, legal.call) == (4, 7, 7, 2)


def test_PL_2_repot_after_a_pot_raise() -> None:
    """[PL-2] ...UTG makes it 7; next player's pot re-raise: P = 1+2+7 = 10, C = 7 -> to 24."""
    hand = play(plo((1, 2, 0, 0, 0, 0)), "r7")
    assert hand.legal().max_to == 24
    with pytest.raises(RuleViolation, match="Pot-limit: the most player 4 may raise to is 24"):
        hand.apply(Action(3, ActionKind.RAISE, 25))


def test_PL_3_small_blind_after_folds() -> None:
    """[PL-3] PLO 1/2, folded to SB (own = 1): P = 3, C = 1 -> to 6 (SB adds 5)."""
    hand = play(plo((1, 2, 0, 0, 0, 0)), "f f f f")
    assert hand.to_act == 0
    assert hand.legal().max_to == 6


def test_PL_4_big_blind_after_limpers() -> None:
    """[PL-4] PLO 1/2, 4 limpers + SB completes (6 x 2 = 12 in the pot): BB (own = 2, C = 0) -> to 14."""
    hand = play(plo((1, 2, 0, 0, 0, 0)), "c c c c c")
    assert hand.to_act == 1
    assert hand.legal().max_to == 14


def test_PL_5_small_blind_not_half_the_big_blind() -> None:
    """[PL-5] PLO 2/5 (SB not half the BB): P = 7, C = 5 -> to 17; min to 10."""
    legal = plo((2, 5, 0, 0)).legal()
    assert (legal.min_to, legal.max_to) == (10, 17)


def test_PL_6_live_straddle() -> None:
    """[PL-6] PLO 1/2 with a live straddle of 4: first actor (UTG+1): P = 7, C = 4 -> to 15
    (pokerkit's minimum here is 6; common practice treats the straddle as the new bring-in, min to 8)."""
    hand = plo((1, 2, 4, 0, 0, 0), min_bet=2)
    assert hand.to_act == 3
    legal = hand.legal()
    assert (legal.call, legal.min_to, legal.max_to) == (4, 8, 15)
    pk = plo((1, 2, 4, 0, 0, 0), min_bet=2, policy=Policy(straddle_min_raise="straddle-plus-bb"))
    assert pk.legal().min_to == 6


def test_PL_7a_dead_small_blind_pot_is_700() -> None:
    """[PL-7] (a) PLO 100/200, dead SB (no SB posted), BB 200 -> first player's pot = 700 (not 600)."""
    hand = plo((0, 200, 0, 0, 0, 0), small_blind=100)
    assert hand.legal().max_to == 700
    literal = plo((0, 200, 0, 0, 0, 0), small_blind=100,
                  policy=Policy(pl_preflop_assume_full_blinds=False))
    assert literal.legal().max_to == 600


def test_PL_7b_short_all_in_big_blind_pot_is_700() -> None:
    """[PL-7] (b) SB posts 100, BB all-in short for 100 -> pot = 700."""
    hand = plo((100, 200, 0, 0, 0, 0), stacks=(5000, 100, 5000, 5000, 5000, 5000))
    assert hand.bets[:2] == (100, 100)
    assert hand.legal().max_to == 700


def test_PL_7c_repot_after_dead_small_blind_is_2400() -> None:
    """[PL-7] (c) re-pot after (a): UTG made it 700; next player: assumed P = 100+200+700 = 1000,
    C = 700 -> to 2400 (a literal count of 900 would give 2300). Post-flop, the actual pot is
    used (TDA 54-C)."""
    hand = play(plo((0, 200, 0, 0, 0, 0), small_blind=100), "r700")
    assert hand.legal().max_to == 2400
    # Everyone else folds, the big blind calls: the flop pot is the real 1400, no assumed blind.
    hand = play(hand, "f f f f c F")
    assert hand.pot_total == 1400
    assert hand.legal().max_to == 1400


def test_PL_8_antes_count_in_the_pot() -> None:
    """[PL-8] Antes: PLO 1/2, six players each ante 1 (P = 6 + 3 = 9): first actor to 13."""
    hand = plo((1, 2, 0, 0, 0, 0), antes=(1,) * 6)
    assert hand.legal().max_to == 13


def test_PL_9_big_blind_ante_counts_in_the_pot() -> None:
    """[PL-9] BBA: PLO 100/200, BBA 200: P = 100+200+200 = 500, C = 200 -> to 900. With a short
    BB-first ante of 50 (player had 250): P = 350 -> to 750."""
    hand = plo((100, 200, 0, 0, 0, 0), antes=(0, 200, 0, 0, 0, 0), ante_trimming=False)
    assert hand.legal().max_to == 900
    short = plo((100, 200, 0, 0, 0, 0), antes=(0, 200, 0, 0, 0, 0), ante_trimming=False,
                stacks=(5000, 250, 5000, 5000, 5000, 5000))
    assert short.dead_money == 50
    assert short.legal().max_to == 750
    pokerkit_count = plo((100, 200, 0, 0, 0, 0), antes=(0, 200, 0, 0, 0, 0), ante_trimming=False,
                         policy=Policy(pl_count_antes_in_pot=False))
    assert pokerkit_count.legal().max_to == 700


def four_limped(blind: int = 25) -> Hand:
    # Pot 100 on the flop: four players each put in 25.
    return play(plo((10, blind, 0, 0), min_bet=blind), "c c c x F")


def test_PL_10_post_flop_raise_after_a_bet() -> None:
    """[PL-10] Post-flop, pot 100, A bets 50: B's max = 50 + (150 + 50) -> to 250 (RRP's own example)."""
    hand = four_limped()
    assert hand.pot_total == 100
    assert hand.legal().max_to == 100
    hand = play(hand, "r50")
    assert hand.legal().max_to == 250


def test_PL_11_post_flop_raise_after_bet_and_call() -> None:
    """[PL-11] Post-flop, pot 100, A bets 100, B calls 100, C: P = 300, C = 100 -> to 500."""
    hand = play(four_limped(), "r100 c")
    assert hand.legal().max_to == 500


def test_PL_12_full_hand() -> None:
    """[PL-12] Full hand, PLO 1/2, 4-handed (SB S1, BB S2, UTG S3, BTN S4). Pre-flop: UTG pots to 7,
    BTN's max would be 24 but he calls 7, SB folds, BB calls -> flop pot 22. Flop: BB checks; UTG bets
    pot 22; BTN pot-raises to 88; BB folds; UTG's max re-raise to 286, minimum re-raise to 154."""
    hand = play(plo((1, 2, 0, 0)), "r7")
    assert hand.legal().max_to == 24
    hand = play(hand, "c f c F")
    assert hand.pot_total == 22
    hand = play(hand, "x")
    assert hand.legal().max_to == 22
    hand = play(hand, "r22")
    assert hand.legal().max_to == 88
    hand = play(hand, "r88 f")
    assert hand.to_act == 2
    legal = hand.legal()
    assert (legal.min_to, legal.max_to) == (154, 286)


def test_PL_13_short_all_in_raise() -> None:
    """[PL-13] PLO 100/200, pot 800 on the flop. A bets 600, B all-in to 900 (+300, short). C: min
    to 1500 (+600, the last full bet), max to 4100 (P = 2300, C = 900 -> 900 + 3200). If C and D
    just call, A may only call 300 or fold (not re-opened)."""
    hand = plo((100, 200, 0, 0), stacks=(100_000, 1100, 100_000, 100_000))
    hand = play(hand, "c c c x F")
    assert hand.pot_total == 800
    hand = play(hand, "r600 ai")
    legal = hand.legal()
    assert (legal.call, legal.min_to, legal.max_to) == (900, 1500, 4100)
    hand = play(hand, "c c")
    assert hand.to_act == 0
    legal = hand.legal()
    assert legal.call == 300 and legal.min_to is None and not hand.can_raise()
    with pytest.raises(RuleViolation, match="may only call or fold"):
        hand.apply(Action(0, ActionKind.RAISE, 2000))
