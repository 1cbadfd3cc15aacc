"""The tournament clock as a value and pure functions of it and an explicit ``now``.

The clock stores timestamps, never a countdown: the level index, when the
current running stretch began (UTC), how many seconds of the level had
already run before that, and whether it is running.  Remaining time is
computed from that state and ``now``, so after a restart of the server
``advance_due`` followed by ``remaining`` gives the right level and time.

Breaks are entries like levels (RULES.md §9.1).  A new level starts exactly
when the previous one ended (no drift), and "applies from the next hand"
is for the floor to announce, not for the clock.

Time added to a level (``adjust`` with +N) is stored as a negative
``elapsed_before``: ``elapsed`` may then be negative and ``remaining`` may
exceed the level's duration, but ``elapsed + remaining`` stays equal to the
level's duration until the level is over.

>>> from datetime import UTC, datetime, timedelta
>>> from director.poker.games import Game
>>> from director.tournament.structure import Level, Structure
>>> t0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
>>> twenty = Level(game=Game.PO, duration_seconds=1200, small_blind=100, big_blind=200)
>>> s = Structure((twenty, twenty, twenty))
>>> c = start(ClockState(), t0)
>>> remaining(c, s, t0 + timedelta(minutes=5))
900.0
>>> c = advance_due(c, s, t0 + timedelta(minutes=45))    # the server was down for 45 minutes
>>> c.level_index, remaining(c, s, t0 + timedelta(minutes=45))
(2, 900.0)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from director.poker.errors import RuleViolation
from director.tournament.structure import Structure

__all__ = [
    "HAND_FOR_HAND_SECONDS",
    "ClockState",
    "adjust",
    "advance_due",
    "can_next_level",
    "can_previous_level",
    "elapsed",
    "ends_at",
    "hand_for_hand_deduction",
    "has_run",
    "jump",
    "next_change_at",
    "next_level",
    "pause",
    "previous_level",
    "remaining",
    "resume",
    "start",
]

HAND_FOR_HAND_SECONDS = 120
"""TDA RP-8: during hand-for-hand the clock loses 2 minutes per hand (at most 3)."""

HAND_FOR_HAND_MAX_SECONDS = 180


def _aware(now: datetime) -> datetime:
    if not isinstance(now, datetime):
        raise TypeError(f"now must be a datetime, not {type(now).__name__}")
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("now must be timezone-aware (UTC); pure code never guesses the zone")
    return now


@dataclass(frozen=True, slots=True)
class ClockState:
    """The stored clock: enough to recompute everything from a fresh ``now``.

    ``started_at`` is when the current running stretch of the current level
    began (None while paused or never started); ``elapsed_before`` is the
    seconds of the current level run before that stretch (negative after
    time was added).
    """

    level_index: int = 0
    started_at: datetime | None = None
    elapsed_before: float = 0.0
    running: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "level_index": self.level_index,
            "started_at": None if self.started_at is None
            else self.started_at.astimezone(UTC).isoformat(),
            "elapsed_before": self.elapsed_before,
            "running": self.running,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> ClockState:
        """Inverse of ``to_json``; a naive timestamp is taken to be UTC.

        >>> ClockState.from_json({"level_index": 3, "started_at": "2026-11-29T18:00:00",
        ...                       "elapsed_before": 60, "running": True}).started_at
        datetime.datetime(2026, 11, 29, 18, 0, tzinfo=datetime.timezone.utc)
        """
        raw = d.get("started_at")
        started: datetime | None
        if raw is None:
            started = None
        else:
            started = raw if isinstance(raw, datetime) else datetime.fromisoformat(raw)
            started = started.replace(tzinfo=UTC) if started.tzinfo is None \
                else started.astimezone(UTC)
        return cls(
            level_index=int(d.get("level_index", 0)),
            started_at=started,
            elapsed_before=float(d.get("elapsed_before", 0.0)),
            running=bool(d.get("running", False)),
        )


def _duration(state: ClockState, structure: Structure) -> int:
    if not structure.levels:
        raise RuleViolation("The structure has no levels")
    index = min(max(state.level_index, 0), len(structure.levels) - 1)
    return structure.levels[index].duration_seconds


def _last(structure: Structure) -> int:
    return len(structure.levels) - 1


def elapsed(state: ClockState, now: datetime) -> float:
    """Seconds run in the current level (negative after time was added at its start).

    A ``now`` earlier than ``started_at`` counts as no time run in this stretch.
    """
    if not state.running or state.started_at is None:
        return state.elapsed_before
    run = (_aware(now) - state.started_at).total_seconds()
    return state.elapsed_before + max(run, 0.0)


def remaining(state: ClockState, structure: Structure, now: datetime) -> float:
    """Seconds left in the current level, never negative.

    It may exceed the level's duration when time was added.  At the end of
    the last level it stays at 0.
    """
    return max(_duration(state, structure) - elapsed(state, now), 0.0)


def ends_at(state: ClockState, structure: Structure, now: datetime) -> datetime | None:
    """When the current level ends, as an absolute UTC time; None when paused.

    Screens count down to this by themselves (send it, not a countdown).
    """
    _aware(now)
    if not state.running or state.started_at is None:
        return None
    left = _duration(state, structure) - state.elapsed_before
    return state.started_at + timedelta(seconds=left)


def has_run(state: ClockState) -> bool:
    """Does the clock itself show that it was started: it runs, it ran some of this
    level, or it is past the first level?

    Not when time added back has used up what the first level ran (a paused first
    level with as much time added as it ran shows 0 s run): the event keeps that it
    started apart (``Tournament.started``, its stored status).

    >>> from datetime import UTC, datetime
    >>> t0 = datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
    >>> has_run(ClockState()), has_run(start(ClockState(), t0))
    (False, True)
    """
    return state.running or state.started_at is not None or state.elapsed_before > 0 \
        or state.level_index > 0


def start(state: ClockState, now: datetime) -> ClockState:
    """Start the clock: a never-started clock starts its current level (level 0 by
    default) from the beginning; a paused clock resumes; a running clock is unchanged."""
    return resume(state, now)


def pause(state: ClockState, now: datetime) -> ClockState:
    """Stop the clock, keeping the time already run (a paused clock keeps its remaining time)."""
    if not state.running:
        return state
    return ClockState(state.level_index, None, elapsed(state, now), False)


def resume(state: ClockState, now: datetime) -> ClockState:
    """Restart a paused clock from where it stopped."""
    if state.running:
        return state
    return ClockState(state.level_index, _aware(now), state.elapsed_before, True)


def advance_due(state: ClockState, structure: Structure, now: datetime) -> ClockState:
    """Apply every level end that is due as of ``now``, exactly.

    Each next entry starts at the instant the previous one ended, so after a
    long downtime the clock lands on the right level with the right time
    left, whatever the number of levels and breaks in between.  Idempotent.
    The last entry does not advance: its remaining time stays at 0.
    A paused clock past its level's end (time removed while paused) carries
    the surplus into the next level.
    """
    _aware(now)
    last = _last(structure)
    while state.level_index < last:
        duration = _duration(state, structure)
        if elapsed(state, now) < duration:
            break
        if state.running and state.started_at is not None:
            end = state.started_at + timedelta(seconds=duration - state.elapsed_before)
            if end > now:  # elapsed was clamped (now before started_at)
                break
            state = ClockState(state.level_index + 1, end, 0.0, True)
        else:
            state = ClockState(state.level_index + 1, None,
                               state.elapsed_before - duration, False)
    if state.level_index > last:
        state = replace(state, level_index=last)
    return state


def adjust(state: ClockState, structure: Structure, seconds: float, now: datetime) -> ClockState:
    """Add (+N) or remove (-N) seconds from the current level.

    Removing more than is left ends the level and carries the rest into the
    next ones (blinds rise as levels are reached).  Adding time can make the
    remaining time exceed the level's duration.

    >>> from datetime import UTC, datetime
    >>> from director.tournament.structure import template
    >>> s, t0 = template("plo-standard"), datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
    >>> c = adjust(pause(start(ClockState(), t0), t0), s, -2000, t0)   # levels of 1800 s
    >>> c.level_index, remaining(c, s, t0)
    (1, 1600.0)
    """
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) \
            or not math.isfinite(seconds):
        raise RuleViolation("Time to add or remove must be a number of seconds, not {seconds}",
                            seconds=seconds)
    state = replace(state, elapsed_before=state.elapsed_before - seconds)
    return advance_due(state, structure, now)


def _at_start(state: ClockState, index: int, now: datetime) -> ClockState:
    """Entry ``index`` from its beginning, running if the clock was running."""
    if state.running:
        return ClockState(index, _aware(now), 0.0, True)
    return ClockState(index, None, 0.0, False)


def can_next_level(state: ClockState, structure: Structure) -> bool:
    return state.level_index < _last(structure)


def can_previous_level(state: ClockState, structure: Structure) -> bool:
    return state.level_index > 0


def next_level(state: ClockState, structure: Structure, now: datetime) -> ClockState:
    """Jump to the start of the next entry (a break counts as an entry).

    Raises RuleViolation at the last entry.
    """
    if not can_next_level(state, structure):
        raise RuleViolation("This is the last level: there is no next level")
    return _at_start(state, state.level_index + 1, now)


def previous_level(state: ClockState, structure: Structure, now: datetime) -> ClockState:
    """Go back to the start of the previous entry.  Raises RuleViolation at the first."""
    if not can_previous_level(state, structure):
        raise RuleViolation("This is the first level: there is no previous level")
    return _at_start(state, min(state.level_index, len(structure.levels)) - 1, now)


def jump(state: ClockState, structure: Structure, index: int, now: datetime) -> ClockState:
    """Go to the start of entry ``index`` (0-based, breaks included), keeping running/paused."""
    if isinstance(index, bool) or not isinstance(index, int) \
            or not 0 <= index < len(structure.levels):
        raise RuleViolation("There is no entry {index} in this structure (it has {count})",
                            index=index, count=len(structure.levels))
    return _at_start(state, index, now)


def hand_for_hand_deduction(state: ClockState, structure: Structure,
                            seconds: int = HAND_FOR_HAND_SECONDS,
                            now: datetime | None = None) -> ClockState:
    """Deduct one hand-for-hand hand from the clock (TDA RP-8; WSOP-T 126).

    During hand-for-hand the clock loses 2 minutes per hand (TDA: at most
    3), deducted per hand, not in batches; if that takes the clock past the
    end of the level, the next level starts with the rest deducted.
    ``now`` is required (it has a default only so that ``seconds`` can).

    >>> from datetime import UTC, datetime
    >>> from director.tournament.structure import template
    >>> s, t0 = template("plo-standard"), datetime(2026, 11, 29, 18, 0, tzinfo=UTC)
    >>> c = pause(start(ClockState(), t0), t0)
    >>> remaining(hand_for_hand_deduction(c, s, now=t0), s, t0)
    1680.0
    """
    if now is None:
        raise TypeError("hand_for_hand_deduction needs now: pure code never reads the clock")
    if isinstance(seconds, bool) or not isinstance(seconds, int) \
            or not 0 < seconds <= HAND_FOR_HAND_MAX_SECONDS:
        raise RuleViolation("A hand-for-hand hand takes between 1 second and 3 minutes "
                            "off the clock, not {seconds}", rule="TDA RP-8", seconds=seconds)
    return adjust(state, structure, -seconds, now)


def next_change_at(state: ClockState, structure: Structure, now: datetime) -> datetime | None:
    """When the scheduler should next run ``advance_due``: the current level's end.

    None when paused or on the last entry (nothing more will change by itself).
    A time in the past means a change is already due.
    """
    if state.level_index >= _last(structure):
        return None
    return ends_at(state, structure, now)
