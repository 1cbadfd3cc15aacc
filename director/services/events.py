"""Live events for the screens: an in-process broker per tournament.

Shaped like CTFd's ``events`` module: every SSE stream owns a queue; a
service publishes an event after its commit and every stream of that
tournament gets the same pre-encoded bytes.  Because the level scheduler may
run in another process (``director scheduler``), one watcher thread per web
process also compares each watched tournament's ``version`` column with the
last version it published, every ``SSE_WATCH_SECONDS`` (0.5 s), and publishes
the fresh state when another process changed it.  One query per process per
tick, however many screens are open.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app

CLOSE = b""  # put on a queue to end its stream

# What the watcher asks the clock service, handed over by the app factory (the clock
# publishes through this broker, so the broker does not import the clock):
Versions = Callable[[list[int]], dict[int, int]]   # tournament id -> its version column
State = Callable[[int], dict[str, Any]]            # a tournament's public clock state


class TooManyStreams(RuntimeError):
    """Every stream slot is taken; the screen should poll instead."""


@dataclass(eq=False)
class Subscription:
    tournament_id: int
    queue: queue.Queue[bytes] = field(default_factory=queue.Queue)


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

    def init_app(self, app: Flask) -> None:
        self.app = app
        self.max_streams = max(1, app.config["THREADS"] - int(app.config["SSE_RESERVED_THREADS"]))
        self.watch_seconds = float(app.config["SSE_WATCH_SECONDS"])
        app.extensions["director.events"] = self

    # -- streams -------------------------------------------------------------
    @property
    def stream_count(self) -> int:
        with self._lock:
            return sum(len(subs) for subs in self._subscribers.values())

    def subscribe(self, tournament_id: int) -> Subscription:
        sub = Subscription(tournament_id)
        with self._lock:
            if sum(len(s) for s in self._subscribers.values()) >= self.max_streams:
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
        self, tournament_id: int, kind: str, data: dict[str, Any], version: int | None = None
    ) -> int:
        """Send one event to every stream of the tournament; returns how many."""
        payload = encode(kind, data, version)
        with self._lock:
            if version is not None:
                known = self._versions.get(tournament_id)
                if tournament_id in self._subscribers and (known is None or version > known):
                    self._versions[tournament_id] = version
            subs = list(self._subscribers.get(tournament_id, ()))
        for sub in subs:
            sub.queue.put(payload)
        return len(subs)

    def close(self) -> None:
        """End every stream and the watcher (server shut-down, tests)."""
        self._stop.set()
        with self._lock:
            subs = [s for group in self._subscribers.values() for s in group]
        for sub in subs:
            sub.queue.put(CLOSE)

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
                if version != watched[tid]:
                    state = self.state(tid)
                    self.publish(tid, "clock", state, state["version"])


def events(app: Flask | None = None) -> TournamentEvents:
    broker: TournamentEvents = (app or current_app).extensions["director.events"]
    return broker
