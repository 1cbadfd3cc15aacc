"""Absent players, the clock, misdeals and hands awarded by the dealer
(RULES.md §1.7, §5.1, §5.3; TDA 2024 rules 29, 30, 35)."""

from __future__ import annotations

import pytest

from director.poker.errors import RuleViolation
from director.poker.events import (
    Action,
    ActionKind,
    CheckByClock,
    DealBoard,
    Kill,
    ManualAward,
    Misdeal,
)
from director.poker.games import Game
from director.poker.state import Hand, HandConfig, Phase
from tests.engine.scripting import play


def plo(dead: tuple[int, ...] = (), players: int = 4, game: Game = Game.PO) -> Hand:
    return Hand.start(HandConfig(game=game, starting_stacks=(10_000,) * players,
                                 blinds_or_straddles=(100, 200) + (0,) * (players - 2), min_bet=200,
                                 dead_players=dead))


def test_ABS_1_absent_big_blind_is_dead_but_his_blind_plays() -> None:
    """[ABS-1] PLO 100/200: the BB player gets back only after the initial deal -> hand dead; his BB
    (200) stays in the pot as dead money; min raise/pot calculations still use the full 200 as the
    bet to call."""
    hand = plo(dead=(1,))
    assert hand.to_act == 2
    legal = hand.legal()
    assert (legal.call, legal.min_to, legal.max_to) == (200, 400, 700)
    hand = play(hand, "c")
    assert hand.folded[1] and hand.contributions[1] == 200


def test_ABS_2_folds_to_the_small_blind_who_wins() -> None:
    """[ABS-2] Same, everyone folds to the SB: the only live hand is the SB, who wins the pot."""
    hand = play(plo(dead=(1,)), "f f")
    assert hand.finished
    assert hand.stacks == (10_200, 9_800, 10_000, 10_000)


def test_CLK_1_clock_expires_facing_a_bet_hand_is_dead() -> None:
    """[CLK-1] Player facing a 2000 bet is on the clock; 30 s pass without action -> hand dead (his
    earlier chips in the pot stay there)."""
    hand = play(plo(game=Game.NO), "c c c x F r2000")
    assert hand.to_act == 1
    with pytest.raises(RuleViolation, match="facing a bet: when his time runs out his hand is dead"):
        hand.apply(CheckByClock(1))
    hand = hand.apply(Kill(1, "clock"))
    assert hand.folded[1] and hand.contributions[1] == 200
    assert hand.to_act == 2


def test_CLK_2_clock_expires_with_no_bet_is_a_check() -> None:
    """[CLK-2] First to act post-flop, no bet, clock expires -> treated as a check."""
    hand = play(plo(), "c c c x F")
    assert hand.to_act == 0
    hand = hand.apply(CheckByClock(0))
    assert hand.to_act == 1 and not hand.folded[0]


def test_absent_player_killed_out_of_turn_ends_the_round_when_nobody_is_left_to_act() -> None:
    """TDA 30: a hand found dead while others act is killed; the betting goes on without it."""
    hand = play(plo(players=3), "c c")
    assert hand.to_act == 1
    hand = hand.apply(Kill(0, "absent"))
    assert hand.to_act == 1 and hand.legal().check
    with pytest.raises(RuleViolation, match="no live hand"):
        hand.apply(Kill(0))


def test_misdeal_returns_every_chip() -> None:
    """TDA 35: a misdeal voids the hand; forced bets come back too."""
    hand = play(plo(), "r600 c").apply(Misdeal("card exposed in the deal"))
    assert hand.finished and hand.misdealt
    assert hand.stacks == (10_000,) * 4 and hand.awards() == []
    with pytest.raises(RuleViolation, match="The hand is over"):
        hand.apply(Action(0, ActionKind.FOLD))


def test_manual_award_splits_high_and_low() -> None:
    """RULES.md §7.2: with no cards entered the dealer names the winners; the engine splits the pot."""
    hand = play(plo(game=Game.PO8), "c c c x F x x x x T x x x x R x x x x")
    assert hand.phase is Phase.SHOWDOWN and hand.awaiting == "showdown"
    with pytest.raises(RuleViolation, match="There is no player 6 in this hand"):
        hand.apply(ManualAward(((5,),)))
    hand = hand.apply(ManualAward(((2,),), ((3,),)))
    assert hand.finished
    assert hand.stacks == (9_800, 9_800, 10_200, 10_200)


def test_manual_award_is_refused_before_showdown() -> None:
    hand = play(plo(), "c c c x")
    with pytest.raises(RuleViolation, match="Pots are awarded at showdown"):
        hand.apply(ManualAward(((2,),)))
    assert hand.apply(DealBoard((None, None, None))).awaiting is None
