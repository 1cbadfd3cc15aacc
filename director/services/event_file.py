"""The event's file: the structure export with the whole event's settings, and its import.

One JSON object (``GET /api/tournaments/<id>/structure``, the tournament page's
**Export structure**)::

    {"format": "director-event/2", "name": "Friday PLO", "levels": [...],
     "language": "sv" | null,
     "money": {...the body of PUT money/settings...} | null,
     "seating": {...the body of POST seating/settings...} | null,
     "house_rules": {...the body of POST house-rules...} | null}

``null`` (or a missing key) means "not set": the import leaves that part as it
is.  The old format, ``{"name", "levels"}`` without ``format`` (version 1,
also written ``"director-event/1"``), imports as before (only its levels and
its name); a file of another version is refused naming it ("This file is
format version 3; this program reads versions 1 and 2").

All or nothing: each part is checked before anything is written, so a file
with a bad field changes nothing and names the field ("money.buy_in: ...").
The import then saves the structure and the name, the language, the money
settings, the seating settings and the house rules, each through its own
service (each logged in the director's words), all in ONE database
transaction (:func:`one_transaction`), one unit of work (``services.uow``): a
rule only a service knows (a bounty event without a bounty, a rounding unit
finer than the currency's cents) refuses the file after the levels were saved,
and then nothing of it stays, nothing of it is logged, and the screens hear of
none of it; a file that is saved is told once, after its one commit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from flask_babel import gettext as _
from sqlalchemy.orm import Session

from director.db import db
from director.i18n import translate_errors
from director.models.house import HouseRules
from director.models.seating import SeatingSettings
from director.models.tournament import Tournament
from director.schemas import HOUSE_RULES, MONEY_SETTINGS, SEATING_SETTINGS, load_json
from director.services import Invalid, get_tournament, house_rules, money, seating, tournaments, uow
from director.tournament.structure import StructureError, parse_structure

FORMAT = "director-event/2"
VERSIONS = (1, 2)               # the versions this program reads; no "format": version 1
_FORMAT = re.compile(r"director-event/([0-9]{1,9})")
PARTS = {"money": MONEY_SETTINGS, "seating": SEATING_SETTINGS, "house_rules": HOUSE_RULES}


def export_event(tournament_id: int) -> dict[str, Any]:
    """The whole event's settings, with its structure and its name (see the module)."""
    tournament = get_tournament(tournament_id)
    seats = db.session.get(SeatingSettings, tournament_id)
    rules = db.session.get(HouseRules, tournament_id)
    return {
        "format": FORMAT,
        **tournaments.export_structure(tournament_id),
        "language": tournament.language,
        "money": money.settings_form(tournament_id),
        "seating": dict(seats.policy) if seats is not None and seats.policy else None,
        "house_rules": house_rules.view(tournament_id)["house_rules"] if rules is not None
        else None,
    }


def read(data: Any) -> dict[str, Any]:
    """An event file (an object or its JSON text), checked: ``{"name", "levels",
    "language", "money", "seating", "house_rules"}``; raises ``Invalid`` naming each
    bad field, before anything is written."""
    if isinstance(data, bytes):       # a file: UTF-8, or UTF-16/32 (json's own detection)
        try:
            data = data.decode(json.detect_encoding(data))
        except UnicodeDecodeError:
            raise Invalid({"structure": _("The file is not UTF-8: save it as UTF-8")}) from None
    if isinstance(data, str):
        try:
            data = load_json(data)
        except ValueError as exc:
            raise Invalid({"structure": _("This is not valid JSON: %(problem)s",
                                          problem=exc)}) from None
    if isinstance(data, Mapping):
        check_format(data.get("format"))
    if not isinstance(data, Mapping) or "levels" not in data:
        raise Invalid({"structure": _("A structure is an object with “name” and “levels”")})
    errors: dict[str, str] = {}
    out: dict[str, Any] = {"name": None, "levels": None, "language": None}
    try:
        structure = parse_structure({"name": data.get("name") or "", "levels": data["levels"]})
        out["levels"] = [level.to_json() for level in structure.levels]
        out["name"] = structure.name or None
    except StructureError as exc:
        errors.update({(k if k else "structure"): v
                       for k, v in translate_errors(exc.errors).items()})
    try:
        out["language"] = tournaments.check_language(data.get("language"))
    except Invalid as exc:
        errors.update(exc.errors)
    for part, schema in PARTS.items():
        body = data.get(part)
        out[part] = None
        if body is None:
            continue
        if not isinstance(body, Mapping):
            errors[part] = _("This part of the file must be an object of settings")
            continue
        try:
            schema.load(dict(body))
        except Invalid as exc:
            errors.update({f"{part}.{field}": message for field, message in exc.errors.items()})
        out[part] = dict(body)
    if errors:
        raise Invalid(errors)
    return out


def check_format(stated: Any) -> None:
    """The file's ``format``: absent (version 1) or ``director-event/<version>`` of a
    version this program reads; otherwise ``Invalid`` naming the version."""
    if stated is None:
        return
    match = _FORMAT.fullmatch(stated) if isinstance(stated, str) else None
    if match is None:
        raise Invalid({"format": _("This is not an event file of this program (its format "
                                   "is “%(format)s”)", format=str(stated)[:60])})
    if int(match[1]) not in VERSIONS:
        raise Invalid({"format": _("This file is format version %(version)s; this program "
                                   "reads versions 1 and 2", version=int(match[1]))})


@contextmanager
def one_transaction() -> Iterator[None]:
    """The services called inside write into ONE database transaction, committed at
    the end of the block and rolled back if it raises: one unit of work.

    Each service commits its own unit of work; here its session is joined to an
    outer transaction (SQLAlchemy's ``join_transaction_mode="create_savepoint"``),
    so that its commit releases a savepoint and its rollback (``Invalid``) returns
    to it.  On SQLite the transaction takes the write lock at once (``BEGIN
    IMMEDIATE``: savepoints need a real BEGIN under the sqlite3 driver).  What the
    services record (their log lines, the screens they change, the clock job) is
    kept by the unit of work (``uow.hold``) and dispatched once, after the outer
    commit; a rollback drops it with the session.
    """
    previous = db.session()
    previous.rollback()                 # no read transaction of the caller stays open
    with db.engine.connect() as connection:
        transaction = connection.begin()
        raw = connection.connection.dbapi_connection
        if connection.dialect.name == "sqlite" and not getattr(raw, "in_transaction", True):
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        session = Session(bind=connection, join_transaction_mode="create_savepoint")
        uow.hold(session)
        db.session.registry.set(session)  # type: ignore[arg-type]  # a plain Session will do
        try:
            yield
            session.flush()
            transaction.commit()
            told = uow.take(session)
        except BaseException:
            transaction.rollback()
            raise
        finally:
            session.close()
            db.session.registry.set(previous)
    previous.expire_all()
    uow.tell(told)                      # the whole file, told once


def import_event(tournament_id: int, data: Any) -> Tournament:
    """Replace the structure, the name and every setting the file carries (see the module),
    all or nothing.

    The old format (``{"name", "levels"}``) replaces the levels and the name only.
    """
    event = read(data)
    get_tournament(tournament_id)
    with one_transaction():
        tournaments.update_levels(tournament_id, event["levels"], name=event["name"],
                                  logged_as="structure imported")
        _save_settings(tournament_id, event)
    return get_tournament(tournament_id)


def create_event(name: Any, event: Mapping[str, Any],
                 idempotency_key: str | None = None) -> Tournament:
    """A new event from a checked event file (:func:`read`), named ``name`` (or the
    file's name), with every setting the file carries; all or nothing."""
    with one_transaction():
        tournament_id = tournaments.create_tournament(name or event["name"], event["levels"],
                                                      idempotency_key=idempotency_key).id
        _save_settings(tournament_id, event)
    return get_tournament(tournament_id)


def apply_settings(tournament_id: int, event: Mapping[str, Any]) -> None:
    """Save the settings parts of a checked event file (:func:`read`) that it carries,
    all or nothing."""
    with one_transaction():
        _save_settings(tournament_id, event)


def _save_settings(tournament_id: int, event: Mapping[str, Any]) -> None:
    if event.get("language"):
        tournaments.set_language(tournament_id, event["language"])
    for part, save in (("money", money.save_settings), ("seating", seating.configure),
                       ("house_rules", house_rules.save)):
        if event.get(part) is not None:
            try:
                save(tournament_id, event[part])
            except Invalid as exc:
                raise Invalid({f"{part}.{field}": message
                               for field, message in exc.errors.items()}) from None
