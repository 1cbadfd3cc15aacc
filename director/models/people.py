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
* ``League``: a name, the points formula (``director.tournament.league.Formula``)
  and the ids of its events, in the order the director listed them.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, Boolean, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from director.db import Base, UTCDateTime, utcnow

NAME_MAX = 80
NICKNAME_MAX = 40
EMAIL_MAX = 120
PHONE_MAX = 40
NOTE_MAX = 500
LEAGUE_NAME_MAX = 80


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

    def __repr__(self) -> str:
        return f"<Person {self.id} {self.name!r}>"


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
