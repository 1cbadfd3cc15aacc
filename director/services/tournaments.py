"""Tournament services: create, edit the structure, import and export it.

Each function is one unit of work; the structure is validated by
``director.tournament.structure`` on every save (the model's validator), and
each error names its field (``"levels[3].big_blind"``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from director.db import db, utcnow
from director.i18n import LANGUAGES, translate_errors
from director.models import Tournament
from director.models.tournament import NAME_MAX, check_limits
from director.services import Invalid, retry_on_conflict
from director.services.clock import announce, get_tournament
from director.tournament import clock
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
