"""Tournament services: create, edit the structure, import and export it; the event's life.

Each function is one unit of work; the structure is validated by
``director.tournament.structure`` on every save (the model's validator), and
each error names its field (``"levels[3].big_blind"``).

The event's life (``director.tournament.lifecycle``): :func:`finish_event` is
called inside the unit of work that ends the event (the elimination that
leaves one player, a deal that shares out all the money left); every writing
service of the desk, the money and the seating starts with :func:`verify_open`;
:func:`reopen` and :func:`cancel` are the director's own actions, logged.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from director.db import db, utcnow
from director.i18n import LANGUAGES, translate_errors, translate_violation
from director.models import Tournament
from director.models.tournament import NAME_MAX, check_limits
from director.poker.errors import RuleViolation
from director.services import Invalid, audit, retry_on_conflict
from director.services.clock import announce, get_tournament, winner
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


def create_tournament(name: Any, levels: Any, language: Any = None) -> Tournament:
    """A new tournament with its structure; the clock is not started."""
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
    db.session.commit()
    return tournament


def create_from_template(name: Any, template_name: Any, language: Any = None) -> Tournament:
    """A new tournament whose structure is a copy of a shipped template."""
    try:
        structure = template(template_name)
    except StructureError as exc:
        raise Invalid(translate_errors(exc.errors)) from None
    return create_tournament(name, [level.to_json() for level in structure.levels], language)


def update_levels(tournament_id: int, levels: Any, name: Any = None) -> Tournament:
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
        db.session.commit()
        return tournament, now

    tournament, now = retry_on_conflict(work)
    announce(tournament, now)
    return tournament


def import_structure(tournament_id: int, data: Any) -> Tournament:
    """Replace the structure with an exported one (``{"name", "levels"}`` or its JSON text)."""
    try:
        structure = parse_structure(data)
    except StructureError as exc:
        raise Invalid({(k if k else "structure"): v
                       for k, v in translate_errors(exc.errors).items()}) from None
    return update_levels(tournament_id, [level.to_json() for level in structure.levels])


def set_language(tournament_id: int, language: Any) -> Tournament:
    """Set (or clear, with "" or None) the event's default language."""
    code = check_language(language)

    def work() -> Tournament:
        tournament = get_tournament(tournament_id)
        tournament.language = code
        db.session.commit()
        return tournament

    return retry_on_conflict(work)


# ---------------------------------------------------------------- the event's life

def verify_open(tournament_id: int) -> Tournament:
    """The guard of every change to an event: ``Invalid({"event": reason})`` once it is
    finished or cancelled ("The event is finished: reopen it to change it")."""
    tournament = get_tournament(tournament_id)
    try:
        lifecycle.verify_open(tournament.lifecycle)
    except RuleViolation as exc:
        db.session.rollback()
        raise Invalid({"event": translate_violation(exc)}) from None
    return tournament


def verify_open_for_undone_bust(tournament_id: int) -> None:
    """The guard of a dealer's undo of a hand that busted players (``seating.reinstate``).

    Undoing the very hand that left one player takes back the end of the event
    with it: the winner it crowned is uncrowned, so the event is running again
    (its clock stays paused until the director resumes it).  Any other
    finished or cancelled event refuses, as :func:`verify_open` does.  No
    commit: part of the caller's unit of work.
    """
    tournament = get_tournament(tournament_id)
    if tournament.lifecycle is lifecycle.Status.FINISHED and winner(tournament_id) is not None:
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
    return _("The event is finished: the clock is stopped")


def _change_status(tournament_id: int, change: str) -> Tournament:
    def work() -> tuple[Tournament, datetime, str]:
        tournament = get_tournament(tournament_id)
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
        db.session.commit()
        return tournament, now, before.value

    tournament, now, before = retry_on_conflict(work)
    audit.record(f"tournament {change}", f"tournament {tournament.id}: {tournament.name}",
                 details={"tournament_id": tournament.id, "from": before,
                          "to": tournament.status})
    announce(tournament, now)
    return tournament


def reopen(tournament_id: int) -> Tournament:
    """The director reopens a finished or cancelled event: it may change again (logged).

    The clock stays paused where it stopped; the director resumes it.
    """
    return _change_status(tournament_id, "reopen")


def cancel(tournament_id: int) -> Tournament:
    """The director calls the event off: frozen like a finished one, clock stopped (logged)."""
    return _change_status(tournament_id, "cancel")


def export_structure(tournament_id: int) -> dict[str, Any]:
    tournament = get_tournament(tournament_id)
    return Structure(tournament.structure.levels, tournament.name).to_json()


def count() -> int:
    return db.session.scalar(select(func.count()).select_from(Tournament)) or 0


def create_demo_if_empty() -> Tournament | None:
    """The demo event, the first time only: see ``director.services.demo``."""
    from director.services import demo  # noqa: PLC0415  (demo builds on this module)

    created = demo.create_demo_if_empty()
    return None if created is None else created.tournament
