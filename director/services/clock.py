"""Clock services: each control is one unit of work.

Load the tournament, catch the clock up with every level end already due
(``clock.advance_due``), apply the director's control through the pure
``director.tournament.clock``, commit, publish the new state to the live
screens, and reschedule the level-end job.  Two writers never overwrite each
other: the ``version`` column is an optimistic lock, and a loser retries.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from director.db import db, utcnow
from director.i18n import translate_violation
from director.models import Tournament
from director.models.seating import Player
from director.poker.errors import RuleViolation
from director.services import (
    Invalid,
    audit,
    banners,
    get_tournament,
    retry_on_conflict,
    scheduler,
)
from director.services import money as money_service
from director.services import seating as seating_service
from director.services.events import events
from director.tournament import clock
from director.tournament.clock import ClockState
from director.tournament.lifecycle import EventClosed, Status, verify_open
from director.tournament.structure import Level, Structure

ADJUST_LIMIT = 24 * 3600

Change = Callable[[ClockState, Structure, datetime], ClockState]


# ---------------------------------------------------------------- reading

def level_json(structure: Structure, index: int | None) -> dict[str, Any] | None:
    """A level's fields plus what a screen prints: its number, game name and stakes."""
    if index is None or not 0 <= index < len(structure.levels):
        return None
    level: Level = structure.levels[index]
    data = level.to_json()
    data["index"] = index
    data["is_break"] = level.is_break
    data["level_number"] = structure.level_number(index)
    data["game_label"] = level.game.label if level.game is not None else ""
    data["stakes_label"] = level.stakes_label()
    return data


def current_level(tournament: Tournament, now: datetime) -> dict[str, Any] | None:
    """The level being played at ``now`` (``clock_json``'s ``level``, without the rest)."""
    return level_at(tournament.structure, tournament.clock, now)


def level_at(structure: Structure, state: ClockState, now: datetime) -> dict[str, Any] | None:
    """The level being played at ``now`` by a clock in ``state`` (``current_level``)."""
    state = clock.advance_due(state, structure, now)
    return level_json(structure, min(state.level_index, len(structure.levels) - 1))


def clock_json(tournament: Tournament, now: datetime) -> dict[str, Any]:
    """The public clock state (the API contract), computed as of ``now``.

    Level ends that are due are applied here too, so a reader is right even
    before the scheduler has written them.  ``ends_at`` and ``break_at`` are
    absolute, so that every screen counts down from its own clock.
    """
    structure = tournament.structure
    state = clock.advance_due(tournament.clock, structure, now)
    index = min(state.level_index, len(structure.levels) - 1)
    remaining = clock.remaining(state, structure, now)
    ends = clock.ends_at(state, structure, now)
    next_break = structure.next_break(index)
    to_break: float | None = None
    if next_break is not None:
        to_break = remaining + sum(
            level.duration_seconds for level in structure.levels[index + 1 : next_break]
        )
    started = state.running or state.started_at is not None or state.elapsed_before > 0 or index > 0
    status = tournament.lifecycle
    data = {
        "tournament_id": tournament.id,
        "name": tournament.name,
        "version": tournament.version,
        "running": state.running,
        "started": started,
        "level_index": index,
        "level_count": len(structure.levels),
        "level": level_json(structure, index),
        "next_level": level_json(structure, index + 1),
        "seconds_remaining": round(remaining, 3),
        "ends_at": _iso(ends),
        "seconds_to_break": None if to_break is None else round(to_break, 3),
        "break_at": _iso(now + timedelta(seconds=to_break))
        if to_break is not None and state.running
        else None,
        "server_time": _iso(now),
        # The event's life (registering, running, finished, cancelled) and, once it
        # is finished by the last elimination, its winner: the projector's winner screen.
        "status": status.value,
        "winner": winner(tournament.id) if status is Status.FINISHED else None,
        # Filled by the registration issue; the projector shows them when set.
        **seating_service.field_stats(tournament.id),
        **money_service.clock_stats(tournament, now),
    }
    return data | banners.state(tournament, data, now)  # the screens' banners (issue 15)


def winner(tournament_id: int) -> dict[str, Any] | None:
    """The player in first place while still in (the last elimination crowned him), if any."""
    player = db.session.scalars(select(Player).where(
        Player.tournament_id == tournament_id, Player.place == 1,
        Player.status == "active")).first()
    return None if player is None else {"player_id": player.id, "name": player.name}


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def clock_state(tournament_id: int) -> dict[str, Any]:
    return clock_json(get_tournament(tournament_id), utcnow())


def versions(tournament_ids: list[int]) -> dict[int, int]:
    """``{id: version}`` for the given tournaments (the live screens' change check)."""
    rows = db.session.execute(
        select(Tournament.id, Tournament.version).where(Tournament.id.in_(tournament_ids))
    ).all()
    return {row[0]: row[1] for row in rows}


def next_change(tournament: Tournament, now: datetime) -> datetime | None:
    if tournament.lifecycle in (Status.FINISHED, Status.CANCELLED):
        return None
    return clock.next_change_at(tournament.clock, tournament.structure, now)


# ---------------------------------------------------------------- writing

def _control(tournament_id: int, change: Change) -> dict[str, Any]:
    """Catch up, apply ``change``, commit, publish, reschedule."""

    def work() -> tuple[Tournament, datetime]:
        tournament = get_tournament(tournament_id)
        now = utcnow()
        try:
            verify_open(tournament.lifecycle)     # a finished event's clock stays stopped
        except EventClosed as exc:
            db.session.rollback()
            raise Invalid({"event": translate_violation(exc)}) from None
        structure = tournament.structure
        state = clock.advance_due(tournament.clock, structure, now)
        try:
            tournament.clock = change(state, structure, now)
        except RuleViolation as exc:  # "This is the last level: there is no next level"
            db.session.rollback()
            raise Invalid({"level_index": translate_violation(exc)}) from None
        db.session.commit()
        return tournament, now

    return announce(*retry_on_conflict(work))


def announce(tournament: Tournament, now: datetime, kind: str = "clock") -> dict[str, Any]:
    """After a commit: push the state to the live screens (``kind``: what changed, for
    the change feed) and reschedule the level end."""
    data = clock_json(tournament, now)
    events().publish(tournament.id, "clock", data, tournament.version, kind=kind)
    scheduler.reschedule(tournament.id, next_change(tournament, now))
    return data


def _logged(key: str, data: dict[str, Any], **params: Any) -> dict[str, Any]:
    """Log a clock change in the director's words ("Level 5 started"); returns ``data``."""
    tournament = get_tournament(data["tournament_id"])
    audit.change(key, tournament.id, level=audit.level_param(tournament.structure,
                                                             data["level_index"]),
                 left={"seconds": int(data.get("seconds_remaining") or 0)}, **params)
    return data


def start(tournament_id: int) -> dict[str, Any]:
    return _logged("clock started", _control(
        tournament_id, lambda state, structure, now: clock.start(state, now)))


def pause(tournament_id: int) -> dict[str, Any]:
    return _logged("clock paused", _control(
        tournament_id, lambda state, structure, now: clock.pause(state, now)))


def resume(tournament_id: int) -> dict[str, Any]:
    return _logged("clock resumed", _control(
        tournament_id, lambda state, structure, now: clock.resume(state, now)))


def next_level(tournament_id: int) -> dict[str, Any]:
    return _logged("level started", _control(tournament_id, clock.next_level))


def previous_level(tournament_id: int) -> dict[str, Any]:
    return _logged("level back", _control(tournament_id, clock.previous_level))


def adjust(tournament_id: int, seconds: Any) -> dict[str, Any]:
    """Add (``seconds`` > 0) or remove time from the current level."""
    if not isinstance(seconds, int) or isinstance(seconds, bool):
        raise Invalid({"seconds": _("The adjustment must be a whole number of seconds")})
    if not -ADJUST_LIMIT <= seconds <= ADJUST_LIMIT:
        raise Invalid({"seconds": _("The adjustment must be between -%(limit)s and %(limit)s "
                                    "seconds", limit=ADJUST_LIMIT)})
    data = _control(
        tournament_id, lambda state, structure, now: clock.adjust(state, structure, seconds, now)
    )
    return _logged("time added" if seconds > 0 else "time removed", data,
                   time={"seconds": abs(seconds)})


def advance_if_due(tournament_id: int) -> datetime | None:
    """The scheduler's job: apply the level ends due as of now, if any (idempotent).

    Does nothing when the clock was paused, the event is finished or
    cancelled, or the level was already changed by a director or another
    process.  Returns when the next change is due.
    """

    def work() -> tuple[Tournament | None, datetime, bool]:
        tournament = db.session.get(Tournament, tournament_id)
        now = utcnow()
        if tournament is None:
            return None, now, False
        if tournament.lifecycle in (Status.FINISHED, Status.CANCELLED):
            return tournament, now, False      # stopped for good: nothing is ever due
        before = tournament.clock
        after = clock.advance_due(before, tournament.structure, now)
        if after == before:
            return tournament, now, False
        tournament.clock = after
        db.session.commit()
        return tournament, now, True

    tournament, now, changed = retry_on_conflict(work)
    if tournament is None:
        return None
    if changed:
        data = clock_json(tournament, now)
        events().publish(tournament.id, "clock", data, tournament.version)
        _logged("level started", data)
    return next_change(tournament, now)
