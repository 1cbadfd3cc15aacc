"""Players across events: the director's player list, each player's history, leagues, CSV.

Each writing function is one unit of work (STYLE.md): check, write, commit,
log the change (``audit.change``).  Bad input raises ``Invalid`` naming the
field and changes nothing; a CSV file with one bad cell changes nothing and
names the line and the column.

* The list: :func:`create_record`, :func:`update_record`, :func:`list_records`
  (with each record's events, entries and last event, from the entries).
* :func:`history`: every event a record's entries played, archived ones too:
  the buy-ins, re-entries, rebuys and add-ons paid (the ledger), the place and
  prize (``director.services.money.results``) and the bounties won.
* Leagues: a name, a formula (``director.tournament.league``) and events;
  :func:`league_view` ranks the players over them.  A player is his record;
  an entry without one (made before the list existed) counts under its name.
* :func:`export_csv` and :func:`import_csv` (the ``csv`` module): inverses for
  the same file; the import is checked whole, then written in short batches
  (see the CSV section).
"""

from __future__ import annotations

import codecs
import csv
import io
import re
import time
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from flask_babel import gettext as _
from sqlalchemy import Table, delete, func, insert, or_, select, text, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from director.db import db, write_lock
from director.i18n import N_
from director.models.people import (
    EMAIL_MAX,
    LEAGUE_NAME_MAX,
    NICKNAME_MAX,
    NOTE_MAX,
    PHONE_MAX,
    League,
    Person,
)
from director.models.seating import Player
from director.models.tournament import Tournament
from director.services import Invalid, NotFound, all_or_nothing, audit, people
from director.services import money as money_service
from director.services import seating as seating_service
from director.tournament.league import Finish, Formula, LeagueEvent, standings

T = TypeVar("T")
CONFLICT = {"name": N_("Someone else changed the player list at the same moment: reload the "
                       "page and try again")}
unit_of_work = all_or_nothing(CONFLICT)

FIELDS = ("name", "nickname", "email", "phone", "note")
FIELD_LABELS = {"name": N_("Name"), "nickname": N_("Nickname"), "email": N_("E-mail"),
                "phone": N_("Phone"), "note": N_("Note")}
EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")
PHONE = re.compile(r"[0-9+\-() ./]*")
FORMULAS = {
    Formula.LINEAR: N_("Participation + place: entrants − place + 1"),
    Formula.SQUARE_ROOT: N_("Square root: 10 × √(entrants ÷ place)"),
    Formula.TOP_EIGHT: N_("Fixed table: 10, 8, 6, 5, 4, 3, 2, 1"),
}
MAX_EVENTS = 200        # events in one league
MAX_ROWS = 50_000       # lines in one imported file (the 20,000-player file fits)
SALES = ("buy-in", "re-entry", "rebuy", "add-on")


# ---------------------------------------------------------------- checking a record

def _text(value: Any, name: str, limit: int) -> str | None:
    """An optional text field: None when empty; a sentence naming it when bad."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise Invalid({name: _("Give text")})
    text = " ".join(value.split()) if name != "note" else value.strip()
    if any(unicodedata.category(char) == "Cc" for char in text.replace("\n", " ")
           .replace("\r", " ").replace("\t", " ")):
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

@unit_of_work
def create_record(data: Mapping[str, Any]) -> Person:
    values = clean_record(data)
    _verify_name_free(values["name"], None)
    person = Person(key=people.key_of(values["name"]), **values)
    db.session.add(person)
    db.session.commit()
    audit.change("player added", None, name=person.name, details={"person_id": person.id})
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
    db.session.commit()
    audit.change("player changed", None, name=person.name, details={"person_id": person.id})
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


def list_records(query: Any = "", limit: int = 500) -> tuple[list[RecordLine], int]:
    """The player list (names or nicknames containing ``query``), by name, with each
    record's events and entries counted from the events' registries; and how many
    records matched."""
    text = people.key_of(query) if isinstance(query, str) else ""
    # The database finds, counts and pages the records (the list is ordered by the key's
    # unique index); it loaded all 20,000 records to show 500.  The counts are those of
    # the records shown (``player.person_id`` is indexed).
    where = []
    if text:
        like = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        where.append(or_(Person.key.like(like, escape="\\"),
                         func.lower(Person.nickname).like(like, escape="\\")))
    matched = int(db.session.scalar(select(func.count(Person.id)).where(*where)) or 0)
    persons = list(db.session.scalars(select(Person).where(*where)
                                      .order_by(Person.key).limit(limit)))
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


def _event_lines(tournament_id: int, owner: Mapping[int, int]) -> dict[int, EventLine]:
    """Each person's line in one event; ``owner``: the event's player id -> person id."""
    view, rows = money_service.results(tournament_id)
    lines: dict[int, EventLine] = {}

    def line(person_id: int) -> EventLine:
        if person_id not in lines:
            lines[person_id] = EventLine(view.tournament, view.currency)
        return lines[person_id]

    for payment in view.payments:
        if payment.undone or payment.kind not in SALES or payment.player_id not in owner:
            continue
        entry = line(owner[payment.player_id])
        entry.paid += payment.total
        if payment.kind in ("buy-in", "re-entry"):
            entry.entries += 1
            entry.re_entries += payment.kind == "re-entry"
        elif payment.kind == "rebuy":
            entry.rebuys += 1
        else:
            entry.add_ons += 1
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
    for tournament_id, player_id, person_id in db.session.execute(query):
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
        for person_id, line in _event_lines(tournament_id, owner).items():
            totals.setdefault(person_id, Totals()).add(line)
    return totals


# ---------------------------------------------------------------- leagues

def formula_labels() -> dict[str, str]:
    return {formula.value: _(label) for formula, label in FORMULAS.items()}


def _clean_league(data: Mapping[str, Any]) -> tuple[str, str, list[int]]:
    errors: dict[str, str] = {}
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        errors["name"] = _("The league needs a name")
    elif len(" ".join(name.split())) > LEAGUE_NAME_MAX:
        errors["name"] = _("Use at most %(max)s characters", max=LEAGUE_NAME_MAX)
    formula = data.get("formula")
    if formula not in {f.value for f in Formula}:
        errors["formula"] = _("Choose one of: %(choices)s",
                              choices=", ".join(f.value for f in Formula))
    raw = data.get("tournament_ids")
    ids: list[int] = []
    if not isinstance(raw, list) or len(raw) > MAX_EVENTS:
        errors["tournament_ids"] = _("Give a list of at most %(max)s events", max=MAX_EVENTS)
    else:
        for value in raw:
            if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 19:
                value = int(value.strip())
            if isinstance(value, bool) or not isinstance(value, int) \
                    or not 0 < value < 2**63 or db.session.get(Tournament, value) is None:
                errors["tournament_ids"] = _("There is no tournament %(id)s", id=str(value)[:20])
                break
            if value not in ids:
                ids.append(value)
        if not ids and "tournament_ids" not in errors:
            errors["tournament_ids"] = _("Pick at least one event")
    if errors:
        raise Invalid(errors)
    return " ".join(str(name).split()), str(formula), ids


@unit_of_work
def save_league(league_id: int | None, data: Mapping[str, Any]) -> League:
    """Create a league (``league_id`` None) or change its name, formula and events."""
    name, formula, ids = _clean_league(data)
    league = League() if league_id is None else get_league(league_id)
    league.name, league.formula, league.tournament_ids = name, formula, ids
    if league_id is None:
        db.session.add(league)
    db.session.commit()
    audit.change("league saved", None, name=name, formula={"msgid": FORMULAS[Formula(formula)]},
                 details={"league_id": league.id, "tournament_ids": ids})
    return league


def get_league(league_id: int) -> League:
    league = db.session.get(League, league_id) if 0 < league_id < 2**63 else None
    if league is None:
        raise NotFound(_("There is no league %(id)s", id=league_id))
    return league


def list_leagues() -> list[League]:
    return list(db.session.scalars(select(League).order_by(League.name, League.id)))


@dataclass
class LeagueLine:
    rank: int
    name: str
    person_id: int | None
    points: float
    events: int
    best: int
    by_event: tuple[float | None, ...]


def _finishes(tournament: Tournament) -> LeagueEvent:
    """Who finished where in one event, one finish per person (his best entry).

    In a finished event, the people still in at the end (a deal that ended it)
    share the top places; in an event still running they have no finish yet.
    """
    _view, rows = money_service.results(tournament.id)
    entries = db.session.execute(select(Player.id, Player.person_id, Player.name).where(
        Player.tournament_id == tournament.id)).all()
    who: dict[int, Hashable] = {pid: ("person", person_id) if person_id is not None
                                else ("name", people.key_of(name)) for pid, person_id, name in entries}
    best: dict[Hashable, tuple[int, int | None]] = {}
    unplaced: list[Hashable] = []
    for row in rows:
        key = who.get(row.player_id, ("name", people.key_of(row.name)))
        if row.place is None:
            if row.active and key not in unplaced:
                unplaced.append(key)
            continue
        if key not in best or row.place < best[key][0]:
            best[key] = (row.place, row.place_last)
    finishes = []
    if tournament.status == "finished" and unplaced:
        for key in unplaced:
            best.pop(key, None)
            finishes.append(Finish(key, 1, len(unplaced) if len(unplaced) > 1 else None))
    finishes.extend(Finish(key, place, last) for key, (place, last) in best.items())
    return LeagueEvent(entrants=len(rows), finishes=tuple(finishes))


def _still_playing(tournament: Tournament) -> bool:
    """Whether the event has players in it without a place yet (its points may change)."""
    if tournament.status in ("finished", "cancelled"):
        return False
    return bool(db.session.scalar(select(func.count(Player.id)).where(
        Player.tournament_id == tournament.id, Player.status == "active",
        Player.place.is_(None))))


def league_view(league_id: int) -> dict[str, Any]:
    """The league: its events (those still there) and the ranking by its formula."""
    league = get_league(league_id)
    events = [t for t in (db.session.get(Tournament, tid) for tid in league.tournament_ids)
              if t is not None]
    table = standings(league.formula, [_finishes(t) for t in events])
    names: dict[Hashable, str] = {}
    person_ids = [key[1] for s in table for key in [s.who] if isinstance(key, tuple)
                  and key[0] == "person"]
    for person in db.session.scalars(select(Person).where(Person.id.in_(person_ids))):
        names[("person", person.id)] = person.name
    for tournament in events:
        for name in db.session.scalars(select(Player.name).where(
                Player.tournament_id == tournament.id, Player.person_id.is_(None))):
            names.setdefault(("name", people.key_of(name)), name)
    lines = [LeagueLine(s.rank, names.get(s.who, str(s.who)),
                        s.who[1] if isinstance(s.who, tuple) and s.who[0] == "person" else None,
                        s.points, s.events, s.best, s.by_event) for s in table]
    return {"league": league, "events": events, "lines": lines,
            "unfinished": [t for t in events if _still_playing(t)],
            "deleted": [tid for tid in league.tournament_ids   # ids are never given again
                        if tid not in {t.id for t in events}]}


def events_to_pick() -> list[Tournament]:
    """Every event, archived ones too, newest first (a league's season looks back)."""
    return list(db.session.scalars(select(Tournament).order_by(
        Tournament.created_at.desc(), Tournament.id.desc())))


# ---------------------------------------------------------------- CSV
#
# The export and the import are inverses for the same file (issue 26):
#
# * The formula guard: a cell a spreadsheet would run (it starts with = + - @,
#   possibly after quotes) is written with a quote in front, and the import
#   takes exactly that one quote off (:func:`csv_guard`, :func:`csv_unguard`),
#   so "+46 70 123 45 67" and "=SUM(A1)" come back as they were.
# * Which record a line is: the record whose number is the line's ``id`` and
#   whose name is the line's name; else the record of that name (names are
#   unique on the list, case and spaces aside); else a new record, which keeps
#   the line's ``id`` when no record has it (an export read into an empty list
#   exports the same file again).  A record found is updated from the line's
#   non-empty cells; its name stays as it is written on the list.  The totals
#   columns are computed from the events and not read.
# * The same line twice is one player; two different lines of one name are
#   refused, naming both lines.
# * The file: UTF-8 (with or without the byte-order mark Excel writes), or
#   UTF-16 or UTF-32 with its byte-order mark (Excel's "Unicode text"); any
#   other bytes are refused naming the line ("save the file as CSV UTF-8"):
#   guessing a Windows code page would turn some names into mojibake.  The
#   columns are separated by commas, semicolons (Excel in Swedish or
#   Indonesian) or tabs: the header line decides.
# * All or nothing, without stopping the room: every line is checked first
#   (nothing is written while a line is bad); then the records are written in
#   batches of ``BATCH_ROWS``, each its own short transaction, with a pause
#   between them in which the tablets' writes go in (a 5,000-line import held
#   SQLite's write lock for its whole 2-4 s).  If a batch fails (someone
#   added the same name at the desk meanwhile), what the earlier batches
#   wrote is taken back and the file is refused.

EXPORT_COLUMNS = ("id", *FIELDS, "events", "entries", "rebuys", "add_ons", "best_place", "wins",
                  "currency", "paid", "won", "bounties")
IMPORT_MAX_BYTES = 16 * 1024 * 1024   # the import's body limit: 50,000 players of 300 bytes
BATCH_ROWS = 500                      # records written per transaction by an import
BATCH_PAUSE = 0.005                   # seconds between two batches, for the other writers
PERSON: Table = Person.__table__  # type: ignore[assignment]
_GUARDED = re.compile(r"'*[=+\-@]")
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"),
         (codecs.BOM_UTF8, "utf-8-sig"))


def csv_guard(text: str) -> str:
    """A cell as exported: a quote in front when a spreadsheet would read it as a formula
    (it starts with = + - or @, after any quotes), so that :func:`csv_unguard` gives the
    text back exactly.

    >>> csv_guard("+46 70 123"), csv_guard("'=x"), csv_guard("Ann")
    ("'+46 70 123", "''=x", 'Ann')
    """
    return "'" + text if _GUARDED.match(text) else text


def csv_unguard(cell: str) -> str:
    """A cell as imported: the quote :func:`csv_guard` put in front taken off, only there.

    >>> csv_unguard("'+46 70 123"), csv_unguard("''=x"), csv_unguard("'Ann")
    ('+46 70 123', "'=x", "'Ann")
    """
    return cell[1:] if cell[:1] == "'" and _GUARDED.match(cell, 1) else cell


def _amounts(bucket: Mapping[str, int]) -> tuple[str, str]:
    """(currency, amount): "EUR", "300.00"; several currencies: "EUR SEK", "300.00 EUR; 50 SEK"."""
    used = sorted(c for c, amount in bucket.items() if amount) or sorted(bucket)[:1]
    if len(used) <= 1:
        currency = used[0] if used else ""
        return currency, money_service.major(bucket.get(currency, 0), currency or "EUR")
    return " ".join(used), "; ".join(f"{money_service.major(bucket[c], c)} {c}" for c in used)


def export_csv() -> str:
    """Every record with its totals (the import reads the same file back: see above)."""
    return "".join(export_csv_chunks())


CSV_CHUNK_CHARS = 64 * 1024      # the export is sent in pieces of about this size


def export_csv_chunks() -> Iterator[str]:
    """``export_csv`` in pieces of about 64 KB (the download streams them); the
    records are read in one query, the totals once per event, before the first piece."""
    totals = all_totals()
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(EXPORT_COLUMNS)
    columns = [getattr(Person, name) for name in FIELDS]
    records = db.session.execute(select(Person.id, *columns).order_by(Person.key)).all()
    for person_id, *cells in records:
        t = totals.get(person_id, Totals())
        currency, paid = _amounts(t.paid)
        won, bounties = _amounts(t.won)[1], _amounts(t.bounties)[1]
        writer.writerow([person_id] + [csv_guard(cell or "") for cell in cells]
                        + [t.events, t.entries, t.rebuys, t.add_ons, t.best or "", t.wins,
                           currency, paid, won, bounties])
        if out.tell() > CSV_CHUNK_CHARS:
            yield out.getvalue()
            out.seek(0)
            out.truncate()
    yield out.getvalue()


@dataclass
class Imported:
    created: int = 0
    updated: int = 0
    unchanged: int = 0


def _refuse_line(line: int, column: str | None, message: str) -> Invalid:
    if column is None:
        return Invalid({"file": _("Line %(line)s: %(message)s", line=line, message=message)})
    return Invalid({"file": _("Line %(line)s, column “%(column)s”: %(message)s", line=line,
                              column=column, message=message)})


def _decode(data: bytes) -> str:
    """The file's text (see above), or ``Invalid`` naming the line that is not text."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding).removeprefix("\ufeff")
            except UnicodeDecodeError:
                raise _refuse_line(1, None, _("this is not %(encoding)s text (save the file "
                                              "as CSV UTF-8)", encoding=encoding.upper()
                                              .removesuffix("-SIG"))) from None
    if data[:200].count(b"\x00") * 3 > len(data[:200]):     # every other byte: UTF-16
        raise _refuse_line(1, None, _("this is UTF-16 text without its byte-order mark "
                                      "(save the file as CSV UTF-8)"))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise _refuse_line(line, None, _("this is not UTF-8 text (save the file as "
                                         "CSV UTF-8)")) from None


def _delimiter(text: str) -> str:
    """Comma, semicolon or tab: the one that splits the header line into a “name”
    column (and the most columns); a comma if none does."""
    header = text.split("\n", 1)[0]
    best, most = ",", 0
    for delimiter in (",", ";", "\t"):
        cells = [c.strip().lower() for c in next(csv.reader([header], delimiter=delimiter), [])]
        if "name" in cells and len(cells) > most:
            best, most = delimiter, len(cells)
    return best


def _read_rows(data: bytes | str) -> list[tuple[int, dict[str, str]]]:
    """The file's rows as {column: text} with their line numbers, or ``Invalid`` naming the
    line (and the column) of the first problem."""
    text = _decode(data) if isinstance(data, bytes) else data.removeprefix("\ufeff")
    if "\x00" in text:
        raise _refuse_line(text[:text.index("\x00")].count("\n") + 1, None,
                           _("this text contains a forbidden character"))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise _refuse_line(1, None, str(exc)) from None
    if not header or not any(cell.strip() for cell in header):
        raise Invalid({"file": _("The file is empty: the first line names the columns "
                                 "(name, nickname, email, phone, note)")})
    columns = [cell.strip().lower() for cell in header]
    if "name" not in columns:
        raise _refuse_line(1, None, _("the header names no “name” column (the columns: "
                                      "name, nickname, email, phone, note)"))
    seen = [c for c in columns if c]
    if len(seen) != len(set(seen)):
        double = next(c for c in seen if seen.count(c) > 1)
        raise _refuse_line(1, double, _("this column is named twice"))
    wanted = [(i, c) for i, c in enumerate(columns) if c in ("id", *FIELDS)]
    rows = []
    try:
        for cells in reader:
            line = reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            if len(cells) > len(columns):
                raise _refuse_line(line, None, _("%(found)s values, but the header names "
                                                 "%(columns)s columns", found=len(cells),
                                                 columns=len(columns)))
            rows.append((line, {c: csv_unguard(cells[i]) for i, c in wanted if i < len(cells)}))
            if len(rows) > MAX_ROWS:
                raise _refuse_line(line, None, _("a file holds at most %(max)s players",
                                                 max=MAX_ROWS))
    except csv.Error as exc:
        raise _refuse_line(reader.line_num, None, str(exc)) from None
    return rows


@dataclass
class _Plan:
    """What an import writes, all checked: new records (with the file's id when it is
    free, else without), and (id, new values, old values) of the records it changes."""

    with_id: list[dict[str, Any]] = field(default_factory=list)
    without_id: list[dict[str, Any]] = field(default_factory=list)
    changed: list[tuple[int, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    unchanged: int = 0


def _file_id(line: int, text: str | None) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    if not text.isdigit() or len(text) > 18 or int(text) < 1:
        raise _refuse_line(line, "id", _("Give a whole number"))
    return int(text)


def _plan(rows: list[tuple[int, dict[str, str]]]) -> _Plan:
    """Check every line and match it to its record (see above); writes nothing."""
    stored = {row.id: row for row in db.session.execute(
        select(Person.id, Person.key, *[getattr(Person, n) for n in FIELDS[1:]]))}
    by_key = {row.key: row for row in stored.values()}
    plan = _Plan()
    lines_of: dict[str, tuple[int, dict[str, Any], int | None]] = {}
    taken: set[int] = set()
    for line, row in rows:
        given = {"name": row.get("name"),
                 **{name: row[name] for name in FIELDS[1:] if row.get(name, "").strip()}}
        try:
            values = clean_record(given, partial=True)
        except Invalid as exc:
            column, message = next(iter(exc.errors.items()))
            raise _refuse_line(line, column, message) from None
        file_id = _file_id(line, row.get("id"))
        key = people.key_of(values["name"])
        if key in lines_of:
            other, earlier, earlier_id = lines_of[key]
            if (earlier, earlier_id) == (values, file_id):
                continue                # the same line twice: one player
            raise _refuse_line(line, "name", _("%(name)s is already on line %(other)s",
                                               name=values["name"], other=other))
        lines_of[key] = (line, values, file_id)
        record = stored.get(file_id) if file_id is not None else None
        if record is None or record.key != key:
            record = by_key.get(key)
        if record is None:
            new = {"key": key, **{n: values.get(n) for n in FIELDS}}
            if file_id is not None and file_id not in stored and file_id not in taken:
                taken.add(file_id)
                plan.with_id.append({"id": file_id, **new})
            else:
                plan.without_id.append(new)
            continue
        changes = {n: v for n, v in values.items() if n != "name" and getattr(record, n) != v}
        if changes:
            plan.changed.append((record.id, changes, {n: getattr(record, n) for n in changes}))
        else:
            plan.unchanged += 1
    return plan


def _batches(items: list[T]) -> Iterable[list[T]]:
    for start in range(0, len(items), BATCH_ROWS):
        yield items[start:start + BATCH_ROWS]


def _between_batches() -> None:
    """The pause after each batch's commit, in which the other writers go in."""
    time.sleep(BATCH_PAUSE)


def _write_batch(write: Callable[[], object]) -> None:
    """One batch, its own short transaction: a connection first, then this process's
    write lock (``db.write_lock``: the tablets' grouped writes queue on it), then the
    commit; then the pause."""
    db.session.connection()
    with write_lock:
        write()
        db.session.commit()
    _between_batches()


def _insert_returning(rows: list[dict[str, Any]], ids: list[int]) -> None:
    ids.extend(db.session.scalars(insert(PERSON).returning(PERSON.c.id), rows))


def _set_values(changes: list[tuple[int, dict[str, Any]]]) -> None:
    for person_id, values in changes:
        db.session.execute(update(PERSON).where(PERSON.c.id == person_id).values(values))


def _write(plan: _Plan) -> None:
    """Write a checked import in batches; if one fails, take back what the earlier ones
    wrote (only what they committed) and refuse the file (``CONFLICT``)."""
    created: list[int] = []
    changed: list[tuple[int, dict[str, Any], dict[str, Any]]] = []
    try:
        for rows in _batches(plan.with_id):
            _write_batch(partial(db.session.execute, insert(PERSON), rows))
            created.extend(row["id"] for row in rows)
        if plan.with_id and db.session.get_bind().dialect.name == "postgresql":
            _write_batch(partial(db.session.execute, text(    # the next id after the file's
                "SELECT setval(pg_get_serial_sequence('person', 'id'), "
                "(SELECT max(id) FROM person))")))
        for rows in _batches(plan.without_id):
            ids: list[int] = []
            _write_batch(partial(_insert_returning, rows, ids))
            created.extend(ids)
        for batch in _batches(plan.changed):
            _write_batch(partial(_set_values, [(pid, new) for pid, new, _old in batch]))
            changed.extend(batch)
    except (IntegrityError, StaleDataError, OperationalError):
        db.session.rollback()
        _take_back(created, changed)
        raise Invalid({"file": _(CONFLICT["name"])}) from None


def _take_back(created: list[int], changed: list[tuple[int, dict[str, Any], dict[str, Any]]]
               ) -> None:
    """Undo the batches an import committed before one failed (in batches too)."""
    for ids in _batches(created):
        _write_batch(partial(db.session.execute, delete(PERSON).where(PERSON.c.id.in_(ids))))
    for batch in _batches(changed):
        _write_batch(partial(_set_values, [(pid, old) for pid, _new, old in batch]))


def import_csv(data: bytes | str) -> Imported:
    """Add the file's players to the list and update the records it names (see above):
    every line checked first, then written in batches; one bad cell changes nothing."""
    plan = _plan(_read_rows(data))
    db.session.rollback()          # end the reading transaction before the batches
    _write(plan)
    done = Imported(created=len(plan.with_id) + len(plan.without_id),
                    updated=len(plan.changed), unchanged=plan.unchanged)
    audit.change("players imported", None, created=done.created, updated=done.updated)
    return done
