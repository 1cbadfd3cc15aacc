"""Where the clock is, in the entry rules' words, and whether late registration is open.

The moment of the clock (``level``, ``on_break``) that the entry rules need
comes from the tournament's clock: before the clock starts it is level 0; on
a break it is the level before the break with ``on_break``.  Read-only.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from director.models.tournament import Tournament
from director.tournament import clock as clock_rules
from director.tournament.entries import EntryRules


@dataclass(frozen=True)
class Moment:
    """Where the clock is, in the words of the entry rules."""

    level: int
    on_break: bool
    started: bool
    running: bool = False


def moment(tournament: Tournament, now: datetime) -> Moment:
    """Level 0 before the clock starts; on a break, the level before it with ``on_break``."""
    structure = tournament.structure
    state = clock_rules.advance_due(tournament.clock, structure, now)
    index = min(state.level_index, len(structure.levels) - 1)
    if not tournament.started:
        return Moment(0, False, False)
    played = sum(1 for level in structure.levels[: index + 1] if not level.is_break)
    return Moment(played, structure.levels[index].is_break, True, state.running)


@dataclass(frozen=True)
class LateRegistration:
    level: int
    open: bool
    seconds: float | None        # until it closes (None: unknown — the clock has not started)
    closes_at: datetime | None   # absolute, while the clock runs


def late_registration(tournament: Tournament, rules: EntryRules, now: datetime) -> LateRegistration:
    """Late registration is open through level N and the break after it (``entries.py``)."""
    last = rules.late_registration_level
    at = moment(tournament, now)
    if at.level > last or (last == 0 and at.started):
        return LateRegistration(last, False, None, None)
    structure = tournament.structure
    state = clock_rules.advance_due(tournament.clock, structure, now)
    index = min(state.level_index, len(structure.levels) - 1)
    if last == 0:
        return LateRegistration(last, True, None, None)
    seconds = clock_rules.remaining(state, structure, now)
    played = sum(1 for level in structure.levels[: index + 1] if not level.is_break)
    for later in structure.levels[index + 1:]:
        if not later.is_break:
            played += 1
            if played > last:
                break
        seconds += later.duration_seconds
    closes = now + timedelta(seconds=seconds) if state.running else None
    return LateRegistration(last, True, round(seconds, 3), closes)
