"""The room's player list: one record per person, kept across events.

An entry at the desk (``director.services.money``) is linked to its record
with :func:`link`, inside the desk's own unit of work: the record picked from
the desk's suggestions (``person_id``), else the record of the same person's
earlier entry in this event (a re-entry), else the record whose name is the
typed name (case and spaces aside: names are unique on the list), else a new
record.  :func:`entry_name` gives a buy-in taken by record id the record's
name, before anything is written.

The director's own changes to the list (add, edit, import) are in
``director.services.players``; this module is what the desk needs, so that
the money services do not import the history and league services above them.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, or_, select

from director.db import db
from director.models.people import NAME_MAX, Person
from director.models.seating import PLAYER_NAME_MAX, Player
from director.services import Invalid

SUGGESTIONS = 8


def key_of(name: str) -> str:
    """The name as the list compares it: casefolded, single spaces ("ann  BERG" -> "ann berg")."""
    return " ".join(name.split()).casefold()[:NAME_MAX]


def check_player_name(name: Any) -> str:
    """An entry's name, as the desk and the seating take it: not blank, no control
    characters, single spaces, at most ``PLAYER_NAME_MAX`` characters."""
    if not isinstance(name, str) or not name.strip():
        raise Invalid({"name": _("The player needs a name")})
    if any(unicodedata.category(char) == "Cc" for char in name.replace("\t", " ")):
        raise Invalid({"name": _("The name may not contain control characters")})
    name = " ".join(name.split())
    if len(name) > PLAYER_NAME_MAX:
        raise Invalid({"name": _("The name may be at most %(max)s characters long",
                                 max=PLAYER_NAME_MAX)})
    return name


def record(person_id: Any, field: str = "person_id") -> Person:
    """The record ``person_id`` names (a number, or its digits as text), or ``Invalid``."""
    if isinstance(person_id, str) and person_id.strip().isdigit() and len(person_id.strip()) < 19:
        person_id = int(person_id.strip())
    if isinstance(person_id, bool) or not isinstance(person_id, int):
        raise Invalid({field: _("Which player? %(field)s must be a number", field=field)})
    found = db.session.get(Person, person_id) if 0 < person_id < 2**63 else None
    if found is None:
        raise Invalid({field: _("There is no player %(id)s on the player list", id=person_id)})
    return found


def by_name(name: str) -> Person | None:
    return db.session.scalars(select(Person).where(Person.key == key_of(name))).first()


def entry_name(person_id: Any, name: Any) -> Any:
    """The name a buy-in is registered under: the record's, when it is taken by record
    id (``person_id``), else the name as typed (checked by the desk)."""
    if person_id is None or person_id == "":
        return name
    return record(person_id).name


def link(player: Player, person_id: Any = None) -> Person:
    """Link a new entry to its record (creating it for a new name), in the caller's
    transaction.  ``person_id`` was checked by :func:`entry_name` already."""
    found: Person | None = None
    if person_id not in (None, ""):
        found = record(person_id)
    elif player.person_id is not None:
        found = db.session.get(Person, player.person_id)
    if found is None:       # a re-entry: the record of his earlier entry in this event
        earlier = db.session.scalar(select(Player.person_id).where(
            Player.tournament_id == player.tournament_id, Player.id != player.id,
            Player.person_id.is_not(None),
            func.lower(Player.name) == player.name.lower()).limit(1))
        found = db.session.get(Person, earlier) if earlier is not None else by_name(player.name)
    if found is None:
        found = Person(name=check_player_name(player.name),
                       key=key_of(player.name))
        db.session.add(found)
        db.session.flush()
    player.person_id = found.id
    return found


def suggestions(query: Any, limit: int = SUGGESTIONS) -> list[Person]:
    """Records whose name or nickname contains ``query`` (at least 2 characters), names
    that start with it first: what the desk suggests while a name is typed."""
    text = key_of(query) if isinstance(query, str) else ""
    if len(text) < 2:
        return []
    like = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    found = db.session.scalars(select(Person).where(or_(
        Person.key.like(like, escape="\\"),
        func.lower(Person.nickname).like(like, escape="\\"))).order_by(Person.key).limit(200))
    ranked = sorted(found, key=lambda p: (not p.key.startswith(text), p.key))
    return ranked[:limit]
