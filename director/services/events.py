"""Live events for the screens: an in-process broker per tournament.

Shaped like CTFd's ``events`` module: every SSE stream owns a queue; a
service publishes an event after its commit and every stream of that
tournament gets the same pre-encoded bytes (a table's hand events, ``TableEvent``:
only the streams that name the table).

Several server processes (issue 18): ``publish`` also hands the change to the
change feed (``services.change_feed``: in memory, PostgreSQL LISTEN/NOTIFY, or a
polled table on SQLite), and each process's feed listener hands the changes of
the others to ``deliver``, which pushes them to this process's screens and runs
the kind's handlers (``on``: a revoked tablet is forgotten at once).

As a safety net for a commit that publishes nothing (and for ``director
scheduler`` beside a server on the in-memory feed), one watcher thread per web
process also compares each watched tournament's ``version`` column with the
last version it published, every ``SSE_WATCH_SECONDS`` (0.5 s), and publishes
the fresh state when it changed.  One query per process per tick, however many
screens are open.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from flask import Flask, current_app

from director.services import change_feed
from director.services.change_feed import Change, Feed, MemoryFeed

CLOSE = b""  # put on a queue to end its stream


class TableEvent(bytes):
    """An encoded event for one table's screens only (a ``dealer`` event: its tablet
    reads its hand again).  300 tablets make about 100 of them a second; a screen that
    does not name the table (the clock, the seating chart, the other tablets) is not
    sent them, which spares the room's Wi-Fi and the server a write per event per screen.

    >>> item = TableEvent.of(b"event: dealer\\n", 7)
    >>> item.table, item == b"event: dealer\\n", table_of(b"event: clock\\n")
    (7, True, None)
    """

    table: int

    @classmethod
    def of(cls, payload: bytes, table: int) -> TableEvent:
        item = cls(payload)
        item.table = table
        return item


def table_of(item: bytes) -> int | None:
    """The table whose screens alone get ``item``; None: every screen of the tournament."""
    return item.table if isinstance(item, TableEvent) else None


def sent_to(item: bytes, table: int | None) -> bool:
    """Whether a screen of ``table`` (None: of no table) is sent ``item``."""
    told = table_of(item)
    return told is None or told == table


# What the watcher asks the clock service, handed over by the app factory (the clock
# publishes through this broker, so the broker does not import the clock):
Versions = Callable[[list[int]], dict[int, int]]   # tournament id -> its version column
State = Callable[[int], dict[str, Any]]            # a tournament's public clock state
Handler = Callable[[Change], None]                 # a change made by another process
Told = tuple[str, dict[str, Any], int | None]      # an event: its name, data and version

# The kind of change a screens' event tells, when the publisher names none.
KIND_OF_EVENT = {"clock": "clock", "seating": "seating", "dealer": "hands"}


class TooManyStreams(RuntimeError):
    """Every stream slot is taken; the screen should poll instead."""


class Inbox(Protocol):
    def put(self, item: bytes) -> None: ...


@dataclass(eq=False)
class Subscription:
    """A stream served by a thread reads ``queue`` (``table``: the table whose
    ``TableEvent`` it is sent); the stream server's one subscription per tournament
    brings its own ``inbox`` (``director.streams``), which is handed every event and
    picks each screen's."""

    tournament_id: int
    queue: queue.Queue[bytes] = field(default_factory=queue.Queue)
    inbox: Inbox | None = None
    table: int | None = None


def encode(kind: str, data: dict[str, Any], event_id: int | None = None) -> bytes:
    """One server-sent event.

    >>> encode("clock", {"level_index": 2}, 7)
    b'id: 7\\nevent: clock\\ndata: {"level_index":2}\\n\\n'
    """
    head = f"id: {event_id}\n" if event_id is not None else ""
    body = json.dumps(data, separators=(",", ":"))
    return f"{head}event: {kind}\ndata: {body}\n\n".encode()


class TournamentEvents:
    """Per-tournament fan-out of server-sent events within one process."""

    def __init__(self, versions: Versions | None = None, state: State | None = None) -> None:
        self.versions = versions
        self.state = state
        self._lock = threading.Lock()
        self._subscribers: dict[int, set[Subscription]] = {}
        self._versions: dict[int, int] = {}
        self._watcher: threading.Thread | None = None
        self._stop = threading.Event()
        self.app: Flask | None = None
        self.max_streams = 10_000
        self.watch_seconds = 1.0
        self.feed: Feed = MemoryFeed()
        self.origin = change_feed.new_origin()
        self._handlers: dict[str, list[Handler]] = {}

    def init_app(self, app: Flask) -> None:
        self.app = app
        self.feed = change_feed.for_app(app)
        self.max_streams = max(1, app.config["THREADS"] - int(app.config["SSE_RESERVED_THREADS"]))
        self.watch_seconds = float(app.config["SSE_WATCH_SECONDS"])
        app.extensions["director.events"] = self

    # -- streams -------------------------------------------------------------
    @property
    def stream_count(self) -> int:
        with self._lock:
            return sum(len(subs) for subs in self._subscribers.values())

    def subscribe(self, tournament_id: int, inbox: Inbox | None = None,
                  table: int | None = None) -> Subscription:
        """A stream of the tournament's events (``inbox``: not one of the limited threads;
        ``table``: and of that table's)."""
        self.start_feed()
        sub = Subscription(tournament_id, inbox=inbox, table=table)
        with self._lock:
            threads = sum(1 for s in self._subscribers.values() for one in s if one.inbox is None)
            if inbox is None and threads >= self.max_streams:
                raise TooManyStreams(f"all {self.max_streams} live-screen slots are in use")
            self._subscribers.setdefault(tournament_id, set()).add(sub)
            if self._watcher is None or not self._watcher.is_alive():
                self._stop.clear()
                self._watcher = threading.Thread(
                    target=self._watch, name="director-events-watcher", daemon=True
                )
                self._watcher.start()
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._subscribers.get(sub.tournament_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subscribers[sub.tournament_id]
                    self._versions.pop(sub.tournament_id, None)

    def seen(self, tournament_id: int, version: int) -> None:
        """Record the version a new stream starts from, if none is known yet."""
        with self._lock:
            self._versions.setdefault(tournament_id, version)

    # -- publishing ----------------------------------------------------------
    def publish(
        self, tournament_id: int, event: str, data: dict[str, Any], version: int | None = None,
        *, kind: str | None = None,
    ) -> int:
        """After a commit: send the event to every stream of the tournament in this
        process, and tell the other processes (``kind``: what changed, by default
        the event's own, ``KIND_OF_EVENT``).  Returns how many streams here."""
        return self.publish_all(tournament_id, [(event, data, version)], kind=kind)

    def publish_all(self, tournament_id: int, told: list[Told], *,
                    kind: str | None = None) -> int:
        """``publish`` for several events of one change, in order: a screen here is
        sent them in one write, the other processes in one batch of the feed (the
        seating figures and the clock of a late entry)."""
        sent = self._fan_out(tournament_id, told)
        changes = []
        for event, data, version in told:
            if version is None and isinstance(data.get("version"), int):
                version = data["version"]
            changes.append(Change(kind or KIND_OF_EVENT[event], tournament_id, version, event,
                                  data, self.origin))
        self.tell(*changes)
        return sent

    def notify(self, tournament_id: int, kind: str, data: dict[str, Any]) -> None:
        """After a commit that no screen shows: only the other processes' handlers hear of it."""
        self.tell(Change(kind, tournament_id, None, "", data, self.origin))

    def tell(self, *changes: Change) -> None:
        """Tell the other processes these changes, in one batch of the feed."""
        try:
            self.feed.send(list(changes))
        except Exception:  # the change is committed: a feed hiccup must not fail the request
            if self.app is not None:
                self.app.logger.exception("change feed: could not send a %s change",
                                          changes[0].kind if changes else "")

    def on(self, kind: str, handler: Handler) -> None:
        """Run ``handler`` for every change of ``kind`` made by another process (``*``:
        of every kind)."""
        self._handlers.setdefault(kind, []).append(handler)

    def deliver(self, changes: list[Change]) -> None:
        """Changes from the feed, as they arrived together: each one's handlers run (in
        the app's context: a cache is forgotten for this app), then this process's
        screens get their events, a tournament's in one write (one change's seating
        figures and clock come in one batch of the feed)."""
        told: dict[int, list[Told]] = {}
        for change in changes:
            if change.origin == self.origin:
                continue
            self._handle(change)
            event = self._event_of(change)
            if event is not None:
                told.setdefault(change.tournament_id, []).append(event)
        for tournament_id, events_ in told.items():
            self._fan_out(tournament_id, events_)

    def _handle(self, change: Change) -> None:
        handlers = (*self._handlers.get("*", ()), *self._handlers.get(change.kind, ()))
        with self.app.app_context() if self.app is not None else contextlib.nullcontext():
            for handler in handlers:
                try:
                    handler(change)
                except Exception:
                    if self.app is not None:
                        self.app.logger.exception("change feed: the %s handler failed",
                                                  change.kind)

    def _event_of(self, change: Change) -> Told | None:
        """What a change from another process sends this process's screens (None: no
        screen here is told it)."""
        if not change.event:
            return None
        with self._lock:
            if change.tournament_id not in self._subscribers:
                return None
        data = change.data
        if data is None:                     # too big for the feed: read it here
            if change.event != "clock" or self.state is None or self.app is None:
                return None
            with self.app.app_context():
                data = self.state(change.tournament_id)
        version = change.version if change.event == "clock" else None
        return change.event, data, version

    def start_feed(self) -> None:
        """Listen to the other processes' changes (at start-up, or with the first stream)."""
        self.feed.start(self.deliver)

    def _fan_out(self, tournament_id: int, told: list[Told]) -> int:
        payloads = [TableEvent.of(encode(event, data, version), data["table_id"])
                    if event == "dealer" and isinstance(data.get("table_id"), int)
                    else encode(event, data, version) for event, data, version in told]
        # One item for a screen's inbox when every screen is sent them all (no table's own)
        together = [b"".join(payloads)] if all(table_of(p) is None for p in payloads) \
            else payloads
        newest = max((version for _, _, version in told if version is not None), default=None)
        with self._lock:
            if newest is not None:
                known = self._versions.get(tournament_id)
                if tournament_id in self._subscribers and (known is None or newest > known):
                    self._versions[tournament_id] = newest
            subs = list(self._subscribers.get(tournament_id, ()))
        for sub in subs:
            if sub.inbox is not None:
                for item in together:
                    sub.inbox.put(item)
                continue
            for payload in payloads:
                if sent_to(payload, sub.table):
                    sub.queue.put(payload)
        return len(subs)

    def close(self) -> None:
        """End every stream, the watcher and the feed's listener (server shut-down, tests)."""
        self._stop.set()
        self.feed.close()
        with self._lock:
            subs = [s for group in self._subscribers.values() for s in group]
        for sub in subs:
            (sub.inbox or sub.queue).put(CLOSE)

    # -- changes made by other processes --------------------------------------
    def _watch(self) -> None:
        while not self._stop.wait(self.watch_seconds):
            with self._lock:
                watched = {tid: self._versions.get(tid) for tid in self._subscribers}
            if not watched:
                with self._lock:
                    if not self._subscribers:
                        self._watcher = None
                        return
                continue
            try:
                self._publish_changes(watched)
            except Exception:  # a DB hiccup must not kill the watcher
                if self.app is not None:
                    self.app.logger.exception("live-screen watcher: could not read versions")

    def _publish_changes(self, watched: dict[int, int | None]) -> None:
        assert self.app is not None
        if self.versions is None or self.state is None:
            return
        with self.app.app_context():
            for tid, version in self.versions(list(watched)).items():
                if watched[tid] is not None and version != watched[tid]:  # None: its first state is on its way
                    state = self.state(tid)   # every process's watcher sees it: not told again
                    self._fan_out(tid, [("clock", state, state["version"])])


def events(app: Flask | None = None) -> TournamentEvents:
    broker: TournamentEvents = (app or current_app).extensions["director.events"]
    return broker
