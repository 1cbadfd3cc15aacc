"""The shot clock (a house rule; TDA has none: off by default): the time per action, the
warning, time-bank cards, the house rule when the time has run out.  Time is an argument."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from director.poker.errors import RuleViolation
from director.poker.events import Action, ActionKind, CheckByClock, Kill
from director.poker.rulings import DEFAULT_RULING_POLICY, RulingPolicy
from director.poker.shot_clock import (
    TIME_BANK_SECONDS,
    expiry_event,
    paused_seconds,
    time_used,
    turn_clock,
    verify_time_bank,
)

START = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return START + timedelta(seconds=seconds)


def test_house_rule_the_shot_clock_is_off_by_default_as_TDA_has_none() -> None:
    assert DEFAULT_RULING_POLICY.shot_clock == "off"
    assert RulingPolicy.from_json({"shot_clock": "30"}).shot_clock == "30"
    with pytest.raises(RuleViolation):
        RulingPolicy.from_json({"shot_clock": "20"})


def test_shot_clock_30_seconds_warns_in_the_last_10_and_the_last_second_is_the_players() -> None:
    turn = turn_clock(0, START, 30)
    assert turn.left(at(0)) == 30 and not turn.warning(at(19.5))
    assert turn.warning(at(20)) and turn.left(at(20)) == 10
    assert not turn.expired(at(30)) and turn.expired(at(30.001))


def test_time_bank_card_adds_30_seconds_and_none_left_is_refused_naming_the_seat() -> None:
    assert turn_clock(0, START, 30, cards_used=2).ends_at == at(30 + 2 * TIME_BANK_SECONDS)
    verify_time_bank(1, player=0)
    with pytest.raises(RuleViolation, match="Seat 7 has no time-bank card left"):
        verify_time_bank(0, player=1, seats=(2, 7))


def test_house_rule_dead_kills_the_hand_when_the_time_has_run_out() -> None:
    assert expiry_event(turn_clock(1, START, 30), at(31), rule="dead", can_check=True) == Kill(1, "shot clock")


def test_house_rule_check_fold_checks_when_he_may_and_folds_facing_a_bet() -> None:
    assert expiry_event(turn_clock(1, START, 30), at(31), rule="check-fold", can_check=True) == CheckByClock(1)
    assert expiry_event(turn_clock(1, START, 30), at(31), rule="check-fold",
                        can_check=False) == Action(1, ActionKind.FOLD)


def test_the_house_rule_is_refused_while_time_is_left_or_the_tournament_clock_is_paused() -> None:
    with pytest.raises(RuleViolation, match="still has 1 seconds"):
        expiry_event(turn_clock(0, START, 30), at(29.5), rule="dead", can_check=True)
    with pytest.raises(RuleViolation, match="paused"):
        expiry_event(turn_clock(0, START, 30), at(99), rule="dead", can_check=True, paused=True)


def test_time_used_sums_each_players_turns_and_needs_utc_times() -> None:
    assert time_used([(0, START, at(4)), (1, at(4), at(13)), (0, at(13), at(15))]) == {0: 6.0, 1: 9.0}
    with pytest.raises(RuleViolation):
        turn_clock(0, START.replace(tzinfo=None), 30)


def test_the_time_the_tournament_clock_stood_still_is_not_counted_so_a_pause_keeps_the_time_left() -> None:
    pauses = [(at(10), at(70))]                      # 10 s used, paused 60 s, resumed
    assert paused_seconds(START, at(70), pauses) == 60
    turn = turn_clock(0, START, 30, paused=paused_seconds(START, at(70), pauses))
    assert turn.left(at(70)) == 20                   # what he had left, not 30, not -40
    assert not turn.expired(at(89)) and turn.left(at(89)) == 1
    assert turn.left(at(90)) == 0 and turn.expired(at(90.001))


def test_pauses_are_counted_once_within_his_turn_and_one_still_running_counts_to_now() -> None:
    pauses = [(at(-50), at(5)), (at(20), at(40)), (at(30), at(45)), (at(60), None)]
    # before his turn nothing; 0-5, 20-45 once though two overlap, 60-now
    assert paused_seconds(START, at(80), pauses) == 5 + 25 + 20
    assert paused_seconds(START, at(80), []) == 0
    with pytest.raises(RuleViolation):
        paused_seconds(START, at(80), [(at(10).replace(tzinfo=None), None)])
