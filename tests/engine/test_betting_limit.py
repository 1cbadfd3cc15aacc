"""Fixed-limit betting: sizes, the raise cap and short all-ins (RULES.md §2.5, §2.6;
TDA 2024 rules 47-B and 48; RRP Betting and Raising)."""

from __future__ import annotations

import pytest

from director.poker.errors import RuleViolation
from director.poker.events import Action, ActionKind
from director.poker.games import Game
from director.poker.policy import Policy
from director.poker.state import Hand, HandConfig
from tests.engine.scripting import play


def limit(players: int, small: int, big: int, sb: int, stacks: dict[int, int] | None = None,
          game: Game = Game.FO8, policy: Policy | None = None) -> Hand:
    chips = [1_000_000] * players
    for i, s in (stacks or {}).items():
        chips[i] = s
    return Hand.start(HandConfig(game=game, starting_stacks=tuple(chips),
                                 blinds_or_straddles=(sb, small) + (0,) * (players - 2),
                                 small_bet=small, big_bet=big, policy=policy or Policy()))


def test_LIM_1_bet_plus_three_raises_each_street() -> None:
    """[LIM-1] Limit O8 $2/$4 (blinds $1/$2), bet+3 raises: pre-flop totals 2 (BB) -> 4 -> 6 -> 8 cap;
    flop 2 -> 4 -> 6 -> 8; turn/river 4 -> 8 -> 12 -> 16."""
    hand = limit(5, 2, 4, 1)
    legal = hand.legal()
    assert (legal.min_to, legal.max_to) == (4, 4)
    with pytest.raises(RuleViolation, match="Fixed limit: the bet is 2, so it must be made 4"):
        hand.apply(Action(2, ActionKind.RAISE, 5))
    hand = play(hand, "r4 r6 r8")
    assert hand.legal().call == 7 and not hand.can_raise()
    with pytest.raises(RuleViolation, match="capped"):
        hand.apply(Action(0, ActionKind.RAISE, 10))
    hand = play(hand, "c c c c F")
    assert hand.legal().min_to == 2
    hand = play(hand, "r2 r4 r6 r8")
    assert not hand.can_raise()
    hand = play(hand, "c c c c T")
    assert hand.legal().min_to == 4
    hand = play(hand, "r4 r8 r12 r16")
    assert hand.legal().call == 16 and hand.legal().min_to is None


def test_LIM_1_bet_plus_four_raises() -> None:
    """[LIM-1] With bet+4 raises: pre-flop cap 10, turn cap 20."""
    hand = play(limit(6, 2, 4, 1, policy=Policy(limit_raise_cap=4)), "r4 r6 r8 r10")
    assert not hand.can_raise()
    hand = play(hand, "c c c c c F x x x x x x T r4 r8 r12 r16 r20")
    assert not hand.can_raise()


def three_way_turn(policy: Policy) -> Hand:
    hand = limit(3, 2, 4, 1, policy=policy)
    return play(hand, "c c x F x x x T r4 r8 r12 f")


def test_LIM_2_cap_still_applies_heads_up_in_tournaments() -> None:
    """[LIM-2] Turn, three players: after bet 4 and raises to 8 and 12, one player folds leaving two.
    TDA/WSOP tournament: the cap still applies."""
    hand = three_way_turn(Policy())
    assert hand.legal().min_to == 16
    hand = play(hand, "r16")
    assert not hand.can_raise()


def test_LIM_2_raising_is_unlimited_heads_up_in_cash() -> None:
    """[LIM-2] RRP cash: unlimited raises now allowed (not yet capped)."""
    hand = play(three_way_turn(Policy(limit_cap_heads_up=False)), "r16")
    assert hand.legal().min_to == 20
    assert play(hand, "r20 r24 r28").legal().min_to == 32


def test_LIM_2_event_heads_up_lifts_the_cap() -> None:
    """TDA 48: the cap holds until the event itself is heads-up."""
    config = HandConfig(game=Game.FO, starting_stacks=(1000, 1000), blinds_or_straddles=(1, 2),
                        small_bet=2, big_bet=4, event_heads_up=True)
    hand = play(Hand.start(config), "r4 r6 r8 r10")
    assert hand.legal().min_to == 12


def turn_bet_400(b_stack: int) -> Hand:
    hand = limit(3, 200, 400, 100, {1: b_stack}, game=Game.FO)
    return play(hand, "c c x F x x x T r400")


def test_LIM_3_half_bet_all_in_is_a_full_raise() -> None:
    """[LIM-3] Limit 200/400, turn. A bets 400; B all-in to 600 (+200 = 50 %) -> treated as a full
    raise: A may re-raise to 1000; C may call 600 or raise to 1000."""
    hand = play(turn_bet_400(800), "ai")
    legal = hand.legal()
    assert hand.to_act == 2
    assert (legal.call, legal.min_to, legal.max_to) == (600, 1000, 1000)
    hand = play(hand, "c")
    assert hand.to_act == 0
    assert hand.legal().min_to == 1000


def test_LIM_4_quarter_bet_all_in_does_not_reopen() -> None:
    """[LIM-4] Same, but B all-in to 500 (+100 = 25 %): A may only call 100 more (or fold). C (not yet
    acted) may fold, call 500, or raise to 800; if C does, A faces a full raise and may re-raise."""
    hand = play(turn_bet_400(700), "ai")
    legal = hand.legal()
    assert (legal.call, legal.min_to, legal.complete_to) == (500, 800, 800)
    called = play(hand, "c")
    assert called.legal().call == 100 and called.legal().min_to is None
    raised = play(hand, "r800")
    assert raised.to_act == 0
    assert raised.legal().call == 400 and raised.legal().min_to == 1200


def test_LIM_5_opening_all_in_of_three_quarters_is_a_full_bet() -> None:
    """[LIM-5] RRP's own example: on a $20 street an opening all-in of $15 (>= half) is treated as a
    full bet; a raise makes it $35."""
    hand = limit(3, 10, 20, 5, {0: 25}, game=Game.FO)
    hand = play(hand, "c c x F x x x T ai")
    assert hand.bets[0] == 15
    assert hand.legal().min_to == 35


def test_LIM_4_short_all_in_counts_toward_the_cap_by_policy() -> None:
    """RULES.md §2.6: whether a >= 50 % short all-in counts toward the cap is a policy flag
    (default yes)."""
    def after(policy: Policy) -> Hand:
        hand = limit(4, 200, 400, 100, {3: 1600}, game=Game.FO, policy=policy)
        # Turn: 400, 800, 1200, then an all-in to 1400 (+200 = half a bet).
        return play(hand, "c c c x F x x x x T r400 r800 r1200 ai")
    assert not after(Policy()).can_raise()
    assert after(Policy(limit_short_allin_counts_to_cap=False)).legal().min_to == 1800
