"""Minimum bet and minimum raise (RULES.md §2.2; TDA 2024 rule 43)."""

from __future__ import annotations

import pytest

from director.poker.errors import RuleViolation
from director.poker.events import Action, ActionKind
from director.poker.games import Game
from director.poker.state import Hand, HandConfig, interpret_silent_amount
from tests.engine.scripting import play


def nl(players: int, sb: int, bb: int, stacks: dict[int, int] | None = None, game: Game = Game.NO) -> Hand:
    chips = [1_000_000] * players
    for i, s in (stacks or {}).items():
        chips[i] = s
    blinds = (sb, bb) + (0,) * (players - 2)
    return Hand.start(HandConfig(game=game, starting_stacks=tuple(chips),
                                 blinds_or_straddles=blinds, min_bet=bb))


def test_MR_1_min_reraise_is_the_largest_increment_not_double() -> None:
    """[MR-1] NL 100/200, flop. A bets 600, B raises to 1600 (+1000), C re-raises to 3600 (+2000).
    D's minimum re-raise is to 5600 (+2000), not to 7200."""
    hand = play(nl(4, 100, 200), "c c c x F r600 r1600 r3600")
    assert hand.to_act == 3
    assert hand.legal().min_to == 5600
    with pytest.raises(RuleViolation, match="Raise to 5599 is below the minimum raise to 5600"):
        hand.apply(Action(3, ActionKind.RAISE, 5599))
    assert play(hand, "r5600").current_bet == 5600


def test_MR_2_short_all_in_does_not_raise_the_minimum() -> None:
    """[MR-2] NL 50/100 pre-flop, UTG all-in for 150 (+50, not a full raise). Next player's minimum
    raise is to 250 (the 100 BB is still the largest full bet)."""
    hand = play(nl(4, 50, 100, {2: 150}), "ai")
    assert hand.to_act == 3
    assert hand.legal().call == 150
    assert hand.legal().min_to == 250


def test_MR_3_turn_min_raise_after_a_raise() -> None:
    """[MR-3] NL 100/200, turn. A bets 300, B makes it 1000 (+700). C's minimum raise is to 1700."""
    hand = play(nl(4, 100, 200), "c c c x F x x x x T r300 r1000")
    assert hand.to_act == 2
    assert hand.legal().min_to == 1700


def test_MR_4_min_raise_follows_the_largest_raise() -> None:
    """[MR-4] NL 25/50 pre-flop: A to 125 (+75), B to 200 (+75), C to 500 (+300): D's min raise is
    to 800. Variant: only A raised to 500 (+450), B and C called: D's min raise is to 950."""
    hand = play(nl(6, 25, 50), "r125 r200 r500")
    assert hand.legal().min_to == 800
    hand = play(nl(6, 25, 50), "r500 c c")
    assert hand.legal().min_to == 950


def test_MR_5_silent_push_fifty_percent_rule() -> None:
    """[MR-5] NL, opening bet 1000. Silently pushing 1400 (increment 400 < 50 % of 1000) = call 1000
    (400 returned). Pushing 1500 (increment 500 = 50 %) = forced min-raise to 2000."""
    hand = play(nl(4, 100, 200), "c c c x F r1000")
    assert interpret_silent_amount(hand, 1400) == Action(1, ActionKind.CALL)
    assert interpret_silent_amount(hand, 1500) == Action(1, ActionKind.RAISE, 2000)
    assert interpret_silent_amount(hand, 2600) == Action(1, ActionKind.RAISE, 2600)
    after = hand.apply(interpret_silent_amount(hand, 1400))
    assert after.bets[1] == 1000


def test_MR_5_silent_push_of_every_chip_is_all_in() -> None:
    """[MR-5] ... unless the player is all-in: his last chips are all-in whatever they come to."""
    hand = play(nl(4, 100, 200, {1: 1600}), "c c c x F r1000")
    assert interpret_silent_amount(hand, 1400) == Action(1, ActionKind.ALL_IN)


def test_MR_6_pot_limit_min_open_and_min_reraise() -> None:
    """[MR-6] PLO 1/2 pre-flop: minimum open raise is to 4; after UTG pots to 7 (+5) the next minimum
    re-raise is to 12 (+5)."""
    hand = nl(6, 1, 2, game=Game.PO)
    assert hand.legal().min_to == 4
    hand = play(hand, "r7")
    assert hand.legal().min_to == 12


def test_MR_post_flop_min_bet_is_the_big_blind() -> None:
    """RULES.md §2.2: minimum opening bet on any street = the big blind (pot-limit too)."""
    for game in (Game.NO, Game.PO):
        hand = play(nl(4, 100, 200, game=game), "c c c x F")
        assert hand.legal().min_to == 200
        with pytest.raises(RuleViolation, match="below the minimum raise to 200"):
            hand.apply(Action(0, ActionKind.BET, 150))


def test_MR_6_may_why_not_and_do_share_one_rule() -> None:
    """STYLE.md: can_raise() answers, why_not() explains, apply() does: with the same rule (TDA 43-A)."""
    hand = nl(6, 1, 2, game=Game.PO)
    assert hand.can_raise() and hand.can_raise(4) and hand.can_raise(7)
    assert not hand.can_raise(3) and not hand.can_raise(8)
    reason = hand.why_not(Action(2, ActionKind.RAISE, 3))
    assert reason is not None and str(reason) == "Raise to 3 is below the minimum raise to 4"
    assert reason.rule == "TDA 43-A" and reason.params == {"amount": 3, "minimum": 4}
    assert hand.can_fold() and hand.can_check_or_call() and hand.can_call() and not hand.can_check()
    assert hand.why_not(Action(2, ActionKind.RAISE, 7)) is None
    assert hand.apply(Action(2, ActionKind.RAISE, 7)).bets[2] == 7


def test_MR_5_silent_push_of_every_chip_in_pot_limit_is_a_pot_raise() -> None:
    """TDA 52-B: in pot-limit, pushing more than the pot allows is a pot-size raise, the rest returned."""
    hand = nl(6, 100, 200, {2: 5000}, game=Game.PO)
    assert interpret_silent_amount(hand, 5000) == Action(2, ActionKind.RAISE, 700)
    assert interpret_silent_amount(hand, 200) == Action(2, ActionKind.CALL)
