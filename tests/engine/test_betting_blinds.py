"""Blinds, antes and the order of action (RULES.md §1.2-§1.4; TDA 2024 rules 32-34, RP-11)."""

from __future__ import annotations

import pytest

from director.poker.errors import RuleViolation
from director.poker.events import Action, ActionKind
from director.poker.games import Game
from director.poker.policy import Policy
from director.poker.state import Hand, HandConfig, Street
from tests.engine.scripting import play, step


def order_of(hand: Hand, script: str) -> tuple[list[str], Hand]:
    """Play ``script`` and note who was to act at each step."""
    names = []
    for token in script.split():
        if token not in ("F", "T", "R"):
            assert hand.to_act is not None
            names.append(hand.name(hand.to_act))
        hand = step(hand, token)
    return names, hand


def six_max() -> Hand:
    # Button S1, SB S2, BB S3: PHH order starts left of the button.
    return Hand.start(HandConfig(game=Game.PO, starting_stacks=(1000,) * 6,
                                 blinds_or_straddles=(1, 2, 0, 0, 0, 0), min_bet=2,
                                 seats=(2, 3, 4, 5, 6, 1)))


def test_BL_1_six_players_preflop_and_flop_order() -> None:
    """[BL-1] 6 players, button S1, SB S2 (1), BB S3 (2). Pre-flop order: S4, S5, S6, S1, S2, S3.
    Flop order (all still in): S2, S3, S4, S5, S6, S1."""
    names, hand = order_of(six_max(), "c c c c c x")
    assert names == ["Seat 4", "Seat 5", "Seat 6", "Seat 1", "Seat 2", "Seat 3"]
    assert hand.to_act is None and hand.awaiting == "board"
    names, hand = order_of(hand, "F x x x x x x")
    assert names == ["Seat 2", "Seat 3", "Seat 4", "Seat 5", "Seat 6", "Seat 1"]
    assert hand.street is Street.TURN


def test_BL_2_heads_up_button_is_small_blind_and_acts_first_preflop_only() -> None:
    """[BL-2] Heads-up, S3 button/SB posts 1, S5 posts 2. Pre-flop S3 acts first;
    flop/turn/river S5 acts first.  (PHH heads-up: p1 = the big blind, p2 = the button.)"""
    hand = Hand.start(HandConfig(game=Game.PO, starting_stacks=(100, 100),
                                 blinds_or_straddles=(1, 2), min_bet=2, seats=(5, 3)))
    assert hand.bets == (2, 1)
    names, hand = order_of(hand, "c x F x x T x x R x x")
    assert names == ["Seat 3", "Seat 5", "Seat 5", "Seat 3", "Seat 5", "Seat 3", "Seat 5", "Seat 3"]


def test_BL_3_big_blind_option_after_limps() -> None:
    """[BL-3] Pre-flop all limp to the BB (no raise): BB may check (round ends) or raise."""
    hand = play(six_max(), "c c c c c")
    assert hand.name(hand.to_act or 0) == "Seat 3"
    legal = hand.legal()
    assert legal.check and legal.call is None and legal.min_to == 4
    assert play(hand, "x").awaiting == "board"
    raised = play(hand, "r8")
    assert raised.name(raised.to_act or 0) == "Seat 4"


def test_BL_3_big_blind_all_in_for_his_blind_has_no_option() -> None:
    """[BL-3] If BB is all-in for his blind he has no option."""
    hand = Hand.start(HandConfig(game=Game.PO, starting_stacks=(100, 2, 100, 100),
                                 blinds_or_straddles=(1, 2, 0, 0), min_bet=2))
    hand = play(hand, "c c c")
    assert hand.to_act is None and hand.street is Street.FLOP


def bba(bb_stack: int, order: str) -> Hand:
    return Hand.start(HandConfig(
        game=Game.PO, starting_stacks=(50_000, bb_stack, 50_000, 50_000),
        antes=(0, 2000, 0, 0), blinds_or_straddles=(1000, 2000, 0, 0), min_bet=2000,
        ante_trimming=False, policy=Policy(bba_order=order)))


def test_BL_4_big_blind_ante_big_blind_first() -> None:
    """[BL-4] Level 1000/2000, BBA 2000, BB player has 2500.  BB-first (TDA RP-11): posts BB 2000
    (full) + ante 500. Live BB = 2000; pot before action = 1000 + 2000 + 500 = 3500."""
    hand = bba(2500, "big-blind-first")
    assert hand.bets[1] == 2000
    assert hand.dead_money == 500
    assert hand.pot_total == 3500
    assert hand.all_in[1]


def test_BL_4_big_blind_ante_ante_first() -> None:
    """[BL-4] Ante-first (house variant): ante 2000 + BB 500 (short, all-in). Pot = 3500, but the
    BB is all-in for a live 500 only."""
    hand = bba(2500, "ante-first")
    assert hand.bets[1] == 500
    assert hand.dead_money == 2000
    assert hand.pot_total == 3500
    assert hand.all_in[1]
    # The amount to call is still the full big blind (RRP Blinds 1).
    assert hand.legal().call == 2000


def test_BL_5_short_big_blind_pays_blind_before_ante() -> None:
    """[BL-5] Same level, BB player has 1500: BB-first -> posts 1500 as a short BB, ante 0."""
    hand = bba(1500, "big-blind-first")
    assert hand.bets[1] == 1500
    assert hand.dead_money == 0
    assert hand.pot_total == 2500


def test_BL_6_short_all_in_big_blind_keeps_the_call_and_min_raise() -> None:
    """[BL-6] NL/PL 100/200, BB has only 120 and posts it all-in. The amount to call for everyone
    else is still 200; the minimum raise is still to 400 (RRP Blinds 1)."""
    for game in (Game.NO, Game.PO):
        hand = Hand.start(HandConfig(game=game, starting_stacks=(5000, 120, 5000, 5000),
                                     blinds_or_straddles=(100, 200, 0, 0), min_bet=200))
        assert hand.bets == (100, 120, 0, 0)
        legal = hand.legal()
        assert hand.to_act == 2
        assert legal.call == 200
        assert legal.min_to == 400
        with pytest.raises(RuleViolation, match="below the minimum raise to 400"):
            hand.apply(Action(2, ActionKind.RAISE, 300))


def test_BL_1_not_your_turn_names_both_players() -> None:
    """Acting out of turn (TDA 53) is refused with both players named."""
    with pytest.raises(RuleViolation, match="It is not Seat 6's turn; Seat 4 is to act"):
        six_max().apply(Action(4, ActionKind.CALL))


def test_BL_3_cannot_check_facing_the_big_blind() -> None:
    """RULES.md §2.1: facing a bet, a check is not an option."""
    with pytest.raises(RuleViolation, match="Seat 4 cannot check: there is a bet of 2 to call"):
        six_max().apply(Action(2, ActionKind.CHECK))


def test_BL_antes_only_flop_game_opens_with_no_bet() -> None:
    """RULES.md §2.1: with no blind posted nobody has bet; the first player may check or bet the
    minimum (the level's big blind)."""
    hand = Hand.start(HandConfig(game=Game.NO, starting_stacks=(1000,) * 3, antes=(25,) * 3,
                                 min_bet=100))
    legal = hand.legal()
    assert hand.to_act == 0 and legal.check and legal.min_to == 100
    assert play(hand, "x x x").street is Street.FLOP


def test_SP_6_big_blind_ante_is_dead_money_not_a_live_bet() -> None:
    """[SP-6] BBA, level 1000/2000, BBA 2000. The BB has exactly 3000 and posts BB-first: 2000 live
    blind + 1000 ante -> all-in. UTG shoves 20,000; everyone else folds. UTG's excess 18,000 is
    returned; pot = 1000 + 2000 + 2000 + 1000 = 6,000, contested by BB and UTG."""
    hand = Hand.start(HandConfig(
        game=Game.NO, starting_stacks=(50_000, 3000, 20_000, 50_000),
        antes=(0, 2000, 0, 0), blinds_or_straddles=(1000, 2000, 0, 0), min_bet=2000,
        ante_trimming=False))
    hand = play(hand, "ai f f")
    assert hand.to_act is None and hand.awaiting == "board"
    assert hand.returned() == [0, 0, 18_000, 0]
    assert [(p.amount, p.eligible) for p in hand.pots()] == [(6000, (1, 2))]
