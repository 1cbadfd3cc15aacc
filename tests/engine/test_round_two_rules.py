"""Rules the tablet's second round (issue 31) put in the engine: an action after the called
clock ran out (TDA 29), a killed hand is dead, not folded (TDA 29, 30)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from director.poker.errors import RuleViolation
from director.poker.events import FOLD_OUT_OF_TURN, Kill
from director.poker.games import Game
from director.poker.rulings import verify_in_time
from tests.engine.test_betting_absent import play, plo

END = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)


def test_TDA_29_an_action_one_second_after_the_clock_ran_out_is_refused_naming_the_seat() -> None:
    with pytest.raises(RuleViolation) as refused:
        verify_in_time(END, END + timedelta(seconds=1), player=2, seats=(1, 4, 7))
    assert "seat 7" in str(refused.value) and "TDA 29" in str(refused.value)


def test_TDA_29_an_action_at_the_last_second_is_the_players_tie() -> None:
    verify_in_time(END, END, player=0)
    verify_in_time(END, END - timedelta(seconds=5), player=0)


def test_TDA_29_times_without_a_zone_are_refused() -> None:
    with pytest.raises(RuleViolation):
        verify_in_time(END.replace(tzinfo=None), END, player=0)


def test_CLK_1_a_hand_killed_by_the_clock_is_dead_and_a_folded_hand_is_not() -> None:
    hand = play(plo(game=Game.NO), "c c c x F r2000")
    hand = hand.apply(Kill(1, "clock"))
    assert hand.killed[1] and hand.folded[1]
    assert not any(hand.killed[i] for i in (0, 2, 3))
    hand = play(plo(game=Game.NO), "f")
    assert hand.folded[2] and not hand.killed[2]


def test_TDA_53_a_binding_fold_out_of_turn_is_a_fold_not_a_dead_hand() -> None:
    hand = play(plo(game=Game.NO), "")
    hand = hand.apply(Kill(3, FOLD_OUT_OF_TURN))
    assert hand.folded[3] and not hand.killed[3]


def test_RRP_irregularities_a_button_out_of_position_before_substantial_action_is_a_misdeal() -> None:
    from director.poker.events import Misdeal
    from director.poker.rulings import wrong_button
    ruling = wrong_button(4)
    assert ruling.decision == "misdeal" and ruling.effect == Misdeal("button out of position")
    assert "seat 4" in ruling.text


def test_TDA_35_D_a_button_out_of_position_found_after_substantial_action_plays_on() -> None:
    from director.poker.rulings import wrong_button
    ruling = wrong_button(4, substantial_action=True)
    assert ruling.decision == "play_on" and ruling.effect is None and ruling.rule == "TDA 35-D"
