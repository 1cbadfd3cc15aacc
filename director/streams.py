"""Live screens without a thread each (issues 18 and 28): the event streams as a
native ASGI endpoint, served by the same server and on the same port as the
pages (``director.asgi``).

``GET /clock/<id>/events``: a comment ping at once and then every
``SSE_PING_SECONDS``, the full clock state first, then every event of the
tournament (the same stream as ``views.clock``'s, which the Flask test client
still uses); ``?table=<table id>``: and that table's hand events (``dealer``,
``events.TableEvent``), which the other screens are not sent.  An open stream
costs a socket and a few hundred bytes: no thread.

The broker (``services.events``) hands each event once to the event loop (one
subscription per tournament and process, whatever the number of screens); a
screen gets at most one write every ``COALESCE_SECONDS`` (the first event after a
quiet spell at once, the next ones of the window together at its end).  A
screen that reads nothing is let go once ``SLOW_SCREEN_BYTES`` wait for it (it
reconnects).  Nothing here reads HTTP: the server does.

``Tally`` says what the server turned away, once a minute per reason, so that a
flood of the port costs a few log lines a minute (``director.asgi``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from flask import Flask

from director.db import db
from director.services import read_model
from director.services.events import (
    CLOSE,
    Subscription,
    encode,
    events,
    sent_to,
    table_of,
)
from director.views.clock import table_asked

log = logging.getLogger("director.streams")

TALLY_SECONDS = 60.0            # one log line per reason per this long
SLOW_SCREEN_BYTES = 512 * 1024  # a screen that reads nothing is let go past this
FIRST_STATE_SECONDS = 0.2       # a new screen's first state may be this old (its server_time)
COALESCE_SECONDS = 0.02         # at most one write to a screen this often
MAX_ID = 2**63 - 1
HEADERS = [(b"content-type", b"text/event-stream"),
           (b"cache-control", b"no-cache, no-transform"),
           (b"x-accel-buffering", b"no")]
HELLO = b"retry: 2000\n: connected\n\n"
PING = b": ping\n\n"


class _Screen:
    """One open stream: what waits to be written, and the coroutine writing it."""

    __slots__ = ("table", "pending", "size", "started", "closed", "waiter", "task")

    def __init__(self, table: int | None = None) -> None:
        self.table = table
        self.pending: list[bytes] = []
        self.size = 0
        self.started = False
        self.closed = False
        self.waiter: asyncio.Future[None] | None = None
        self.task: asyncio.Task[Any] | None = asyncio.current_task()

    def put(self, payload: bytes) -> None:
        self.pending.append(payload)
        self.size += len(payload)
        if self.size > SLOW_SCREEN_BYTES and self.task is not None:
            self.closed = True
            self.task.cancel()      # it reads nothing: let it go (it reconnects)
        self.wake()

    def wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)


class _Tournament:
    """The open streams of one tournament, and its subscription to the broker."""

    def __init__(self) -> None:
        self.screens: set[_Screen] = set()
        self.by_table: dict[int, set[_Screen]] = {}    # the screens that named a table
        self.subscription: Subscription | None = None
        self.first: tuple[float, bytes] | None = None
        self.reading = asyncio.Lock()


class LiveScreens:
    """The ASGI endpoint of the streams, for one process and its event loop."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.ping = float(app.config["SSE_PING_SECONDS"])
        self.tournaments: dict[int, _Tournament] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._pinger: asyncio.Task[None] | None = None

    @property
    def count(self) -> int:
        """The open streams."""
        return sum(len(t.screens) for t in self.tournaments.values())

    async def __call__(self, scope: dict[str, Any], receive: Callable[..., Any],
                       send: Callable[..., Any]) -> None:
        if scope["method"] not in ("GET", "HEAD"):
            await _plain(send, 405, "Only GET is served here")
            return
        tournament_id = int(scope["path_params"]["tournament_id"])
        if tournament_id > MAX_ID:
            await _plain(send, 404, f"There is no tournament {tournament_id}")
            return
        table = table_asked(scope.get("query_string", b""))
        if isinstance(table, str):
            await _plain(send, 400, table)
            return
        self._start()
        tournament = self._tournament(tournament_id)
        screen = _Screen(table)
        tournament.screens.add(screen)       # events from now on wait for its first state
        if table is not None:
            tournament.by_table.setdefault(table, set()).add(screen)
        listener = asyncio.ensure_future(self._until_gone(receive, screen))
        try:
            first = await self._first_state(tournament_id, tournament)
            if first is None:
                await _plain(send, 404, f"There is no tournament {tournament_id}")
                return
            await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
            out = [HELLO, first, *screen.pending]
            screen.pending, screen.size, screen.started = [], 0, True
            while not screen.closed:
                await send({"type": "http.response.body", "body": b"".join(out), "more_body": True})
                if not screen.pending and not screen.closed:
                    screen.waiter = asyncio.get_running_loop().create_future()
                    await screen.waiter
                    screen.waiter = None
                out, screen.pending, screen.size = screen.pending, [], 0
            await send({"type": "http.response.body", "body": b""})   # the server stops
        except OSError:
            pass
        finally:
            listener.cancel()
            self._forget(tournament_id, screen)

    @staticmethod
    async def _until_gone(receive: Callable[..., Any], screen: _Screen) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass
        screen.closed = True
        screen.wake()

    def _start(self) -> None:
        if self.loop is None:
            self.loop = asyncio.get_running_loop()
            self._pinger = self.loop.create_task(self._pings())

    def _tournament(self, tournament_id: int) -> _Tournament:
        tournament = self.tournaments.get(tournament_id)
        if tournament is None:
            assert self.loop is not None
            tournament = self.tournaments[tournament_id] = _Tournament()
            inbox = _Inbox(self.loop, lambda items: self._fan_out(tournament_id, items))
            tournament.subscription = events(self.app).subscribe(tournament_id, inbox=inbox)
        return tournament

    def _forget(self, tournament_id: int, screen: _Screen) -> None:
        tournament = self.tournaments.get(tournament_id)
        if tournament is None:
            return
        tournament.screens.discard(screen)
        if screen.table is not None:
            held = tournament.by_table.get(screen.table, set())
            held.discard(screen)
            if not held:
                tournament.by_table.pop(screen.table, None)
        if not tournament.screens:
            del self.tournaments[tournament_id]
            if tournament.subscription is not None:
                events(self.app).unsubscribe(tournament.subscription)

    async def _first_state(self, tournament_id: int, tournament: _Tournament) -> bytes | None:
        """The clock state a new screen starts from: one read for the screens that
        open at once (after a restart every screen comes back in the same second)."""
        async with tournament.reading:
            if tournament.first is not None \
                    and time.monotonic() - tournament.first[0] < FIRST_STATE_SECONDS:
                return tournament.first[1]
            first = await asyncio.to_thread(self._read_state, tournament_id)
            if first is not None:
                tournament.first = (time.monotonic(), first)
            return first

    def _read_state(self, tournament_id: int) -> bytes | None:
        with self.app.app_context():
            try:
                state = read_model.clock_state(tournament_id)
            except Exception:  # NotFound (the 404), or the database is away
                return None
            finally:
                db.session.remove()
            events(self.app).seen(tournament_id, state["version"])
            return encode("clock", state, state["version"])

    def _fan_out(self, tournament_id: int, items: list[bytes]) -> None:
        """One window's events to the tournament's screens, each screen its own: the
        events for every screen, and those of its table (in the order they came).  A
        window of hand events alone touches only the screens of those tables."""
        tournament = self.tournaments.get(tournament_id)
        if tournament is None:
            return
        closing = CLOSE in items
        items = [item for item in items if item != CLOSE]
        tables = {table for item in items if (table := table_of(item)) is not None}
        payloads: dict[int | None, bytes] = {}

        def payload(table: int | None) -> bytes:
            if table not in payloads:
                payloads[table] = b"".join(item for item in items if sent_to(item, table))
            return payloads[table]

        if payload(None):
            for screen in list(tournament.screens):
                screen.put(payload(screen.table if screen.table in tables else None))
        else:
            for table in tables:
                for screen in list(tournament.by_table.get(table, ())):
                    screen.put(payload(table))
        if closing:
            for screen in list(tournament.screens):
                screen.closed = True
                screen.wake()

    async def _pings(self) -> None:
        while True:
            await asyncio.sleep(self.ping)
            for tournament in list(self.tournaments.values()):
                for screen in list(tournament.screens):
                    if screen.started:
                        screen.put(PING)

    def close(self) -> None:
        """End every stream (the server is stopping); call on the loop."""
        for tournament_id in list(self.tournaments):
            self._fan_out(tournament_id, [CLOSE])
        if self._pinger is not None:
            self._pinger.cancel()


async def _plain(send: Callable[..., Any], status: int, text: str) -> None:
    body = text.encode() + b"\n"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class _Inbox:
    """The broker's side of a tournament's screens.  Each screen gets at most one write
    every ``COALESCE_SECONDS``: 300 tablets make about 150 events a second, and a
    write per event per screen is what would cost the most with thousands of screens.
    The first event after a quiet spell goes at once (a level change on a quiet
    clock waits for nothing); those that follow within the window go together at
    its end."""

    def __init__(self, loop: asyncio.AbstractEventLoop,
                 fan_out: Callable[[list[bytes]], None]) -> None:
        self.loop = loop
        self.fan_out = fan_out
        self._items: list[bytes] = []
        self._lock = threading.Lock()
        self._last = -math.inf          # the loop's time of the last write

    def put(self, item: bytes) -> None:
        with self._lock:
            first = not self._items
            self._items.append(item)
        if first and not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):   # the loop closed meanwhile
                self.loop.call_soon_threadsafe(self._schedule)

    def _schedule(self) -> None:
        wait = self._last + COALESCE_SECONDS - self.loop.time()
        if wait <= 0:
            self._flush()
        else:
            self.loop.call_later(wait, self._flush)

    def _flush(self) -> None:
        self._last = self.loop.time()
        with self._lock:
            items, self._items = self._items, []
        if items:
            self.fan_out(items)


class Tally:
    """Counts what happened for each reason, and says it in one log line per reason
    per ``every`` seconds: the first at once, then how many more came meanwhile
    (``flush``, every few seconds).  A flood of the port costs a few lines a minute,
    not a line a connection.
    """

    def __init__(self, logger: logging.Logger, every: float = TALLY_SECONDS,
                 clock: Callable[[], float] = time.monotonic,
                 says: Callable[[int, str], str] | None = None) -> None:
        self.logger, self.every, self.clock = logger, every, clock
        self.says = says or (lambda n, reason: f"Server: turned away {n:,} "
                             f"connection{'' if n == 1 else 's'} in the last minute: {reason}")
        self._counts: dict[str, int] = {}
        self._said: dict[str, float] = {}
        self._exceptions: dict[str, BaseException] = {}
        self._lock = threading.Lock()

    def add(self, reason: str, exception: BaseException | None = None) -> None:
        with self._lock:
            self._counts[reason] = self._counts.get(reason, 0) + 1
            if exception is not None:
                self._exceptions[reason] = exception
            due = self.clock() - self._said.get(reason, -math.inf) >= self.every
        if due:
            self._say(reason)

    def flush(self) -> None:
        """Say the counts whose minute is up."""
        now = self.clock()
        for reason in list(self._counts):
            if now - self._said.get(reason, -math.inf) >= self.every:
                self._say(reason)

    def pending(self) -> dict[str, int]:
        """What was counted and not said yet."""
        return dict(self._counts)

    def _say(self, reason: str) -> None:
        with self._lock:
            count = self._counts.pop(reason, 0)
            exception = self._exceptions.pop(reason, None)
            self._said[reason] = self.clock()
        if count:
            self.logger.warning(self.says(count, reason), exc_info=exception)


def connection_cap(config: Mapping[str, Any], open_files: int | None) -> int:
    """The most connections a server process holds at once: ``MAX_CONNECTIONS``,
    but no more than the open-files limit leaves after ``RESERVED_FILES`` for the
    rest of the process (the database's files, the log, the scheduler, the
    connections being turned away); on a limit too small for that reserve, a
    quarter of it.  No limit (``None``: Windows) leaves the setting.

    >>> settings = {"MAX_CONNECTIONS": 10_000, "RESERVED_FILES": 512}
    >>> connection_cap(settings, 1024), connection_cap(settings, 65_536), connection_cap(settings, 256)
    (512, 10000, 64)
    """
    wanted = int(config["MAX_CONNECTIONS"])
    if open_files is not None:
        share = max(open_files - int(config["RESERVED_FILES"]), open_files // 4)
        wanted = min(wanted, share)
    return max(1, wanted)


def raise_open_files_limit() -> int | None:
    """Each screen is a socket: lift the soft limit of open files to the hard one
    (often 1,024 by default on Linux; macOS refuses more than ``OPEN_MAX``, 10,240,
    where the hard limit says unlimited).  Returns the soft limit now in force, or
    None where there is none (Windows)."""
    try:
        import resource  # noqa: PLC0415  (optional: POSIX only)
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    targets = [hard] if hard != resource.RLIM_INFINITY else [max(soft, 65536), 10240]
    for target in targets:
        if soft != resource.RLIM_INFINITY and soft >= target:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            break
        except (OSError, ValueError):
            continue
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else int(soft)
