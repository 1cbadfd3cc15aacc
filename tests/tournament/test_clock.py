"""The tournament clock: pure functions of a stored state and an explicit ``now`` (RULES.md §9.1, §9.6)."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from director.poker.errors import RuleViolation
from director.poker.games import Game
from director.tournament.clock import (
    HAND_FOR_HAND_SECONDS,
    ClockState,
    adjust,
    advance_due,
    can_next_level,
    can_previous_level,
    elapsed,
    ends_at,
    hand_for_hand_deduction,
    jump,
    next_change_at,
    next_level,
    pause,
    previous_level,
    remaining,
    resume,
    start,
)
from director.tournament.structure import Kind, Level, Structure, template

T0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def plo(minutes: int, sb: int) -> Level:
    return Level(game=Game.PO, duration_seconds=minutes * 60, small_blind=sb, big_blind=2 * sb)


# Four 20-minute levels, a 10-minute break, two more levels.
# Entry starts: 0, 1200, 2400, 3600, 4800 (break), 5400, 6600; total 7800 s.
STRUCTURE = Structure((plo(20, 25), plo(20, 50), plo(20, 75), plo(20, 100),
                       Level(Kind.BREAK, 600, note="Colour-up: remove T25 chips"),
                       plo(20, 150), plo(20, 200)), "test")


def running_from_zero() -> ClockState:
    return start(ClockState(), T0)


# ---------------------------------------------------------------- start, pause, resume

def test_fresh_clock_starts_level_1_with_its_full_duration() -> None:
    c = running_from_zero()
    assert (c.level_index, c.running, c.started_at, c.elapsed_before) == (0, True, T0, 0.0)
    assert remaining(c, STRUCTURE, T0) == 1200
    assert remaining(c, STRUCTURE, at(300)) == 900
    assert elapsed(c, at(300)) == 300
    assert start(c, at(50)) == c  # starting a running clock changes nothing


def test_a_clock_that_was_never_started_shows_the_full_level_and_no_end() -> None:
    c = ClockState()
    assert remaining(c, STRUCTURE, at(5000)) == 1200
    assert ends_at(c, STRUCTURE, at(5000)) is None


def test_pause_and_resume_keep_the_remaining_time() -> None:
    c = pause(running_from_zero(), at(300))
    assert not c.running
    assert remaining(c, STRUCTURE, at(300)) == 900
    assert remaining(c, STRUCTURE, at(3000)) == 900  # paused for 45 minutes: nothing runs
    c = resume(c, at(3000))
    assert remaining(c, STRUCTURE, at(3000)) == 900
    assert remaining(c, STRUCTURE, at(3100)) == 800
    assert pause(pause(c, at(3100)), at(9999)) == pause(c, at(3100))  # pausing twice is harmless
    assert resume(c, at(4000)) == c


def test_ends_at_is_none_when_paused_and_absolute_when_running() -> None:
    c = running_from_zero()
    assert ends_at(c, STRUCTURE, at(10)) == at(1200)
    assert ends_at(c, STRUCTURE, at(900)) == at(1200)  # the same instant whatever now is
    paused = pause(c, at(100))
    assert ends_at(paused, STRUCTURE, at(100)) is None
    assert ends_at(resume(paused, at(400)), STRUCTURE, at(400)) == at(1500)


def test_naive_now_is_refused() -> None:
    with pytest.raises(ValueError):
        start(ClockState(), datetime(2026, 11, 29, 18, 0))


# ---------------------------------------------------------------- catch-up

def test_advance_due_applies_one_level_end_exactly() -> None:
    c = advance_due(running_from_zero(), STRUCTURE, at(1250))
    assert c.level_index == 1
    assert c.started_at == at(1200)  # next level starts when the previous ended, not at now
    assert remaining(c, STRUCTURE, at(1250)) == 1150


def test_advance_due_before_the_end_changes_nothing() -> None:
    c = running_from_zero()
    assert advance_due(c, STRUCTURE, at(1199)) == c


def test_advance_due_over_several_levels_and_a_break_after_a_long_downtime() -> None:
    # The server was down from minute 5 to 1 h 35 min; the clock kept its timestamps.
    stored = json.loads(json.dumps(running_from_zero().to_json()))
    c = ClockState.from_json(stored)
    now = at(5700)  # 300 s into the level after the break
    c = advance_due(c, STRUCTURE, now)
    assert c.level_index == 5
    assert STRUCTURE.level_number(c.level_index) == 5
    assert c.started_at == at(5400)
    assert remaining(c, STRUCTURE, now) == 900
    assert advance_due(c, STRUCTURE, now) == c  # idempotent


def test_advance_due_lands_inside_the_break() -> None:
    c = advance_due(running_from_zero(), STRUCTURE, at(5000))
    assert STRUCTURE.levels[c.level_index].is_break
    assert remaining(c, STRUCTURE, at(5000)) == 400
    assert next_change_at(c, STRUCTURE, at(5000)) == at(5400)


def test_restart_recomputes_level_and_remaining_from_stored_state() -> None:
    c = pause(running_from_zero(), at(600))
    c = resume(c, at(900))  # 300 s paused: everything after is 300 s later
    restored = ClockState.from_json(json.loads(json.dumps(c.to_json())))
    assert restored == c
    now = at(900 + 600 + 1200 + 100)  # level 1 ends at 1500, level 2 at 2700
    restored = advance_due(restored, STRUCTURE, now)
    assert restored.level_index == 2
    assert remaining(restored, STRUCTURE, now) == pytest.approx(1100, abs=1)


def test_the_last_level_stays_at_zero() -> None:
    c = advance_due(running_from_zero(), STRUCTURE, at(7800 + 3600))
    assert c.level_index == len(STRUCTURE.levels) - 1
    assert remaining(c, STRUCTURE, at(7800 + 3600)) == 0
    assert next_change_at(c, STRUCTURE, at(7800 + 3600)) is None
    assert advance_due(c, STRUCTURE, at(7800 + 7200)).level_index == c.level_index


# ---------------------------------------------------------------- adjusting time

def test_adding_time_can_make_remaining_exceed_the_level_duration() -> None:
    c = adjust(running_from_zero(), STRUCTURE, 300, at(60))
    assert remaining(c, STRUCTURE, at(60)) == 1440
    c = adjust(ClockState(), STRUCTURE, 120, T0)
    assert remaining(c, STRUCTURE, T0) == 1320 > STRUCTURE.levels[0].duration_seconds
    assert elapsed(c, T0) + remaining(c, STRUCTURE, T0) == 1200


def test_removing_time_within_the_level() -> None:
    c = adjust(running_from_zero(), STRUCTURE, -60, at(100))
    assert c.level_index == 0
    assert remaining(c, STRUCTURE, at(100)) == 1040
    assert ends_at(c, STRUCTURE, at(100)) == at(1140)


def test_removing_time_past_the_end_of_the_level_advances_and_carries_over() -> None:
    c = adjust(running_from_zero(), STRUCTURE, -1500, at(100))  # 1100 left, 400 carried
    assert c.level_index == 1
    assert remaining(c, STRUCTURE, at(100)) == 800
    assert ends_at(c, STRUCTURE, at(100)) == at(900)


def test_removing_time_while_paused_carries_over_and_stays_paused() -> None:
    c = pause(running_from_zero(), at(100))
    c = adjust(c, STRUCTURE, -2500, at(100))  # 1100 + 1200 used, 200 into the third level
    assert (c.level_index, c.running) == (2, False)
    assert remaining(c, STRUCTURE, at(9999)) == 1000


def test_adjust_refuses_not_a_number() -> None:
    with pytest.raises(RuleViolation):
        adjust(running_from_zero(), STRUCTURE, math.nan, at(1))
    with pytest.raises(RuleViolation):
        adjust(running_from_zero(), STRUCTURE, math.inf, at(1))


# ---------------------------------------------------------------- jumping

def test_next_level_starts_the_next_entry_from_its_beginning() -> None:
    c = next_level(running_from_zero(), STRUCTURE, at(500))
    assert (c.level_index, c.started_at, c.running) == (1, at(500), True)
    assert remaining(c, STRUCTURE, at(500)) == 1200


def test_next_and_previous_keep_a_paused_clock_paused() -> None:
    c = pause(running_from_zero(), at(500))
    c = next_level(c, STRUCTURE, at(600))
    assert (c.level_index, c.running) == (1, False)
    assert remaining(c, STRUCTURE, at(9000)) == 1200
    c = previous_level(c, STRUCTURE, at(700))
    assert (c.level_index, c.running, remaining(c, STRUCTURE, at(700))) == (0, False, 1200)


def test_jumping_across_a_break() -> None:
    c = jump(running_from_zero(), STRUCTURE, 3, at(100))
    c = next_level(c, STRUCTURE, at(200))
    assert STRUCTURE.levels[c.level_index].is_break  # breaks are entries like levels
    assert remaining(c, STRUCTURE, at(200)) == 600
    c = next_level(c, STRUCTURE, at(300))
    assert STRUCTURE.level_number(c.level_index) == 5
    c = previous_level(c, STRUCTURE, at(400))
    assert STRUCTURE.levels[c.level_index].is_break
    c = jump(c, STRUCTURE, 6, at(500))
    assert c.level_index == 6 and remaining(c, STRUCTURE, at(500)) == 1200
    c = jump(c, STRUCTURE, 1, at(600))
    assert c.level_index == 1 and ends_at(c, STRUCTURE, at(600)) == at(1800)


def test_next_and_previous_at_the_ends() -> None:
    first = running_from_zero()
    assert not can_previous_level(first, STRUCTURE)
    with pytest.raises(RuleViolation, match="first level"):
        previous_level(first, STRUCTURE, at(10))
    last = jump(first, STRUCTURE, len(STRUCTURE.levels) - 1, at(10))
    assert not can_next_level(last, STRUCTURE)
    with pytest.raises(RuleViolation, match="last level"):
        next_level(last, STRUCTURE, at(20))
    assert can_next_level(first, STRUCTURE) and can_previous_level(last, STRUCTURE)


@pytest.mark.parametrize("index", [-1, 7, 100])
def test_jump_outside_the_structure_is_refused(index: int) -> None:
    with pytest.raises(RuleViolation):
        jump(running_from_zero(), STRUCTURE, index, at(10))


# ---------------------------------------------------------------- hand-for-hand (TDA RP-8)

def test_H4H_clock_loses_2_minutes_per_hand() -> None:
    """TDA RP-8: 2 minutes per hand-for-hand hand."""
    assert HAND_FOR_HAND_SECONDS == 120
    c = pause(running_from_zero(), at(600))  # 600 s left, clock held during hand-for-hand
    c = hand_for_hand_deduction(c, STRUCTURE, now=at(700))
    assert remaining(c, STRUCTURE, at(700)) == 480
    c = hand_for_hand_deduction(c, STRUCTURE, HAND_FOR_HAND_SECONDS, at(800))
    assert remaining(c, STRUCTURE, at(800)) == 360


def test_H4H_deducts_per_hand_so_the_level_rises_on_the_hand_that_reaches_it() -> None:
    """TDA RP-8: deduct per hand, not in batches; blinds rise as levels are reached."""
    c = pause(adjust(running_from_zero(), STRUCTURE, -(1200 - 300), at(0)), at(0))
    assert remaining(c, STRUCTURE, at(0)) == 300
    levels_after_each_hand = []
    for hand in range(1, 4):
        c = hand_for_hand_deduction(c, STRUCTURE, 120, at(hand * 90))
        levels_after_each_hand.append((c.level_index, remaining(c, STRUCTURE, at(hand * 90))))
    # hand 1: 180 left; hand 2: 60 left; hand 3 crosses the end: next level less 60 s
    assert levels_after_each_hand == [(0, 180), (0, 60), (1, 1140)]


def test_H4H_deduction_while_running_also_counts_the_real_time() -> None:
    c = running_from_zero()
    c = hand_for_hand_deduction(c, STRUCTURE, 120, at(100))
    assert remaining(c, STRUCTURE, at(100)) == 1200 - 100 - 120


@pytest.mark.parametrize("seconds", [0, -120, 181, True])
def test_H4H_deduction_is_between_one_second_and_three_minutes(seconds: int) -> None:
    """TDA RP-8: at most 3 minutes per hand."""
    with pytest.raises(RuleViolation):
        hand_for_hand_deduction(running_from_zero(), STRUCTURE, seconds, at(10))


def test_H4H_deduction_needs_now() -> None:
    with pytest.raises(TypeError):
        hand_for_hand_deduction(running_from_zero(), STRUCTURE)


# ---------------------------------------------------------------- scheduler

def test_next_change_at_is_the_level_end_and_none_when_paused() -> None:
    c = running_from_zero()
    assert next_change_at(c, STRUCTURE, at(10)) == at(1200)
    assert next_change_at(pause(c, at(10)), STRUCTURE, at(10)) is None


def test_state_json_round_trip() -> None:
    for c in (ClockState(), running_from_zero(), pause(running_from_zero(), at(12.5)),
              adjust(ClockState(), STRUCTURE, 90, T0)):
        assert ClockState.from_json(json.loads(json.dumps(c.to_json()))) == c


def test_works_with_a_shipped_template() -> None:
    s = template("plo-standard")  # 4 x 30 min, 15-minute break, ...
    c = advance_due(running_from_zero(), s, at(2 * 3600 + 60))
    assert s.levels[c.level_index].is_break
    assert remaining(c, s, at(2 * 3600 + 60)) == 840


# ---------------------------------------------------------------- property

operations = st.lists(
    st.tuples(
        st.sampled_from(["start", "pause", "resume", "adjust", "advance"]),
        st.floats(min_value=0, max_value=4000, allow_nan=False),   # time passing before it
        st.integers(min_value=-3000, max_value=3000),             # seconds for adjust
    ),
    max_size=40,
)


@given(operations)
def test_clock_invariants_under_random_operations(ops: list[tuple[str, float, int]]) -> None:
    """Remaining is never negative nor NaN; elapsed + remaining is the level's duration
    (time added shows as negative elapsed); and the position in the structure always
    equals the time run minus the net time adjusted."""
    state, t, run, net_adjusted = ClockState(), 0.0, 0.0, 0.0
    last = len(STRUCTURE.levels) - 1
    starts = STRUCTURE.level_starts()
    for name, wait, seconds in ops:
        if state.running:
            run += wait
        t += wait
        now = at(t)
        if name in ("start", "resume"):
            state = start(state, now) if name == "start" else resume(state, now)
        elif name == "pause":
            state = pause(state, now)
        elif name == "adjust":
            state = adjust(state, STRUCTURE, seconds, now)
            net_adjusted += seconds
        state = advance_due(state, STRUCTURE, now)

        left = remaining(state, STRUCTURE, now)
        done = elapsed(state, now)
        duration = STRUCTURE.levels[state.level_index].duration_seconds
        assert not math.isnan(left) and left >= 0
        assert 0 <= state.level_index <= last
        if state.level_index < last:
            assert done + left == pytest.approx(duration, abs=1e-3)
        else:
            assert left == pytest.approx(max(duration - done, 0), abs=1e-3)
        assert starts[state.level_index] + done == pytest.approx(run - net_adjusted, abs=1e-3)
        assert (ends_at(state, STRUCTURE, now) is None) == (not state.running)
