"""Tournament services: create, edit the structure, import and export it; the event's life.

Each function is one unit of work; the structure is validated by
``director.tournament.structure`` on every save (the model's validator), and
each error names its field (``"levels[3].big_blind"``).

The event's life (``director.tournament.lifecycle``): :func:`finish_event` is
called inside the unit of work that ends the event (the elimination that
leaves one player, a deal that shares out all the money left); every writing
service of the desk, the money and the seating starts with :func:`verify_open`;
:func:`reopen` and :func:`cancel` are the director's own actions, logged.

Putting events away: :func:`archive` hides one from the director's list,
:func:`duplicate` starts a new event from one as a template, and
:func:`delete_event` removes one after a backup that keeps it; all logged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any
from zoneinfo import available_timezones

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError

from director.db import db, for_transaction, utcnow, write_lock
from director.i18n import LANGUAGES, N_, translate_errors, translate_violation
from director.models import Tournament
from director.models.house import HouseRules
from director.models.money import MoneySettings
from director.models.seating import Player, SeatingSettings
from director.models.tournament import NAME_MAX, check_limits
from director.poker.errors import RuleViolation
from director.schemas import load_json
from director.services import (
    Invalid,
    audit,
    backup,
    deleted_event,
    get_tournament,
    once,
    retry_on_conflict,
    uow,
)
from director.tournament import clock, lifecycle
from director.tournament.structure import (
    TEMPLATES,
    Structure,
    StructureError,
    parse_levels,
    parse_structure,
    template,
)

DEMO_TEMPLATE = "plo-standard"


def check_name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise Invalid({"name": _("The tournament needs a name")})
    if any(ord(char) < 32 or ord(char) == 127 for char in name.replace("\t", " ")):
        raise Invalid({"name": _("The name may not contain control characters")})
    name = " ".join(name.split())
    if len(name) > NAME_MAX:
        raise Invalid({"name": _("The name may be at most %(max)s characters long", max=NAME_MAX)})
    return name


def list_tournaments() -> list[Tournament]:
    return list(db.session.scalars(select(Tournament).order_by(Tournament.created_at.desc(),
                                                               Tournament.id.desc())))


def templates() -> dict[str, Structure]:
    return dict(TEMPLATES)


def check_language(language: Any) -> str | None:
    """An event language: one of ``LANGUAGES``, or empty/None for "each screen's browser"."""
    if language is None or language == "":
        return None
    if not isinstance(language, str) or language not in LANGUAGES:
        raise Invalid({"language": _("The language must be one of %(codes)s",
                                     codes=", ".join(LANGUAGES))})
    return language


def create_tournament(name: Any, levels: Any, language: Any = None,
                      idempotency_key: str | None = None) -> Tournament:
    """A new tournament with its structure; the clock is not started.  Its request's
    ``idempotency_key`` is kept on it (:func:`made_once`)."""
    errors: dict[str, str] = {}
    clean_language = None
    try:
        clean_name = check_name(name)
    except Invalid as exc:
        errors.update(exc.errors)
    try:
        clean_language = check_language(language)
    except Invalid as exc:
        errors.update(exc.errors)
    try:
        parsed = parse_levels(levels)
        check_limits(parsed)
    except StructureError as exc:
        errors.update(translate_errors(exc.errors))
    if errors:
        raise Invalid(errors)
    tournament = Tournament(name=clean_name, levels=[level.to_json() for level in parsed],
                            language=clean_language)
    db.session.add(tournament)
    db.session.flush()
    uow.log("event created", tournament.id, name=tournament.name)
    once.remember_made(tournament, idempotency_key)
    uow.commit()
    return tournament


def made_once(key: str | None, make: Callable[[str | None], Tournament]) -> tuple[Tournament, bool]:
    """``make(key)``, an event made by a request (a new one, a copy), once for its key
    (``once.made_once``): sent again, the event the first made, and True."""
    return once.made_once(Tournament, key, make)


def create_from_template(name: Any, template_name: Any, language: Any = None,
                         idempotency_key: str | None = None) -> Tournament:
    """A new tournament whose structure is a copy of a shipped template."""
    try:
        structure = template(template_name)
    except StructureError as exc:
        raise Invalid(translate_errors(exc.errors)) from None
    return create_tournament(name, [level.to_json() for level in structure.levels], language,
                             idempotency_key)


def update_levels(tournament_id: int, levels: Any, name: Any = None,
                  logged_as: str = "structure saved") -> Tournament:
    """Replace the structure (and optionally the name) of a tournament.

    A running clock keeps its place: its level index stays, and if the new
    structure is shorter the clock moves to the new last entry.
    """

    def work() -> tuple[Tournament, datetime]:
        tournament = get_tournament(tournament_id)
        errors: dict[str, str] = {}
        if name is not None:
            try:
                tournament.name = check_name(name)
            except Invalid as exc:
                errors.update(exc.errors)
        try:
            tournament.levels = levels
        except StructureError as exc:
            errors.update(translate_errors(exc.errors))
        if errors:
            db.session.rollback()
            raise Invalid(errors)
        now = utcnow()
        structure = tournament.structure
        if tournament.level_index >= len(structure.levels):
            tournament.clock = clock.jump(tournament.clock, structure, len(structure.levels) - 1, now)
        breaks = sum(1 for level in structure.levels if level.is_break)
        uow.log(logged_as, tournament.id, levels={"levels": len(structure.levels) - breaks},
                breaks={"breaks": breaks})
        uow.clock_moved(tournament_id, "structure")
        uow.commit()
        return tournament, now

    tournament, _now = retry_on_conflict(work)
    return tournament


def import_structure(tournament_id: int, data: Any) -> Tournament:
    """Replace the structure with an exported one (``{"name", "levels"}`` or its JSON text)."""
    if isinstance(data, str | bytes):
        try:   # the text of a form: no deeper than a body may nest (schemas.load_json)
            data = load_json(data)
        except ValueError as exc:
            raise Invalid({"structure": _("This is not valid JSON: %(problem)s",
                                          problem=exc)}) from None
    try:
        structure = parse_structure(data)
    except StructureError as exc:
        raise Invalid({(k if k else "structure"): v
                       for k, v in translate_errors(exc.errors).items()}) from None
    return update_levels(tournament_id, [level.to_json() for level in structure.levels],
                         logged_as="structure imported")


def set_language(tournament_id: int, language: Any) -> Tournament:
    """Set (or clear, with "" or None) the event's default language."""
    code = check_language(language)

    def work() -> Tournament:
        tournament = get_tournament(tournament_id)
        tournament.language = code
        uow.commit()
        return tournament

    return retry_on_conflict(work)


# ---------------------------------------------------------------- the event's life

def verify_open(tournament_id: int) -> Tournament:
    """The guard of every change to an event: ``Invalid({"event": reason})`` once it is
    finished or cancelled ("The event is finished: reopen it to change it")."""
    tournament = get_tournament(tournament_id)
    _hold_event(tournament_id)
    try:
        lifecycle.verify_open(tournament.lifecycle)
    except RuleViolation as exc:
        db.session.rollback()
        raise Invalid({"event": translate_violation(exc)}) from None
    return tournament


def _hold_event(tournament_id: int) -> None:
    """PostgreSQL: the event's row ``FOR KEY SHARE`` until this unit of work ends, so
    that a delete (``FOR UPDATE``, :func:`delete_event`) waits for this write, or this
    write for the delete, and then finds the event gone (``NotFound``).  Key-share
    locks do not stand in each other's way, nor in the way of updates of the row (the
    clock).  SQLite takes one writer at a time anyway: nothing to do."""
    if db.session.get_bind().dialect.name == "sqlite":
        return
    # Taken once per transaction (a sale's entry verified it, then its seat did too); a
    # savepoint's lock goes with its rollback, so a savepoint takes its own.
    held_here = for_transaction(HELD_EVENTS, savepoint=True)
    if tournament_id in held_here:
        return
    held = db.session.execute(select(Tournament.id).where(Tournament.id == tournament_id)
                              .with_for_update(read=True, key_share=True)).scalar()
    if held is None:
        db.session.rollback()
        raise deleted_event(tournament_id)
    held_here[tournament_id] = True


HELD_EVENTS = "director.tournaments.held"   # for_transaction: the events it holds


def _winner_crowned(tournament_id: int) -> bool:
    """The last elimination crowned a winner: a player in first place still in."""
    return db.session.scalar(select(Player.id).where(
        Player.tournament_id == tournament_id, Player.place == 1,
        Player.status == "active").limit(1)) is not None


def verify_open_for_undone_bust(tournament_id: int) -> None:
    """The guard of a dealer's undo of a hand that busted players (``seating.reinstate``).

    Undoing the very hand that left one player takes back the end of the event
    with it: the winner it crowned is uncrowned, so the event is running again
    (its clock stays paused until the director resumes it).  Any other
    finished or cancelled event refuses, as :func:`verify_open` does.  No
    commit: part of the caller's unit of work.
    """
    tournament = get_tournament(tournament_id)
    if tournament.lifecycle is lifecycle.Status.FINISHED and _winner_crowned(tournament_id):
        tournament.status = lifecycle.reopen(tournament.lifecycle,
                                             started=tournament.started).value
        tournament.finished_at = None
        return
    verify_open(tournament_id)


def _stop_clock(tournament: Tournament, now: datetime) -> None:
    """Pause the clock at the level it has reached (level ends already due applied)."""
    structure = tournament.structure
    state = clock.advance_due(tournament.clock, structure, now)
    tournament.clock = clock.pause(state, now) if state.running else state


def players_in(tournament_id: int) -> list[Any]:
    """The players still in, by name (``id``, ``name``, ``chips``): the phone's bust form."""
    return list(db.session.execute(select(Player.id, Player.name, Player.chips).where(
        Player.tournament_id == tournament_id, Player.status == "active")
        .order_by(Player.name, Player.id)))


def stop_clock(tournament_id: int, now: datetime) -> None:
    """Pause the event's clock where it is (a satellite whose seats are decided).  Does
    not commit: part of the caller's unit of work, which publishes the clock state."""
    _stop_clock(get_tournament(tournament_id), now)
    uow.clock_moved(tournament_id)


def finish_event(tournament_id: int, now: datetime | None = None) -> str:
    """The event is over: mark it finished and stop its clock where it is.

    Does not commit: it is part of the caller's unit of work (the last
    elimination, the deal that shares out everything), which commits and
    publishes the clock state.  Returns the sentence for the caller's log.
    """
    tournament = get_tournament(tournament_id)
    now = now or utcnow()
    tournament.status = lifecycle.finish(tournament.lifecycle).value
    tournament.finished_at = now
    _stop_clock(tournament, now)
    uow.log("event finished", tournament_id)
    uow.clock_moved(tournament_id)
    return audit.Said(N_("The event is finished: the clock is stopped"))


def _change_status(tournament_id: int, change: str,
                   idempotency_key: str | None) -> Tournament:
    def work() -> tuple[Tournament, datetime, str] | None:
        tournament = get_tournament(tournament_id)
        if once.applied(tournament_id, idempotency_key):
            return None                     # sent again: applied already
        now = utcnow()
        before = tournament.lifecycle
        try:
            if change == "reopen":
                after = lifecycle.reopen(before, started=tournament.started)
            else:
                after = lifecycle.cancel(before)
        except RuleViolation as exc:
            db.session.rollback()
            raise Invalid({"event": translate_violation(exc)}) from None
        tournament.status = after.value
        if after is lifecycle.Status.CANCELLED:
            tournament.finished_at = now
            _stop_clock(tournament, now)
        else:
            tournament.finished_at = None
        uow.log("event reopened" if change == "reopen" else "event cancelled", tournament.id)
        once.remember(tournament_id, idempotency_key, change)
        uow.clock_moved(tournament_id)
        uow.commit()
        return tournament, now, before.value

    done = retry_on_conflict(work, lost=once.LOST)
    if done is None:
        return get_tournament(tournament_id)
    tournament, _now, before = done
    audit.record(f"tournament {change}", f"tournament {tournament.id}: {tournament.name}",
                 details={"tournament_id": tournament.id, "from": before,
                          "to": tournament.status})
    return tournament


def reopen(tournament_id: int, idempotency_key: str | None = None) -> Tournament:
    """The director reopens a finished or cancelled event: it may change again (logged).

    The clock stays paused where it stopped; the director resumes it.  Sent again
    with its ``idempotency_key``, it changes nothing (``services.once``).
    """
    return _change_status(tournament_id, "reopen", idempotency_key)


def cancel(tournament_id: int, idempotency_key: str | None = None) -> Tournament:
    """The director calls the event off: frozen like a finished one, clock stopped (logged)."""
    return _change_status(tournament_id, "cancel", idempotency_key)


def export_structure(tournament_id: int) -> dict[str, Any]:
    tournament = get_tournament(tournament_id)
    return Structure(tournament.structure.levels, tournament.name).to_json()


def count() -> int:
    return db.session.scalar(select(func.count()).select_from(Tournament)) or 0


# ---------------------------------------------------------------- put away, copy, delete

def _verify_clock_stopped(tournament: Tournament, refusal: str) -> None:
    """Archiving or deleting waits for a stopped clock: a click on the wrong row of the
    list must not hide or remove the event being played."""
    if tournament.running:
        db.session.rollback()
        raise Invalid({"event": refusal})


def list_events(*, with_archived: bool = False) -> list[Tournament]:
    """The director's list: newest first, without the archived events unless asked."""
    query = select(Tournament).order_by(Tournament.created_at.desc(), Tournament.id.desc())
    if not with_archived:
        query = query.where(Tournament.archived_at.is_(None))
    return list(db.session.scalars(query))


def archived_count() -> int:
    return db.session.scalar(select(func.count()).select_from(Tournament).where(
        Tournament.archived_at.is_not(None))) or 0


def _put_away(tournament_id: int, archive: bool) -> Tournament:
    def work() -> tuple[Tournament, bool]:
        tournament = get_tournament(tournament_id)
        if archive and tournament.archived_at is None:
            _verify_clock_stopped(tournament, _(
                "The clock is running: pause it before archiving the event"))
            tournament.archived_at = utcnow()
        elif not archive and tournament.archived_at is not None:
            tournament.archived_at = None
        else:
            db.session.rollback()
            return tournament, False                # already so: nothing to change or log
        uow.log("event archived" if archive else "event unarchived", tournament.id)
        uow.commit()
        return tournament, True

    tournament, changed = retry_on_conflict(work)
    if changed:
        action = "tournament archive" if archive else "tournament unarchive"
        audit.record(action, f"tournament {tournament.id}: {tournament.name}",
                     details={"tournament_id": tournament.id})
    return tournament


def archive(tournament_id: int) -> Tournament:
    """Put the event away: hidden from the director's default list, kept whole (logged).

    Nothing else changes: its pages, results and screens still answer, and
    :func:`unarchive` lists it again.  Refused while its clock runs.
    """
    return _put_away(tournament_id, archive=True)


def unarchive(tournament_id: int) -> Tournament:
    """List an archived event again (logged)."""
    return _put_away(tournament_id, archive=False)


def copy_name(name: str) -> str:
    """The name of a copy: "Friday PLO (copy)", cut to fit ``NAME_MAX``."""
    suffix = " " + _("(copy)")
    return name[: NAME_MAX - len(suffix)].rstrip() + suffix


def duplicate(tournament_id: int, name: Any = None,
              idempotency_key: str | None = None) -> Tournament:
    """A new event made from this one as a template (logged).

    Copied: the structure and its chip set, the language and time zone, the
    money settings (buy-in, stack, rebuys, payouts...), the seating settings
    and the house rules.  Not copied: players, payments, seats, the deal, the
    locked payout table, the clock (the copy is registering), the
    hand-for-hand state and the projector's announcement.
    """
    source = get_tournament(tournament_id)
    clean_name = check_name(name if name not in (None, "") else copy_name(source.name))
    copy = Tournament(name=clean_name, levels=list(source.levels), language=source.language,
                      time_zone=source.time_zone,
                      chip_set=list(source.chip_set) if source.chip_set else None)
    db.session.add(copy)
    db.session.flush()
    money = db.session.get(MoneySettings, tournament_id)
    if money is not None:
        db.session.add(MoneySettings(tournament_id=copy.id, settings=dict(money.settings or {})))
    seating = db.session.get(SeatingSettings, tournament_id)
    if seating is not None:
        # A colour-up made the next chip the smallest in play: the copy starts from the
        # chip set's own smallest chip again (the default), as the original did.
        policy = {k: v for k, v in (seating.policy or {}).items() if k != "smallest_chip"}
        db.session.add(SeatingSettings(tournament_id=copy.id, policy=policy,
                                       starting_chips=seating.starting_chips, hand_for_hand={}))
    rules = db.session.get(HouseRules, tournament_id)
    if rules is not None:
        db.session.add(HouseRules(tournament_id=copy.id, hand=dict(rules.hand or {}),
                                  rulings=dict(rules.rulings or {})))
    uow.log("event duplicated", copy.id, name=copy.name, source=source.name)
    once.remember_made(copy, idempotency_key)
    uow.commit()
    audit.record("tournament duplicate", f"tournament {copy.id}: {copy.name}",
                 details={"tournament_id": copy.id, "from": tournament_id})
    return copy


def delete_event(tournament_id: int) -> str:
    """Delete the event and everything in it, after a backup of the whole database that
    keeps it (``services.backup``; ``instance/backups/deleted-event-<id>-<time>``).

    One unit of work that nothing else writes into (issue 26): the database's write lock
    is taken first (:func:`_held_for_delete`), then the event is checked, backed up and
    deleted, and only then is the lock let go.  A buy-in or any other write to the event
    that comes while it is held waits, and finds the event gone: it is refused ("Event 8
    was deleted"), never answered and then lost.  Everything committed before is in the
    backup.  The backup's name is its own (``backup.new_backup``).

    No backup, no delete: a backup that fails refuses with its reason and
    changes nothing.  Refused while the clock runs.  Logged with the backup's
    path; returns that path, for the director's message.  The event's caches (its
    clock state, the dealer's hands) are forgotten by the dispatcher, which finds the
    event gone (``uow.reschedule``: no event, no job).
    """
    app = current_app._get_current_object()  # type: ignore[attr-defined]
    with _held_for_delete(tournament_id):
        tournament = get_tournament(tournament_id)
        _verify_clock_stopped(tournament, _("The clock is running: pause it before deleting "
                                            "the event"))
        name = tournament.name
        try:
            path = backup.new_backup(app, f"deleted-event-{tournament_id}")
        except (backup.BackupError, OSError, sqlite3.Error) as exc:
            db.session.rollback()
            raise Invalid({"backup": _("The backup before deleting failed, so nothing was "
                                       "deleted: %(reason)s", reason=str(exc))}) from None
        db.session.delete(tournament)            # the database cascades the rest
        uow.log("event deleted", tournament_id, name=name, backup=path.name)
        uow.reschedule(tournament_id)            # no event, no job, no cached hands
        db.session.commit()
    uow.dispatch()                               # once the write lock is let go
    audit.record("tournament delete", f"tournament {tournament_id}: {name}",
                 details={"tournament_id": tournament_id, "backup": str(path)})
    return str(path)


@contextmanager
def _held_for_delete(tournament_id: int) -> Iterator[None]:
    """The event held against every other writer until the delete commits.

    SQLite: this process's write lock (``db.write_lock``: the grouped dealer writes
    queue behind it), then ``BEGIN IMMEDIATE``, the database's own write lock, which
    other processes and the other connections wait for (their busy timeout).  Readers
    go on, the backup among them: it copies exactly what was committed before.
    PostgreSQL: ``SELECT ... FOR UPDATE`` on the event's row; every write to an event
    first takes that row ``FOR KEY SHARE`` (:func:`verify_open`, and the foreign keys
    of new rows), so it waits, then finds the event gone.
    """
    db.session.rollback()
    connection = db.session.connection()          # a connection first, then the lock
    if connection.dialect.name != "sqlite":
        connection.execute(select(Tournament.id).where(Tournament.id == tournament_id)
                           .with_for_update())
        try:
            yield
        finally:
            db.session.rollback()                  # nothing, once committed
        return
    with write_lock:
        try:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        except OperationalError:               # another process wrote past the busy timeout
            db.session.rollback()
            raise Invalid({"event": _("The database is busy with another write: nothing was "
                                      "deleted. Try again in a moment")}) from None
        try:
            yield
        finally:
            db.session.rollback()


# ---------------------------------------------------------------- the bubble, the money

def set_time_zone(tournament_id: int, name: Any) -> Tournament:
    """The event's time zone (an IANA name such as "Europe/Stockholm"; empty: the
    setting or the laptop's zone).  Times are stored in UTC; this is how they are read."""
    text = str(name or "").strip()
    if text and text not in available_timezones():
        raise Invalid({"time_zone": _("Unknown time zone “%(name)s”: pick one from the list, "
                                      "e.g. Asia/Jakarta or Europe/Stockholm", name=text[:64])})
    tournament = get_tournament(tournament_id)
    before = tournament.time_zone
    tournament.time_zone = text or None
    uow.commit()
    audit.record("tournament time zone", f"tournament {tournament.id}: {tournament.name}",
                 details={"from": before, "to": tournament.time_zone})
    return tournament
