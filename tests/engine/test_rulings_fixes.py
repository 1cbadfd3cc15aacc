"""Rulings fixed after the acceptance check of issue 5: out of turn before the skipped
players act (TDA 53, RULES.md §2.8), the undercall named by what was faced (TDA 51-B,
§2.7), and the exposed stud down-card entered as the up-card (TDA RP-10-A, §3.5)."""

from __future__ import annotations

import pytest

from director.poker.cards import parse_card
from director.poker.errors import RuleViolation
from director.poker.events import Action, ActionKind, DealBoard, DealHole, Kill
from director.poker.games import Game
from director.poker.rulings import (
    Decision,
    Faced,
    UpCard,
    action_out_of_turn,
    bet_faced,
    undercall,
    up_card_deal,
)
from director.poker.state import Hand, HandConfig


def nlo(players: int = 4) -> Hand:
    return Hand.start(HandConfig(game=Game.NO, starting_stacks=(10_000,) * players,
                                 blinds_or_straddles=(50, 100) + (0,) * (players - 2), min_bet=100))


def stud(players: int = 3) -> Hand:
    return Hand.start(HandConfig(game=Game.F7S, starting_stacks=(1000,) * players,
                                 antes=(10,) * players, bring_in=25, small_bet=100, big_bet=200))


# --------------------------------------------------------------------------- TDA 53


def test_OOT_1_raise_ruled_before_the_skipped_player_acts_backs_up_without_effect() -> None:
    # [OOT-1] S6 says "raise to 800" while S5 is to act (indices 5 and 4)
    r = action_out_of_turn(5, "raise", 800, bet_when_acted=300, bet_now=300, to_act=4)
    assert r.decision == Decision.BACKS_UP and r.rule == "TDA 53"
    assert r.effect is None
    assert r.text.startswith("The action backs up to seat 5. Seat 6's raise to 800 out of turn stands "
                             "only if the action to him does not change")
    assert "if anyone bets or raises, his chips go back" in r.text


def test_OOT_2_check_ruled_before_the_skipped_player_acts_backs_up() -> None:
    r = action_out_of_turn(5, "check", bet_when_acted=0, bet_now=0, to_act=4)
    assert r.decision == "backs_up" and r.effect is None
    assert "Seat 6's check out of turn stands only if" in r.text


def test_OOT_fold_before_his_turn_is_binding_and_kills_the_hand_at_once() -> None:
    r = action_out_of_turn(5, "fold", bet_when_acted=300, bet_now=300, to_act=4)
    assert r.decision == Decision.BINDING
    assert r.effect == Kill(5, "fold out of turn")
    assert r.text.endswith("The action backs up to seat 5")


def test_OOT_1_ruled_in_turn_is_unchanged_by_to_act() -> None:
    r = action_out_of_turn(5, "raise", 800, bet_when_acted=300, bet_now=300, to_act=5)
    assert r.decision == Decision.BINDING and r.effect == Action(5, ActionKind.RAISE, 800)


# --------------------------------------------------------------------------- what was faced


def test_bet_faced_pre_flop_is_the_big_blind_then_a_raise() -> None:
    h = nlo()
    assert bet_faced(h) is Faced.BIG_BLIND
    h = h.apply(Action(2, ActionKind.RAISE, 300))
    assert bet_faced(h) is Faced.RAISE


def test_bet_faced_post_flop_is_the_bet_then_a_raise_and_none_before_a_bet() -> None:
    h = nlo(3)
    for kind in ("call", "call", "check"):
        h = h.apply(Action(h.to_act or 0, ActionKind(kind)))
    h = h.apply(DealBoard((None, None, None)))
    assert bet_faced(h) is None
    h = h.apply(Action(h.to_act or 0, ActionKind.BET, 400))
    assert bet_faced(h) is Faced.BET
    h = h.apply(Action(h.to_act or 0, ActionKind.RAISE, 1200))
    assert bet_faced(h) is Faced.RAISE


def test_bet_faced_in_stud_is_the_bring_in_then_the_completion_then_a_raise() -> None:
    h = stud()
    for p, up in enumerate(("2d", "9c", "Kh")):
        h = h.apply(DealHole(p, (None, None, parse_card(up))))
    h = h.apply(Action(0, ActionKind.BRING_IN))
    assert bet_faced(h) is Faced.BRING_IN
    h = h.apply(Action(1, ActionKind.COMPLETE, 100))
    assert bet_faced(h) is Faced.COMPLETION
    h = h.apply(Action(2, ActionKind.RAISE, 200))
    assert bet_faced(h) is Faced.RAISE


# --------------------------------------------------------------------------- TDA 51-B wording


def test_UC_1_undercall_names_the_bet_it_is_short_of() -> None:
    r = undercall(2000, player=1, current_bet=8000, heads_up=False, faced="bet")
    assert r.decision == Decision.CALL
    assert r.text == "Seat 2's 2000 is short of the bet of 8000, the opening bet: it is a full call of 8000 (6000 more)"


@pytest.mark.parametrize(("faced", "words"), [
    ("raise", "short of the raise to 8000"),
    ("big blind", "short of the big blind of 8000"),
    ("bring-in", "short of the bring-in of 8000"),
    ("completion", "short of the completion to 8000"),
])
def test_UC_heads_up_undercall_names_what_he_faced(faced: str, words: str) -> None:
    r = undercall(2000, player=1, current_bet=8000, heads_up=True, faced=faced)
    assert r.decision == Decision.CALL and r.text.startswith("Heads-up, seat 2's 2000 is " + words)
    assert "opening" not in r.text


def test_UC_multi_way_undercall_of_a_raise_is_the_floors_decision() -> None:
    r = undercall(2000, player=1, current_bet=8000, heads_up=False, faced=Faced.RAISE)
    assert r.decision == Decision.FLOOR_DECIDES and r.call_floor and "facing a raise" in r.text


# --------------------------------------------------------------------------- TDA RP-10-A


def test_ST_10_exposed_down_card_is_entered_as_his_up_card_and_brings_in() -> None:
    h = stud()
    deal = up_card_deal(h, UpCard(1, parse_card("2c")))
    assert deal == DealHole(1, (None, None, parse_card("2c")))
    h = h.apply(deal).apply(DealHole(0, (None, None, parse_card("5d")))) \
        .apply(DealHole(2, (None, None, parse_card("Kh"))))
    assert h.to_act == 1 and h.legal().bring_in


def test_ST_10_exposed_card_after_another_up_card_was_entered_is_refused() -> None:
    h = stud().apply(DealHole(1, (None, None, parse_card("8s"))))
    with pytest.raises(RuleViolation, match="undo the deal"):
        up_card_deal(h, UpCard(1, parse_card("2c")))
    assert up_card_deal(h, UpCard(1, parse_card("8s"))) is None
