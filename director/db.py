"""The database handle, UTC time, and SQLite settings.

One ``db`` (Flask-SQLAlchemy, bound by ``init_app``), one ``utcnow()`` and one
``UTCDateTime`` column type.  SQLite hands datetimes back naive, so the column
type re-attaches UTC on the way out and refuses naive datetimes on the way in.

>>> UTCDateTime().process_result_value(datetime(2026, 1, 1, 12, 0), None).tzinfo
datetime.timezone.utc
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from typing import Any

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import DateTime, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator


def utcnow() -> datetime:
    """The current time, UTC and timezone-aware.  The only clock read in the app."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every database.

    Stored as UTC (naive on SQLite, ``timestamptz`` on PostgreSQL); read back
    with ``tzinfo=UTC`` re-attached.  A naive datetime is a programming error.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: use director.db.utcnow() or attach UTC")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Base(DeclarativeBase):
    """Declarative base of every model (see ``director/models/``)."""


db = SQLAlchemy(model_class=Base)


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    """WAL so readers never block the writer, a busy timeout instead of
    "database is locked", and foreign keys enforced.  SQLite only."""
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=FULL")
    finally:
        cursor.close()
