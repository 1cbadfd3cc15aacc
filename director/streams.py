"""Live screens without a thread each (issue 18): a small asyncio server for the
event streams, beside waitress in the same process.

waitress gives every open response a thread of its own, so a screen's stream
held one of its 256 threads.  Here one thread runs an asyncio loop that serves
``GET /clock/<id>/events`` on its own port (``director serve --stream-port``,
by default PORT+1): an open stream costs a socket and a few hundred bytes, and
one process holds thousands of them (``tests/web/test_streams.py``: 2,000), on
Linux and Windows alike (asyncio's default loop on each).  Everything else stays
with waitress, and so does the same URL there (the fallback when this port
cannot be reached: a firewall, or TLS in front).

The streams are the same as waitress's (``views.clock``): a comment ping at once
and then every ``SSE_PING_SECONDS``, the full clock state first, then every event
of the tournament.  The broker hands each event once to the loop (one
subscription per tournament, whatever the number of screens), and the loop
writes it to every screen of that tournament.  The pages are on another port,
so the answer allows any origin (the stream is public, and needs no cookie).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

from flask import Flask

from director.db import db
from director.services import clock as clock_service
from director.services.events import CLOSE, Subscription, encode, events

PATH = re.compile(rb"^/clock/(\d{1,18})/events(?:\?.*)?$")
HEAD_LIMIT = 8192               # bytes of a request head
SLOW_SCREEN_BYTES = 512 * 1024  # a screen that reads nothing is let go past this
FIRST_STATE_SECONDS = 0.2       # a new screen's first state may be this old (its server_time)
SWITCH_SECONDS = 0.001          # the GIL's switch interval while screens are served
COALESCE_SECONDS = 0.02         # the events of this long go to every screen in one write
HEADERS = (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
           b"Cache-Control: no-cache, no-transform\r\nX-Accel-Buffering: no\r\n"
           b"Access-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n")


def refusal(status: str, text: str, retry: bool = False) -> bytes:
    body = text.encode() + b"\n"
    extra = b"Retry-After: 10\r\n" if retry else b""
    return (f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nAccess-Control-Allow-Origin: *\r\n"
            "Connection: close\r\n").encode() + extra + b"\r\n" + body


class _Screens:
    """The open streams of one tournament, and its subscription to the broker."""

    def __init__(self) -> None:
        self.writers: dict[asyncio.StreamWriter, list[bytes] | None] = {}  # None: started
        self.subscription: Subscription | None = None
        self.first: tuple[float, bytes] | None = None
        self.reading = asyncio.Lock()


class StreamServer:
    def __init__(self, app: Flask, host: str, port: int) -> None:
        self.app = app
        self.host, self.port = host, port
        self.limit = int(app.config.get("STREAMS_MAX", 10_000))
        self.ping = float(app.config["SSE_PING_SECONDS"])
        self.loop = asyncio.new_event_loop()
        self.tournaments: dict[int, _Screens] = {}
        self._ready = threading.Event()
        self._error: BaseException | None = None

    # -- running -------------------------------------------------------------
    def start(self) -> None:
        """Listen on the port (raises ``OSError`` when it is taken), then serve from a thread."""
        raise_open_files_limit()
        # The loop gives up the GIL at each socket write, and a request thread busy
        # in Python (an answer of 300 tables) then keeps it for the switch interval,
        # 5 ms by default: a fan-out to 1,000 screens would wait that long between
        # writes.  1 ms lets the screens through while the request goes on.
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_SECONDS))
        threading.Thread(target=self._run, name="director-streams", daemon=True).start()
        self._ready.wait(10)
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(asyncio.start_server(
                self._serve, self.host, self.port, backlog=4096, limit=HEAD_LIMIT))
        except BaseException as exc:  # the port is taken: told to ``start``
            self._error = exc
            self._ready.set()
            return
        self.loop.create_task(self._pings())
        self._ready.set()
        self.loop.run_forever()

    def close(self) -> None:
        if self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)

    @property
    def count(self) -> int:
        return sum(len(screens.writers) for screens in self.tournaments.values())

    # -- one screen ----------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, OSError):
            writer.close()
            return
        method, _, rest = head.partition(b" ")
        match = PATH.match(rest.partition(b" ")[0])
        if method != b"GET" or match is None:
            await self._refuse(writer, "404 Not Found", "Only the live streams are served here")
            return
        if self.count >= self.limit:
            await self._refuse(writer, "503 Service Unavailable",
                               f"all {self.limit} live-screen slots are in use", retry=True)
            return
        tournament_id = int(match.group(1))
        screens = self._screens(tournament_id)
        screens.writers[writer] = []          # events from now on wait for its first state
        try:
            first = await self._first_state(tournament_id, screens)
            if first is None:
                await self._refuse(writer, "404 Not Found", f"There is no tournament {tournament_id}")
                return
            writer.write(HEADERS + b"retry: 2000\n: connected\n\n" + first)
            for payload in screens.writers[writer] or ():
                writer.write(payload)
            screens.writers[writer] = None
            while await reader.read(1024):    # until the screen goes away
                pass
        except OSError:
            pass
        finally:
            self._forget(tournament_id, writer)

    async def _refuse(self, writer: asyncio.StreamWriter, status: str, text: str,
                      retry: bool = False) -> None:
        writer.write(refusal(status, text, retry))
        with contextlib.suppress(OSError):
            await writer.drain()
        writer.close()

    def _screens(self, tournament_id: int) -> _Screens:
        screens = self.tournaments.get(tournament_id)
        if screens is None:
            screens = self.tournaments[tournament_id] = _Screens()
            inbox = _Inbox(self.loop, lambda payload: self._fan_out(tournament_id, payload))
            screens.subscription = events(self.app).subscribe(tournament_id, inbox=inbox)
        return screens

    def _forget(self, tournament_id: int, writer: asyncio.StreamWriter) -> None:
        screens = self.tournaments.get(tournament_id)
        if screens is not None:
            screens.writers.pop(writer, None)
            if not screens.writers:
                del self.tournaments[tournament_id]
                if screens.subscription is not None:
                    events(self.app).unsubscribe(screens.subscription)
        writer.close()

    async def _first_state(self, tournament_id: int, screens: _Screens) -> bytes | None:
        """The clock state a new screen starts from: one read for the screens that
        open at once (after a restart every screen comes back in the same second)."""
        async with screens.reading:
            if screens.first is not None and time.monotonic() - screens.first[0] < FIRST_STATE_SECONDS:
                return screens.first[1]
            first = await self._in_thread(lambda: self._read_state(tournament_id))
            if first is not None:
                screens.first = (time.monotonic(), first)
            return first

    def _read_state(self, tournament_id: int) -> bytes | None:
        with self.app.app_context():
            try:
                state = clock_service.clock_state(tournament_id)
            except Exception:  # NotFound (the 404), or the database is away
                return None
            finally:
                db.session.remove()
            events(self.app).seen(tournament_id, state["version"])
            return encode("clock", state, state["version"])

    def _in_thread(self, work: Callable[[], Any]) -> Awaitable[Any]:
        return self.loop.run_in_executor(None, work)

    # -- every screen --------------------------------------------------------
    def _fan_out(self, tournament_id: int, payload: bytes) -> None:
        screens = self.tournaments.get(tournament_id)
        if screens is None:
            return
        if payload == CLOSE:
            for writer in list(screens.writers):
                writer.close()
            return
        for writer, waiting in list(screens.writers.items()):
            if waiting is not None:
                waiting.append(payload)
            elif writer.transport.get_write_buffer_size() > SLOW_SCREEN_BYTES:
                writer.close()                # it reads nothing: let it reconnect
            else:
                writer.write(payload)

    async def _pings(self) -> None:
        while True:
            await asyncio.sleep(self.ping)
            for screens in list(self.tournaments.values()):
                for writer, waiting in list(screens.writers.items()):
                    if waiting is None:
                        writer.write(b": ping\n\n")


class _Inbox:
    """The broker's side of a tournament's screens.  The events of ``COALESCE_SECONDS``
    go to the loop together, and each screen gets them in one write: 300 tablets
    make about 150 events a second, and a write per event per screen is what would
    cost the most with thousands of screens."""

    def __init__(self, loop: asyncio.AbstractEventLoop, fan_out: Callable[[bytes], None]) -> None:
        self.loop = loop
        self.fan_out = fan_out
        self._items: list[bytes] = []
        self._lock = threading.Lock()

    def put(self, item: bytes) -> None:
        with self._lock:
            first = not self._items
            self._items.append(item)
        if first and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.loop.call_later, COALESCE_SECONDS, self._flush)

    def _flush(self) -> None:
        with self._lock:
            items, self._items = self._items, []
        closing = CLOSE in items
        payload = b"".join(item for item in items if item != CLOSE)
        if payload:
            self.fan_out(payload)
        if closing:
            self.fan_out(CLOSE)


def raise_open_files_limit() -> None:
    """Each screen is a socket: lift the soft limit of open files to the hard one
    (often 1,024 by default on Linux).  Windows has no such limit."""
    try:
        import resource  # noqa: PLC0415  (optional: POSIX only)
    except ImportError:
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
