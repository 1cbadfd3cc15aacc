"""Several server processes (issues 18 and 28): the scheduler's lock, and the
stand-by for it in every serving process.

* The level scheduler runs in exactly one process: the one that holds the lock
  (PostgreSQL: a session advisory lock; SQLite: a file lock on
  ``instance/scheduler.lock``).  The operating system releases it when that
  process dies.  Every other serving process tries to take it every
  ``SCHEDULER_RETRY_SECONDS`` (2 s), so another one runs the levels within a few
  seconds; its jobs are rebuilt from the database, and a level end that fell due
  meanwhile runs at once ("do what is due as of now").
* ``director serve --workers N`` is uvicorn's own supervisor (``director.asgi``):
  N processes on the one port, each started again when it dies; each process
  runs a ``SchedulerStandby`` from its lifespan.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

from flask import Flask
from sqlalchemy import text

from director.db import db
from director.services.scheduler import start_backups, start_scheduler, stop_scheduler

SCHEDULER_LOCK_KEY = 0x6469_7265  # "dire": the PostgreSQL advisory lock of the scheduler


def hold_scheduler_lock(app: Flask) -> object | None:
    """Make this the one scheduler process: ``None`` when another one holds the lock.

    PostgreSQL: a session advisory lock on a connection kept open for the
    process's life.  SQLite: an exclusive lock on ``instance/scheduler.lock``
    (``flock``; ``msvcrt.locking`` on Windows).  Either is released by the
    operating system if the process dies.
    """

    with app.app_context():
        engine = db.engine
    if engine.dialect.name == "postgresql":
        connection = engine.connect()
        key = int(app.config.get("SCHEDULER_LOCK_KEY") or SCHEDULER_LOCK_KEY)
        got = connection.execute(text("SELECT pg_try_advisory_lock(:key)"),
                                 {"key": key}).scalar()
        connection.commit()
        if not got:
            connection.close()
            return None
        return _AdvisoryLock(connection, key)
    handle = open(os.path.join(app.instance_path, "scheduler.lock"), "a+")  # noqa: SIM115
    try:
        _lock_file(handle)
    except OSError:
        handle.close()
        return None
    return handle


def _lock_file(handle: Any) -> None:
    if os.name == "nt":
        import msvcrt  # noqa: PLC0415  (optional: Windows only)

        handle.seek(0)
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        return
    import fcntl  # noqa: PLC0415  (optional: POSIX only)

    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)


class _AdvisoryLock:
    """A held PostgreSQL advisory lock; ``close()`` unlocks it before the
    connection goes back to the pool (where its session, and so the lock, lives on)."""

    def __init__(self, connection: Any, key: int) -> None:
        self.connection = connection
        self.key = key

    def close(self) -> None:
        try:
            self.connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": self.key})
            self.connection.commit()
        finally:
            self.connection.close()


def release_scheduler_lock(lock: object | None) -> None:
    close = getattr(lock, "close", None)
    if close is not None:
        close()


class SchedulerStandby:
    """The scheduler of a serving process: run at once if the lock is free, else
    try again every ``SCHEDULER_RETRY_SECONDS`` until the holder is gone.
    ``on_take`` is told when this process takes over."""

    def __init__(self, app: Flask, on_take: Callable[[], None] = lambda: None) -> None:
        self.app = app
        self.on_take = on_take
        self.retry = float(app.config.get("SCHEDULER_RETRY_SECONDS", 2.0))
        self.lock: object | None = None
        self._stop = threading.Event()

    def start(self) -> bool:
        """True when this process runs the scheduler now; else it stands by."""
        if self._take():
            return True
        threading.Thread(target=self._wait, name="director-scheduler-standby", daemon=True).start()
        return False

    def _wait(self) -> None:
        while not self._stop.wait(self.retry):
            if self._take():
                self.on_take()
                return

    def _take(self) -> bool:
        try:
            lock = hold_scheduler_lock(self.app)
        except Exception:  # the database is away: try again later
            self.app.logger.exception("scheduler stand-by: could not ask for the lock")
            return False
        if lock is None:
            return False
        if self._stop.is_set():
            release_scheduler_lock(lock)
            return False
        self.lock = lock
        start_scheduler(self.app)
        start_backups(self.app)
        return True

    def close(self) -> None:
        self._stop.set()
        stop_scheduler(self.app)
        release_scheduler_lock(self.lock)
        self.lock = None
