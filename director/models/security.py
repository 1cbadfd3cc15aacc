"""What the room's hostile network must not get around: guess limits and director sessions.

* ``GuessFailure``: one wrong guess at a secret (a login, a table's pairing
  code), counted per ``scope`` (``login``, ``pairing``, ``pairing-table``, ...)
  and ``key`` (the client's address, or the table's id) within a window.  In
  the database, so that every server process (``director serve --workers N``)
  and every machine on one PostgreSQL counts the same guesses.
* ``GuessLock``: a key that reached its limit: locked until ``until`` (NULL:
  until the director resets it, a table's pairing).
* ``DirectorSession``: a director's browser login.  The cookie holds a random
  id whose hash is the row; logging out deletes the row, so a copied cookie
  ends with it, and a password change deletes every other one.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from director.db import Base, UTCDateTime, utcnow

SCOPE_MAX = 20
KEY_MAX = 100


class GuessFailure(Base):
    __tablename__ = "guess_failure"
    __table_args__ = (Index("ix_guess_failure_scope_key", "scope", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    scope: Mapped[str] = mapped_column(String(SCOPE_MAX))
    key: Mapped[str] = mapped_column(String(KEY_MAX))
    at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow, index=True)


class GuessLock(Base):
    __tablename__ = "guess_lock"

    scope: Mapped[str] = mapped_column(String(SCOPE_MAX), primary_key=True)
    key: Mapped[str] = mapped_column(String(KEY_MAX), primary_key=True)
    locked_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    until: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    failures: Mapped[int] = mapped_column(Integer)


class DirectorSession(Base):
    __tablename__ = "director_session"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime(), default=utcnow)
    address: Mapped[str | None] = mapped_column(String(KEY_MAX), nullable=True)
