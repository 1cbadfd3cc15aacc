"""Clock services: each control is one unit of work.

Load the tournament, catch the clock up with every level end already due
(``clock.advance_due``), apply the director's control through the pure
``director.tournament.clock``, record the log line and the moved clock on the
unit of work (``uow.log``, ``uow.clock_moved``) and commit: the dispatcher then
tells the live screens the new state and moves the level-end job.  Two writers
never overwrite each other: the ``version`` column is an optimistic lock, and a
loser retries.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from director.db import db, utcnow
from director.i18n import translate_violation
from director.models import Tournament
from director.models.seating import Player
from director.poker.errors import RuleViolation
from director.services import Invalid, audit, get_tournament, once, retry_on_conflict, uow
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


def winner(tournament_id: int) -> dict[str, Any] | None:
    """The player in first place while still in (the last elimination crowned him), if any."""
    player = db.session.scalars(select(Player).where(
        Player.tournament_id == tournament_id, Player.place == 1,
        Player.status == "active")).first()
    return None if player is None else {"player_id": player.id, "name": player.name}


def iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def next_change(tournament: Tournament, now: datetime) -> datetime | None:
    if tournament.lifecycle in (Status.FINISHED, Status.CANCELLED):
        return None
    return clock.next_change_at(tournament.clock, tournament.structure, now)


# ---------------------------------------------------------------- writing

def _control(tournament_id: int, change: Change, key: str, idempotency_key: str | None,
             **params: Any) -> Tournament:
    """Catch up, apply ``change``; record the moved clock (its screens, its level-end
    job) and the log line ``key`` ("Level 5 started"); commit (again if another
    writer won).  A request sent again with its ``idempotency_key`` changes nothing
    (``services.once``): the event as it is now."""

    def unit() -> Tournament:
        tournament = get_tournament(tournament_id)
        if once.applied(tournament_id, idempotency_key):
            return tournament
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
        if clock.has_run(tournament.clock):
            # Kept: time added back to a paused first level, or a cancel, leaves the event
            # started (``Tournament.started``).
            tournament.clock_started = True
            if tournament.status == Status.REGISTERING.value:
                tournament.status = Status.RUNNING.value
        _log_level(key, tournament, now, **params)
        once.remember(tournament_id, idempotency_key, key)
        uow.clock_moved(tournament_id)
        uow.commit()
        return tournament

    return retry_on_conflict(unit, lost=once.LOST)


def _log_level(key: str, tournament: Tournament, now: datetime, **params: Any) -> None:
    """Record a clock change in the director's words, with the level and its time left."""
    structure = tournament.structure
    state = tournament.clock
    index = min(state.level_index, len(structure.levels) - 1)
    uow.log(key, tournament.id, level=audit.level_param(structure, index),
             left={"seconds": int(clock.remaining(state, structure, now))}, **params)


def start(tournament_id: int, idempotency_key: str | None = None) -> Tournament:
    return _control(tournament_id, lambda state, structure, now: clock.start(state, now),
                    "clock started", idempotency_key)


def pause(tournament_id: int, idempotency_key: str | None = None) -> Tournament:
    return _control(tournament_id, lambda state, structure, now: clock.pause(state, now),
                    "clock paused", idempotency_key)


def resume(tournament_id: int, idempotency_key: str | None = None) -> Tournament:
    return _control(tournament_id, lambda state, structure, now: clock.resume(state, now),
                    "clock resumed", idempotency_key)


def next_level(tournament_id: int, idempotency_key: str | None = None) -> Tournament:
    return _control(tournament_id, clock.next_level, "level started", idempotency_key)


def previous_level(tournament_id: int, idempotency_key: str | None = None) -> Tournament:
    return _control(tournament_id, clock.previous_level, "level back", idempotency_key)


def adjust(tournament_id: int, seconds: Any, idempotency_key: str | None = None) -> Tournament:
    """Add (``seconds`` > 0) or remove time from the current level."""
    if not isinstance(seconds, int) or isinstance(seconds, bool):
        raise Invalid({"seconds": _("The adjustment must be a whole number of seconds")})
    if not -ADJUST_LIMIT <= seconds <= ADJUST_LIMIT:
        raise Invalid({"seconds": _("The adjustment must be between -%(limit)s and %(limit)s "
                                    "seconds", limit=ADJUST_LIMIT)})
    return _control(tournament_id,
                    lambda state, structure, now: clock.adjust(state, structure, seconds, now),
                    "time added" if seconds > 0 else "time removed", idempotency_key,
                    time={"seconds": abs(seconds)})


def advance_if_due(tournament_id: int) -> datetime | None:
    """The scheduler's job: apply the level ends due as of now, if any (idempotent).

    Does nothing when the clock was paused, the event is finished or
    cancelled, or the level was already changed by a director or another
    process.  Returns when the next change is due.
    """

    def unit() -> tuple[Tournament | None, datetime]:
        tournament = db.session.get(Tournament, tournament_id)
        now = utcnow()
        if tournament is None:
            return None, now
        if tournament.lifecycle in (Status.FINISHED, Status.CANCELLED):
            return tournament, now      # stopped for good: nothing is ever due
        before = tournament.clock
        after = clock.advance_due(before, tournament.structure, now)
        if after == before:
            return tournament, now
        tournament.clock = after
        _log_level("level started", tournament, now)
        uow.screens(tournament_id, "clock")      # the scheduler moves its own job
        uow.commit()
        return tournament, now

    tournament, now = retry_on_conflict(unit)
    if tournament is None:
        return None
    return next_change(tournament, now)
