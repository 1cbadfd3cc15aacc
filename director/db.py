"""The database handle, UTC time, and SQLite settings.

One ``db`` (Flask-SQLAlchemy, bound by ``init_app``), one ``utcnow()`` and one
``UTCDateTime`` column type.  SQLite hands datetimes back naive, so the column
type re-attaches UTC on the way out and refuses naive datetimes on the way in.

>>> UTCDateTime().process_result_value(datetime(2026, 1, 1, 12, 0), None).tzinfo
datetime.timezone.utc
"""

from __future__ import annotations

import contextlib
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from flask import current_app
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import JSON, DateTime, event, inspect
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

def hold_in_session(*models: type) -> None:
    """Rows of ``models`` stay in the session that loaded them until it closes.

    The session's identity map holds rows weakly: a row a service loaded and let
    go (to check that the event exists, or read one setting) was gone again when
    the next service of the same request asked for it, and each ``session.get``
    read it from the database again (a late entry read its tournament five
    times and the money settings three).  One row per event and model, so a
    long-lived session holds no more than that; a commit or a rollback still
    expires them, and the next read refreshes them as before.  The hook is on
    these models only: loading other rows (1,800 players) pays nothing for it."""
    for model in models:
        if not event.contains(model, "load", _hold):
            event.listen(model, "load", _hold)


def for_transaction(name: str, *, savepoint: bool = False) -> dict[Any, Any]:
    """A dict the session keeps for its open transaction only: the next transaction
    (``savepoint``: the next savepoint too, whose rollback takes back what was done in
    it) starts an empty one.  What a unit of work learnt once and must not learn again
    in the same transaction, and never carry into another (a lock taken, a count read)."""
    session = db.session()
    now = (session.get_nested_transaction() if savepoint else None) or session.get_transaction()
    kept = session.info.get(name)
    if kept is None or kept[0] is not now:
        kept = session.info[name] = (now, {})
    return kept[1]  # type: ignore[no-any-return]


def _hold(instance: Any, context: Any) -> None:
    context.session.info.setdefault("held", {})[
        (type(instance), inspect(instance).identity)] = instance


# One writer at a time in this process.  SQLite takes one writer anyway, and a
# writer that finds the database busy sleeps in growing steps (its busy handler)
# instead of queueing, so the writes that come in bursts (``GroupCommit``: the
# dealer tablets' and the audit log's) and the WAL checkpoint take this lock from
# their first write to their commit.  Take a connection first: never wait for
# the pool while holding it.
write_lock = threading.Lock()


def driver_sql(dialect: Any, text: str) -> str:
    """SQL written with ``?`` placeholders, in the driver's own parameter style
    (``?`` for sqlite3, ``%s`` for psycopg)."""
    return text if dialect.paramstyle == "qmark" else text.replace("?", "%s")


def driver_rows(result: Any) -> list[tuple[Any, ...]]:
    """A result's rows as the driver gives them (tuples), past SQLAlchemy's ``Row``
    objects (a fifth to a third of reading thousands of rows); the statement is still
    the engine's, seen by its events.  No column type converts them: a JSON column is
    text on SQLite."""
    try:
        return [row if type(row) is tuple else tuple(row) for row in result.cursor.fetchall()]
    finally:
        result.close()


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
        mark = driver_sql(dialect, "?")
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

class GroupCommit:
    """Writes handed over by many request threads, committed together.

    One writer thread per database takes whatever writes are queued, runs each
    in a savepoint of one transaction (a write that fails, e.g. a duplicate
    idempotency key, is rolled back alone and answers None) and commits them
    with one commit, then wakes their threads: each is answered only after the
    commit that holds its write (``synchronous=FULL``).  Under a burst this is
    one sync and one turn of the write lock for many writes, instead of one per
    write with every writer queueing on the lock (and, while holding it, on the
    GIL after each SQLite call).  The thread ends after ``IDLE`` seconds without
    work and starts again on demand.
    """

    IDLE = 2.0
    MAX_BATCH = 64

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.sqlite = engine.dialect.name == "sqlite"
        # PostgreSQL: a pool of its own (the engine's settings and connect hooks).  The
        # requests that wait for this thread hold connections of the engine's pool, and
        # with all 15 of them held (its default size) the thread would wait for one
        # until the pool's 30 s timeout.  SQLite's pool has 96 (config.SQLITE_POOL),
        # and a restore needs every connection to the file closed by ``dispose``.
        self.pool = engine.pool if self.sqlite else engine.pool.recreate()
        self.integrity_error = engine.dialect.loaded_dbapi.IntegrityError
        self.jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def submit(self, work: Callable[[Any], Any]) -> Any:
        """Run ``work(cursor)`` in the next group; its result once committed (None
        if it broke a unique constraint: nothing of it is written)."""
        job = _Job(work)
        self.jobs.put(job)
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="group-commit", daemon=True)
                self._thread.start()
        job.done.acquire()               # released by the writer thread once committed
        if job.error is not None:
            raise job.error
        return job.result

    def _loop(self) -> None:
        raw: Any = None       # kept from one group to the next while writes are queued
        while True:
            try:
                batch = [self.jobs.get(timeout=self.IDLE)]
            except queue.Empty:
                with self._lock:
                    if self.jobs.empty():
                        self._thread = None
                        if self.pool is not self.engine.pool:
                            self.pool.dispose()   # no connection kept open while idle
                        return
                continue
            while len(batch) < self.MAX_BATCH:
                try:
                    batch.append(self.jobs.get_nowait())
                except queue.Empty:
                    break
            try:
                if raw is None:
                    raw = self.pool.connect()
                self._commit(raw, batch)
            except BaseException as exc:  # noqa: BLE001 - every waiting request hears of it
                for job in batch:
                    job.result, job.error = None, exc
                _give_back(raw)
                raw = None
            for job in batch:
                job.done.release()
            if raw is not None and self.jobs.empty():
                # Back to the pool (its check-in a rollback, a turn of the interpreter
                # lock): a restore or a dispose finds no connection held while idle.
                _give_back(raw)
                raw = None

    def _commit(self, raw: Any, batch: list[_Job]) -> None:
        try:
            with write_lock:
                cursor = raw.cursor()
                if self.sqlite:
                    cursor.execute("BEGIN")
                for job in batch:
                    cursor.execute("SAVEPOINT one_write")
                    try:
                        job.result = job.work(cursor)
                    except self.integrity_error:
                        job.result = None
                        cursor.execute("ROLLBACK TO SAVEPOINT one_write")
                    except Exception as exc:  # noqa: BLE001 - that request's answer
                        job.error = exc
                        cursor.execute("ROLLBACK TO SAVEPOINT one_write")
                    cursor.execute("RELEASE SAVEPOINT one_write")
                raw.commit()
                cursor.close()
        except BaseException:
            raw.rollback()
            raise


def _give_back(raw: Any) -> None:
    """Return the group committer's connection to its pool; a connection that fails
    to close (it is invalidated by the pool) must not end the committer's thread."""
    if raw is not None:
        with contextlib.suppress(Exception):
            raw.close()


class _Job:
    __slots__ = ("work", "result", "error", "done")

    def __init__(self, work: Callable[[Any], Any]) -> None:
        self.work = work
        self.result: Any = None
        self.error: BaseException | None = None
        # Held until the write's group is committed: a bare lock is one futex, where an
        # Event is a condition, a lock made for each wait and a list of waiters.
        self.done = threading.Lock()
        self.done.acquire()


_groups_lock = threading.Lock()


def group_commit() -> GroupCommit:
    """The group committer of this app's database.

    Kept on the app (``extensions``), not in a module-level table: it holds the
    engine, its pool and its compiled statements, which then live as long as the
    app does.  (A table keyed by engine kept every test's app engine alive: the
    heap grew to 1.4 million objects a test process and each full collection of
    it took half a second.)"""
    engine = db.engine
    extensions = current_app.extensions
    found: GroupCommit | None = extensions.get("director.group_commit")
    if found is None or found.engine is not engine:
        with _groups_lock:
            found = extensions.get("director.group_commit")
            if found is None or found.engine is not engine:
                found = extensions["director.group_commit"] = GroupCommit(engine)
    return found


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
