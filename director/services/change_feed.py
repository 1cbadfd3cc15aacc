"""The change feed: every committed change, told to every server process.

A service commits, then publishes through the broker (``services.events``): the
broker pushes the event to this process's screens and hands a ``Change`` to the
feed, which tells the other processes.  Each process's listener hands the
changes of the others back to its own broker, which pushes them to its own
screens (and runs the kind's handlers: a revoked tablet is forgotten at once).

The backend follows ``CHANGE_FEED`` (``auto``: from the database URL):

* ``memory``: one process, ``make run`` on SQLite: there is nobody to tell.
* ``postgres``: ``NOTIFY`` right after the commit; one ``LISTEN`` connection per
  process (the default on PostgreSQL).
* ``table``: several processes on one SQLite file: a ``change_feed`` row right
  after the commit; every ``CHANGE_FEED_POLL_SECONDS`` each process reads the
  rows after the last one it saw (one query on the primary key per tick).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import queue
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from datetime import timedelta
from typing import Any, Protocol

from flask import Flask
from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Engine

from director.db import db, utcnow, write_lock
from director.models.change_feed import ChangeFeedEntry

KINDS = ("clock", "structure", "seating", "money", "hands", "house rules", "device pairing")
BACKENDS = ("auto", "memory", "postgres", "table")


@dataclass(frozen=True)
class Change:
    """One committed change: its ``kind`` (one of ``KINDS``), the tournament, its
    version where it has one, and the screens' event (``event``, ``data``: "" when
    the screens are not told).  ``data`` None: too big to send, each receiver reads it.

    >>> Change.from_json(Change("clock", 3, 7, "clock", {"running": True}, "a1").to_json())
    Change(kind='clock', tournament_id=3, version=7, event='clock', data={'running': True}, origin='a1')
    """

    kind: str
    tournament_id: int
    version: int | None = None
    event: str = ""
    data: dict[str, Any] | None = None
    origin: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: str) -> Change:
        fields = json.loads(raw)
        return cls(**{name: fields.get(name) for name in cls.__dataclass_fields__
                      if name in fields})


Deliver = Callable[[list[Change]], None]     # the changes that arrived together, in order


class Feed(Protocol):
    name: str

    def send(self, changes: list[Change]) -> None: ...
    def start(self, deliver: Deliver) -> None: ...
    def close(self) -> None: ...


class MemoryFeed:
    """One process: its broker already told its screens."""

    name = "memory"

    def send(self, changes: list[Change]) -> None:
        pass

    def start(self, deliver: Deliver) -> None:
        pass

    def close(self) -> None:
        pass


class _Listener:
    """A feed with two threads.  The sender writes the changes handed to ``send``,
    in order, a batch at a time: the request that committed does not wait, and
    never takes a second connection from the pool while its session holds one
    (with every pooled connection held by a request, that would wait forever).
    The listener reads the other processes' changes: ``start`` returns once it
    listens (or after 5 s); a lost connection is opened again a second later."""

    name = ""
    BATCH = 200

    def __init__(self, app: Flask) -> None:
        self.app = app
        self._engine: Engine | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._lock = threading.Lock()
        self._outbox: queue.SimpleQueue[list[Change]] = queue.SimpleQueue()   # a change's, together
        self._sender: threading.Thread | None = None

    def send(self, changes: list[Change]) -> None:
        """Send these changes (one commit's, in order) in one batch, after those sent before."""
        self._outbox.put(changes)
        if self._sender is None:
            with self._lock:
                if self._sender is None:
                    sender = threading.Thread(target=self._send_all, daemon=True,
                                              name=f"director-change-feed-{self.name}-sender")
                    sender.start()
                    # Seen by ``close`` only once started: a close racing this send joined a
                    # thread not yet started (RuntimeError in a test's teardown on CI).
                    self._sender = sender
                    atexit.register(self.close)   # a process that ends sends what it committed

    def _send_all(self) -> None:
        while True:
            try:
                batch = list(self._outbox.get(timeout=0.2))
            except queue.Empty:
                if self._stop.is_set():
                    self.sent_all()
                    return
                continue
            while len(batch) < self.BATCH:
                try:
                    batch += self._outbox.get_nowait()
                except queue.Empty:
                    break
            for attempt in range(3):
                try:
                    self.write(batch)
                    break
                except Exception:  # the database is away: try again, then drop the batch
                    if attempt == 2:
                        self.app.logger.exception("change feed (%s): %s changes not sent",
                                                  self.name, len(batch))
                    self._stop.wait(0.5)

    def write(self, batch: list[Change]) -> None:
        raise NotImplementedError

    def sent_all(self) -> None:
        """The sender's last step, once closed and everything sent."""

    @property
    def engine(self) -> Engine:
        if self._engine is None:
            with self.app.app_context():
                self._engine = db.engine
        return self._engine

    def start(self, deliver: Deliver) -> None:
        with self._lock:
            if self._thread is not None and self._thread.is_alive() or self._stop.is_set():
                return
            self._thread = threading.Thread(target=self._run, args=(deliver,), daemon=True,
                                            name=f"director-change-feed-{self.name}")
            self._thread.start()
        self._ready.wait(5)

    def close(self) -> None:
        """Stop listening; what is still to send is sent (for up to 5 s)."""
        self._stop.set()
        if self._sender is not None and self._sender is not threading.current_thread():
            self._sender.join(5)

    def _run(self, deliver: Deliver) -> None:
        while not self._stop.is_set():
            try:
                self.listen(deliver)
            except Exception:  # a lost connection: listen again in a second
                if not self._stop.is_set():
                    self.app.logger.exception("change feed (%s): listening again in 1 s", self.name)
            self._stop.wait(1)

    def listen(self, deliver: Deliver) -> None:
        raise NotImplementedError


class PostgresFeed(_Listener):
    """``NOTIFY`` on ``channel`` (payload: the change's JSON); a ``LISTEN`` connection
    of its own, kept for the process's life, reads the others'."""

    name = "postgres"
    MAX_PAYLOAD = 7900  # PostgreSQL refuses a payload of 8,000 bytes or more

    def __init__(self, app: Flask, channel: str) -> None:
        super().__init__(app)
        self.channel = channel
        self._sending: Any = None      # the sender thread's connection (``write``)

    def write(self, batch: list[Change]) -> None:
        payloads = []
        for change in batch:
            payload = change.to_json()
            if len(payload.encode()) > self.MAX_PAYLOAD:
                payload = replace(change, data=None).to_json()
            payloads.append(payload)
        # One round trip for the batch, on a connection of the sender's own in autocommit:
        # a pooled one cost four (its ping, BEGIN, COMMIT and the pool's rollback), each a
        # wait for the interpreter lock while the event loop writes the change to the
        # screens (a NOTIFY then took 190 ms to leave a process with two busy threads).
        if self._sending is None:
            self._sending = self._own_connection()
        try:
            self._sending.execute("SELECT pg_notify(%s, payload) FROM unnest(%s::text[]) "
                                  "AS payload", (self.channel, payloads))
        except Exception:
            self._close_sending()           # lost: the next attempt opens another
            raise

    def _own_connection(self) -> Any:
        """A connection with the pool's settings (search path, name) in autocommit, never
        given back to the pool."""
        raw = self.engine.raw_connection()
        connection: Any = raw.driver_connection
        raw.detach()
        connection.rollback()
        connection.autocommit = True
        return connection

    def _close_sending(self) -> None:
        sending, self._sending = self._sending, None
        if sending is not None:
            with contextlib.suppress(Exception):
                sending.close()

    def sent_all(self) -> None:
        self._close_sending()

    def listen(self, deliver: Deliver) -> None:
        connection = self._own_connection()
        try:
            channel = self.channel.replace('"', '""')
            connection.execute(f'LISTEN "{channel}"')
            self._ready.set()
            while not self._stop.is_set():
                # What one read brought (``stop_after``: never fewer than a packet holds):
                # a change's events are sent in one batch, and go to a screen in one write.
                arrived = list(connection.notifies(timeout=1.0, stop_after=1))
                if arrived:
                    deliver([Change.from_json(notify.payload) for notify in arrived])
        finally:
            connection.close()


class TableFeed(_Listener):
    """A ``change_feed`` row per change; read by every process every ``poll_seconds``."""

    name = "table"
    KEEP = timedelta(minutes=5)      # rows older than this are deleted ...
    PRUNE_SECONDS = 60.0             # ... once a minute, by whichever process

    def __init__(self, app: Flask, poll_seconds: float) -> None:
        super().__init__(app)
        self.poll_seconds = poll_seconds

    def write(self, batch: list[Change]) -> None:
        now = utcnow()
        rows = [{"at": now, "tournament_id": change.tournament_id, "kind": change.kind,
                 "payload": change.to_json()} for change in batch]
        # A connection first, then the write lock (db.write_lock); one commit per batch.
        with self.engine.connect() as connection, write_lock:
            connection.execute(insert(ChangeFeedEntry), rows)
            connection.commit()

    def listen(self, deliver: Deliver) -> None:
        table = ChangeFeedEntry
        with self.engine.connect() as connection:
            last = connection.scalar(select(func.max(table.id))) or 0
        self._ready.set()
        pruned = time.monotonic()
        while not self._stop.wait(self.poll_seconds):
            with self.engine.connect() as connection:
                rows = connection.execute(select(table.id, table.payload).where(table.id > last)
                                          .order_by(table.id).limit(1000)).all()
                if time.monotonic() - pruned > self.PRUNE_SECONDS:
                    pruned = time.monotonic()
                    with write_lock:
                        connection.execute(delete(table).where(table.at < utcnow() - self.KEEP))
                        connection.commit()
            if rows:
                last = rows[-1][0]
                deliver([Change.from_json(payload) for _row_id, payload in rows])


def backend(app: Flask) -> str:
    """The backend ``CHANGE_FEED`` names; ``auto``: ``postgres`` on PostgreSQL, else ``memory``."""
    choice = str(app.config.get("CHANGE_FEED") or "auto").strip().lower()
    if choice not in BACKENDS:
        raise ValueError(f"DIRECTOR_CHANGE_FEED must be one of {', '.join(BACKENDS)}, "
                         f"not {choice!r}")
    if choice == "auto":
        url = str(app.config["SQLALCHEMY_DATABASE_URI"])
        return "postgres" if url.startswith("postgresql") else "memory"
    return choice


def for_app(app: Flask) -> Feed:
    chosen = backend(app)
    if chosen == "postgres":
        return PostgresFeed(app, str(app.config["CHANGE_FEED_CHANNEL"]))
    if chosen == "table":
        return TableFeed(app, float(app.config["CHANGE_FEED_POLL_SECONDS"]))
    return MemoryFeed()


def new_origin() -> str:
    """Which broker sent a change (its own are not delivered back to it)."""
    return uuid.uuid4().hex[:12]
