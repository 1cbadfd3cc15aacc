"""The database handle, UTC time, and SQLite settings.

One ``db`` (Flask-SQLAlchemy, bound by ``init_app``), one ``utcnow()`` and one
``UTCDateTime`` column type.  SQLite hands datetimes back naive, so the column
type re-attaches UTC on the way out and refuses naive datetimes on the way in.

>>> UTCDateTime().process_result_value(datetime(2026, 1, 1, 12, 0), None).tzinfo
datetime.timezone.utc
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from datetime import UTC, datetime
from typing import Any

from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import JSON, DateTime, event
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

# One writer at a time in this process.  SQLite takes one writer anyway, and a
# writer that finds the database busy sleeps in growing steps (its busy handler)
# instead of queueing, so the writes that come in bursts (the dealer tablets' and
# the audit log's) take this lock from their first write to their commit.  Take a
# connection first (``db.session.connection()``): never wait for the pool while
# holding it.
write_lock = threading.Lock()


class DriverInsert:
    """An INSERT of some columns of ``table`` in the driver's own parameter style,
    with each column's own bind processor, so that rows written straight through
    the driver (no ORM, no statement compilation: the hot writes) are stored
    exactly as the ORM stores them (UTC datetimes, booleans, JSON) on SQLite and
    on PostgreSQL.  ``params(row)`` turns a dict into the driver's tuple."""

    def __init__(self, table: Any, dialect: Any, columns: list[str]) -> None:
        self.columns = columns
        self.processors: list[Any] = []
        marks = []
        for name in columns:
            placeholder, process = self.value(table, dialect, name)
            marks.append(placeholder)
            self.processors.append(process)
        self.sql = (f"INSERT INTO {table.name} ({', '.join(columns)}) "
                    f"VALUES ({', '.join(marks)})")

    @staticmethod
    def value(table: Any, dialect: Any, name: str) -> tuple[str, Any]:
        """The placeholder and the bind processor (identity if none) of one column."""
        mark = "?" if dialect.paramstyle == "qmark" else "%s"
        column_type = table.c[name].type
        if isinstance(column_type, JSON) and dialect.name != "sqlite":
            return f"CAST({mark} AS JSON)", json.dumps     # psycopg adapts no dict
        return mark, column_type.bind_processor(dialect) or (lambda value: value)

    def params(self, row: dict[str, Any]) -> tuple[Any, ...]:
        values = (row[name] for name in self.columns)
        return tuple(value if value is None else process(value)
                     for value, process in zip(values, self.processors, strict=True))


CHECKPOINT_SECONDS = 1.0
CHECKPOINT_RESTART_FRAMES = 1_000    # ~4 MB of WAL: then restart it (the frames are copied already)
BUSY_TIMEOUT_MS = 10_000

# Set by ``start_checkpointer`` in the serving process: its connections leave the
# WAL checkpoints to that thread.
_checkpoint_thread = False


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, connection_record: Any) -> None:
    """WAL so readers never block the writer, a busy timeout instead of
    "database is locked", and foreign keys enforced.  SQLite only."""
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=FULL")
        if _checkpoint_thread:
            cursor.execute("PRAGMA wal_autocheckpoint=0")
    finally:
        cursor.close()


def start_checkpointer(app: Any) -> bool:
    """SQLite: copy the write-ahead log into the database from a thread of its own.

    By default the commit that fills the WAL to 1,000 pages copies it into the
    database and syncs it, while every other writer waits: one dealer's tap in a
    few thousand took 40-50 ms (``benchmarks/dealer_load.py``).  Here the serving
    process's connections do no checkpoints; this thread runs a PASSIVE one
    every second (it blocks no writer and no reader).  Under steady writes a
    passive checkpoint never catches up with the end of the log, so the log is
    never restarted and grows; past ``CHECKPOINT_RESTART_FRAMES`` the thread
    then restarts it under the write lock, right after the passive copy, when
    only a few frames are left to copy.
    Durability is the same: a commit is synced to the WAL either way.  Other
    processes (the CLI, ``director scheduler``) keep SQLite's own checkpoints.
    Returns False for PostgreSQL.
    """
    global _checkpoint_thread
    if not str(app.config["SQLALCHEMY_DATABASE_URI"]).startswith("sqlite"):
        return False
    _checkpoint_thread = True
    with app.app_context():
        db.engine.dispose()          # connections opened before keep their setting

    def run() -> None:
        while True:
            time.sleep(CHECKPOINT_SECONDS)
            try:
                with app.app_context():
                    raw = db.engine.raw_connection()
                    try:
                        cursor = raw.cursor()
                        cursor.execute("PRAGMA wal_checkpoint(PASSIVE)")
                        frames = cursor.fetchone()[1]
                        if frames > CHECKPOINT_RESTART_FRAMES:
                            # Only the frames written during the passive copy are left:
                            # restart the log while no writer of this process runs.  No
                            # waiting for a reader (no busy handler): if one is still
                            # reading, the next second tries again.
                            cursor.execute("PRAGMA busy_timeout=0")
                            with write_lock:
                                cursor.execute("PRAGMA wal_checkpoint(RESTART)")
                                cursor.fetchall()
                            cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
                        cursor.close()
                    finally:
                        raw.close()
            except Exception:  # noqa: BLE001 - the next second tries again
                app.logger.exception("WAL checkpoint failed")

    threading.Thread(target=run, name="wal-checkpoint", daemon=True).start()
    return True
