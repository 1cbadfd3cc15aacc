"""Players across events: the director's player list and each player's history.

Each writing function is one unit of work (STYLE.md): check, write, record the
log line (``uow.log``), commit.  Bad input raises ``Invalid`` naming the field
and changes nothing.

* The list: :func:`create_record`, :func:`update_record`, :func:`list_records`
  (with each record's events, entries and last event, from the entries).
* :func:`history`: every event a record's entries played, archived ones too:
  the buy-ins, re-entries, rebuys and add-ons paid (the ledger), the place and
  prize (``director.services.money.results``) and the bounties won;
  :func:`all_totals`, each record's totals over every event.

Beside it: the leagues (``services.league``) and the list's CSV file
(``services.players_csv``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import func, select

from director.db import db
from director.i18n import N_
from director.models.money import Payment
from director.models.people import (
    EMAIL_MAX,
    NICKNAME_MAX,
    NOTE_MAX,
    PHONE_MAX,
    Person,
    PersonWord,
)
from director.models.seating import Player
from director.models.tournament import Tournament
from director.services import Invalid, NotFound, all_or_nothing, once, people, uow
from director.services import money as money_service
from director.services import seating as seating_service

CONFLICT = {"name": N_("Someone else changed the player list at the same moment: reload the "
                       "page and try again")}
unit_of_work = all_or_nothing(CONFLICT)

FIELDS = ("name", "nickname", "email", "phone", "note")
FIELD_LABELS = {"name": N_("Name"), "nickname": N_("Nickname"), "email": N_("E-mail"),
                "phone": N_("Phone"), "note": N_("Note")}
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
PHONE = re.compile(r"[0-9+\-() ./]*")
SALES = ("buy-in", "re-entry", "rebuy", "add-on")


# ---------------------------------------------------------------- checking a record

def _text(value: Any, name: str, limit: int) -> str | None:
    """An optional text field: None when empty; a sentence naming it when bad."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise Invalid({name: _("Give text")})
    text = " ".join(value.split()) if name != "note" else value.strip()
    if any(unicodedata.category(char) == "Cc" or char in people.TEXT_TURNING
           for char in text.replace("\n", " ").replace("\r", " ").replace("\t", " ")):
        raise Invalid({name: _("This text contains a forbidden character")})
    if len(text) > limit:
        raise Invalid({name: _("Use at most %(max)s characters", max=limit)})
    return text or None


def clean_record(data: Mapping[str, Any], *, partial: bool = False) -> dict[str, Any]:
    """The record's fields as stored, every bad one named (``partial``: only those given)."""
    values: dict[str, Any] = {}
    errors: dict[str, str] = {}
    checks = {"nickname": NICKNAME_MAX, "email": EMAIL_MAX, "phone": PHONE_MAX, "note": NOTE_MAX}
    for name in FIELDS:
        if partial and name not in data:
            continue
        try:
            if name == "name":
                values[name] = seating_service.check_player_name(data.get(name))
            else:
                values[name] = _text(data.get(name), name, checks[name])
        except Invalid as exc:
            errors.update(exc.errors)
    if values.get("email") and not EMAIL.fullmatch(values["email"]):
        errors["email"] = _("Give an e-mail address like ann@example.com")
    if values.get("phone") and not PHONE.fullmatch(values["phone"]):
        errors["phone"] = _("A phone number is digits, spaces and + - ( ) . /")
    if errors:
        raise Invalid(errors)
    return values


def _verify_name_free(name: str, person_id: int | None) -> None:
    other = people.by_name(name)
    if other is not None and other.id != person_id:
        raise Invalid({"name": _("%(name)s is already on the player list (player %(id)s)",
                                 name=other.name, id=other.id)})


# ---------------------------------------------------------------- the list

def create_record(data: Mapping[str, Any], idempotency_key: str | None = None) -> Person:
    """A new record on the player list, once for its request's ``idempotency_key``
    (``once.made_once``: sent again, the record the first made)."""
    person, _again = once.made_once(Person, idempotency_key,
                                    lambda key: _create_record(data, key))
    return person


@unit_of_work
def _create_record(data: Mapping[str, Any], key: str | None) -> Person:
    values = clean_record(data)
    _verify_name_free(values["name"], None)
    person = Person(key=people.key_of(values["name"]), **values)
    db.session.add(person)
    db.session.flush()
    once.remember_made(person, key)
    people.write_words([(person.id, person.name, person.nickname)], replace=False)
    uow.log("player added", None, name=person.name, details={"person_id": person.id})
    uow.commit()
    return person


@unit_of_work
def update_record(person_id: int, data: Mapping[str, Any]) -> Person:
    person = get_record(person_id)
    values = clean_record(data, partial=True)
    if "name" in values:
        _verify_name_free(values["name"], person.id)
        person.key = people.key_of(values["name"])
    for name, value in values.items():
        setattr(person, name, value)
    if values.keys() & {"name", "nickname"}:
        people.write_words([(person.id, person.name, person.nickname)])
    uow.log("player changed", None, name=person.name, details={"person_id": person.id})
    uow.commit()
    return person


def get_record(person_id: int) -> Person:
    person = db.session.get(Person, person_id) if 0 < person_id < 2**63 else None
    if person is None:
        raise NotFound(_("There is no player %(id)s on the player list", id=person_id))
    return person


@dataclass
class RecordLine:
    person: Person
    events: int = 0
    entries: int = 0
    last_played: datetime | None = None


def list_records(query: Any = "", limit: int = 100,
                 offset: int = 0) -> tuple[list[RecordLine], int]:
    """A page of the player list (a word of the name or nickname starting with ``query``:
    see ``people.suggestions``), by name, ``limit`` records from ``offset``, with each
    record's events and entries counted from the events' registries; and how many
    records matched."""
    # The database finds, counts and pages the records: the words' index finds those
    # that match (it read every name to look inside it), the key's unique index orders
    # the list; the counts are those of the records shown (``player.person_id`` is
    # indexed).
    where = people.matching(query) if isinstance(query, str) else None
    if where is None:
        matched = int(db.session.scalar(select(func.count(Person.id))) or 0)
        found = select(Person)
    else:
        matched = int(db.session.scalar(
            select(func.count(func.distinct(PersonWord.person_id))).where(where)) or 0)
        found = select(Person).where(Person.id.in_(select(PersonWord.person_id).where(where)))
    persons = list(db.session.scalars(found.order_by(Person.key).offset(max(offset, 0))
                                      .limit(limit)))
    counts = {row[0]: row[1:] for row in db.session.execute(
        select(Player.person_id, func.count(func.distinct(Player.tournament_id)),
               func.count(Player.id), func.max(Player.created_at))
        .where(Player.person_id.in_([p.id for p in persons])).group_by(Player.person_id))} \
        if persons else {}
    lines = []
    for person in persons:
        events, entries, last = counts.get(person.id, (0, 0, None))
        lines.append(RecordLine(person, int(events), int(entries), last))
    return lines, matched


# ---------------------------------------------------------------- history

@dataclass
class EventLine:
    """One person's part in one event."""

    tournament: Tournament
    currency: str
    entries: int = 0              # buy-in and re-entries
    re_entries: int = 0
    rebuys: int = 0
    add_ons: int = 0
    paid: int = 0                 # what he paid at the desk, fees and bounties included
    place: str = ""               # his best finish ("3", "4–5"); "" while still in
    best: int | None = None
    still_in: bool = False
    prize: int = 0
    prize_paid: int = 0
    bounties: int = 0
    deal: bool = False

    @property
    def won(self) -> int:
        return self.prize + self.bounties


def _event_lines(tournament_id: int, owner: Mapping[int, int],
                 everyone: bool = False) -> dict[int, EventLine]:
    """Each person's line in one event; ``owner``: the event's player id -> person id.

    Only the owners' entries are read (their results lines, their sales summed by
    the database), whatever the event's size; ``everyone``: the owners are most of
    the event (every record's totals), so its lines are read without a list of ids."""
    ids = None if everyone else list(owner)
    view, rows = money_service.results_of_everyone(tournament_id) if everyone \
        else money_service.results(tournament_id, player_ids=ids)
    lines: dict[int, EventLine] = {}

    def line(person_id: int) -> EventLine:
        if person_id not in lines:
            lines[person_id] = EventLine(view.tournament, view.currency)
        return lines[person_id]

    sales = select(Payment.player_id, Payment.kind, func.count(Payment.id),
                   func.sum(Payment.prize + Payment.fee + func.coalesce(Payment.bounty, 0))
                   ).where(Payment.tournament_id == tournament_id, Payment.undone_at.is_(None),
                           Payment.kind.in_(SALES))
    if ids is not None:
        sales = sales.where(Payment.player_id.in_(ids))
    for player_id, kind, count, total in db.session.connection().execute(
            sales.group_by(Payment.player_id, Payment.kind)).all():
        if player_id not in owner:
            continue
        entry = line(owner[player_id])
        entry.paid += int(total or 0)
        if kind in ("buy-in", "re-entry"):
            entry.entries += count
            entry.re_entries += count if kind == "re-entry" else 0
        elif kind == "rebuy":
            entry.rebuys += count
        else:
            entry.add_ons += count
    for row in rows:
        if row.player_id not in owner:
            continue
        entry = line(owner[row.player_id])
        entry.prize += row.prize
        entry.prize_paid += row.paid
        entry.bounties += row.bounties
        entry.deal = entry.deal or row.deal
        if row.active and row.place is None:
            entry.still_in = True
        if row.place is not None and (entry.best is None or row.place < entry.best):
            entry.best, entry.place = row.place, row.place_label
    return lines


def _owners(person_ids: Iterable[int] | None) -> dict[int, dict[int, int]]:
    """Tournament id -> {player id: person id} for the entries of these records (all)."""
    query = select(Player.tournament_id, Player.id, Player.person_id).where(
        Player.person_id.is_not(None))
    if person_ids is not None:
        query = query.where(Player.person_id.in_(list(person_ids)))
    owners: dict[int, dict[int, int]] = {}
    # On the session's connection, past the ORM's row handling: the players CSV reads
    # every entry of every event here (half of its time at 2,400 entries).
    db.session.flush()
    for tournament_id, player_id, person_id in db.session.connection().execute(query).all():
        owners.setdefault(tournament_id, {})[player_id] = person_id
    return owners


@dataclass
class Totals:
    events: int = 0
    entries: int = 0
    rebuys: int = 0
    add_ons: int = 0
    wins: int = 0
    cashes: int = 0
    best: int | None = None
    paid: dict[str, int] = field(default_factory=dict)        # currency -> minor units
    won: dict[str, int] = field(default_factory=dict)
    bounties: dict[str, int] = field(default_factory=dict)

    def add(self, line: EventLine) -> None:
        self.events += 1
        self.entries += line.entries
        self.rebuys += line.rebuys
        self.add_ons += line.add_ons
        self.wins += line.best == 1
        self.cashes += line.prize > 0
        if line.best is not None and (self.best is None or line.best < self.best):
            self.best = line.best
        for bucket, amount in ((self.paid, line.paid), (self.won, line.won),
                               (self.bounties, line.bounties)):
            bucket[line.currency] = bucket.get(line.currency, 0) + amount


def history(person_id: int) -> tuple[Person, list[EventLine], Totals]:
    """Every event the record played (archived ones too), newest first, and his totals."""
    person = get_record(person_id)
    events = []
    for tournament_id, owner in _owners([person.id]).items():
        events.extend(_event_lines(tournament_id, owner).values())
    events.sort(key=lambda e: (e.tournament.created_at, e.tournament.id), reverse=True)
    totals = Totals()
    for line in events:
        totals.add(line)
    return person, events, totals


def all_totals() -> dict[int, Totals]:
    """Person id -> his totals over every event (one results computation per event)."""
    totals: dict[int, Totals] = {}
    for tournament_id, owner in _owners(None).items():
        for person_id, line in _event_lines(tournament_id, owner, everyone=True).items():
            totals.setdefault(person_id, Totals()).add(line)
    return totals
