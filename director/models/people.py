"""The room's player list, kept across events, and its leagues.

* ``Person``: one player of the room (a "player record"): the name, and an
  optional nickname, e-mail, phone and note.  ``key`` is the name casefolded
  with single spaces (``director.services.people.key_of``): two records never
  share it, so a name typed at the desk finds at most one record.  Each event's
  entry (``director.models.seating.Player``) points at its record through
  ``Player.person_id`` (NULL: an entry made before the records existed).
* ``PersonWord``: what a search finds a record by: the record's name and
  nickname as searched (casefolded, accents stripped, single spaces:
  ``director.services.people.search_text``) from each word's start to the end
  ("ann-marie berg": "ann-marie berg", "marie berg", "berg").  A search for
  "mar" is a prefix of one of them: a range of the table's key (name start,
  word, record), found whatever the size of the list (issue 29).
  ``name_start``: the whole name, which the desk's suggestions show first.
  ``Person.csv_cells``: the record's name, nickname, e-mail, phone and note as
  the players CSV writes them (:func:`csv_cells`), made whenever the record is
  written, so the export of 20,000 records writes no cell (issue 29).
* ``League``: a name, the points formula (``director.tournament.league.Formula``)
  and the ids of its events, in the order the director listed them.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, ForeignKey, Integer, String, Text, event
from sqlalchemy.orm import Mapped, mapped_column

from director.db import Base, UTCDateTime, utcnow

NAME_MAX = 80
NICKNAME_MAX = 40
EMAIL_MAX = 120
PHONE_MAX = 40
NOTE_MAX = 500
LEAGUE_NAME_MAX = 80
CSV_FIELDS = ("name", "nickname", "email", "phone", "note")    # a record's cells, in order
FORMULA = re.compile(r"'*[=+\-@]")     # a cell a spreadsheet runs (after any quotes)
_GUARD_FIRST = frozenset("'=+-@")     # what a guarded cell starts with


def csv_guard(text: str) -> str:
    """A cell as exported: a quote in front when a spreadsheet would read it as a formula
    (it starts with = + - or @, after any quotes), so that the import can give the
    text back exactly (``services.players_csv.csv_unguard``).

    >>> csv_guard("+46 70 123"), csv_guard("'=x"), csv_guard("Ann")
    ("'+46 70 123", "''=x", 'Ann')
    """
    return "'" + text if FORMULA.match(text) else text


def csv_cells(record: Mapping[str, Any]) -> str:
    """The record's cells (``CSV_FIELDS``) as one piece of a CSV line: each guarded
    (:func:`csv_guard`), quoted where the CSV writer quotes, None empty.

    >>> print(csv_cells({"name": "Berg, Ann", "nickname": None, "phone": "+46 70"}))
    "Berg, Ann",,,'+46 70,
    """
    out = io.StringIO()
    csv.writer(out).writerow(
        csv_guard(value) if value and value[0] in _GUARD_FIRST else value
        for value in (record.get(name) for name in CSV_FIELDS))
    return out.getvalue().removesuffix("\r\n")   # the writer's line end: it quotes a newline


def _csv_cells_default(context: Any) -> str:
    """``Person.csv_cells`` of a record inserted (by the ORM or by an import's rows)."""
    return csv_cells(context.get_current_parameters())


class Person(Base):
    __tablename__ = "person"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX))
    key: Mapped[str] = mapped_column(String(NAME_MAX), unique=True)
    nickname: Mapped[str | None] = mapped_column(String(NICKNAME_MAX), nullable=True)
    email: Mapped[str | None] = mapped_column(String(EMAIL_MAX), nullable=True)
    phone: Mapped[str | None] = mapped_column(String(PHONE_MAX), nullable=True)
    note: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    # the cells of the record's CSV line (see above); NULL: not made yet, the export makes it
    csv_cells: Mapped[str | None] = mapped_column(Text, nullable=True,
                                                  default=_csv_cells_default)

    def __repr__(self) -> str:
        return f"<Person {self.id} {self.name!r}>"


@event.listens_for(Person, "before_update")
def _csv_cells_again(_mapper: Any, _connection: Any, person: Person) -> None:
    """A record changed through the ORM: its CSV cells made again from what it is now."""
    person.csv_cells = csv_cells({name: getattr(person, name) for name in CSV_FIELDS})


class PersonWord(Base):
    __tablename__ = "person_word"

    # The key's order is the search's: a name's start (True) or another word, then the
    # word's text (a prefix is a range of it), then the record.
    name_start: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    word: Mapped[str] = mapped_column(      # compared in code point order, as SQLite does
        String(NAME_MAX).with_variant(String(NAME_MAX, collation="C"), "postgresql"),
        primary_key=True)
    person_id: Mapped[int] = mapped_column(
        ForeignKey("person.id", ondelete="CASCADE"), primary_key=True, index=True)


class League(Base):
    __tablename__ = "league"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(LEAGUE_NAME_MAX))
    formula: Mapped[str] = mapped_column(String(20))
    tournament_ids: Mapped[list[int]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
