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

The port faces the room's Wi-Fi, where the players are (issue 26): it holds at
most ``cap`` connections (``STREAM_MAX_CONNECTIONS``, and never more than the
open-files limit leaves after ``STREAM_RESERVED_FILES`` for the pages, the
database and the scheduler, so that a flood of it cannot take the descriptors
waitress needs to answer the director), turns the next ones away at once with a
503 (before reading a byte), lets go of a connection that has not sent its
request head within ``STREAM_HEAD_SECONDS`` or sends one over 8 KB, and says so
in one log line per reason per minute (``Tally``).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import math
import re
import socket
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any

from flask import Flask

from director.db import db
from director.services import clock as clock_service
from director.services.events import CLOSE, Subscription, encode, events

log = logging.getLogger("director.streams")

PATH = re.compile(rb"^/clock/(\d{1,18})/events(?:\?.*)?$")
HEAD_LIMIT = 8192               # bytes of a request head
LISTEN_BACKLOG = 4096           # connections the system queues before they are accepted
ACCEPT_TURN = 64                # accepted in a row before the screens get the loop again
OUT_OF_FILES_SECONDS = 0.5      # the pause before accepting again after EMFILE
LET_GO_SECONDS = 1.0            # a closed connection's last bytes may take this long
TALLY_SECONDS = 60.0            # one log line per reason per this long
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
        self.cap = connection_cap(app.config, raise_open_files_limit())
        self.head_seconds = float(app.config["STREAM_HEAD_SECONDS"])
        self.ping = float(app.config["SSE_PING_SECONDS"])
        self.loop = asyncio.new_event_loop()
        self.tournaments: dict[int, _Screens] = {}
        self.open = 0                  # connections held: each is a file descriptor
        self.tally = Tally(log)        # what was turned away, and why
        self.troubles = Tally(log, says=lambda n, what: f"Live screens: {what} ({n:,} in the last minute)")
        self._listeners: list[socket.socket] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    # -- running -------------------------------------------------------------
    def start(self) -> None:
        """Listen on the port (raises ``OSError`` when it is taken), then serve from a thread."""
        self._listeners = listen(self.host, self.port)
        self.port = self._listeners[0].getsockname()[1]
        # The loop gives up the GIL at each socket write, and a request thread busy
        # in Python (an answer of 300 tables) then keeps it for the switch interval,
        # 5 ms by default: a fan-out to 1,000 screens would wait that long between
        # writes.  1 ms lets the screens through while the request goes on.
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_SECONDS))
        self._thread = threading.Thread(target=self._run, name="director-streams", daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.set_exception_handler(self._trouble)
        for listener in self._listeners:
            self._task(self._accept(listener))
        self._task(self._pings())
        self._task(self._tell())
        self._ready.set()
        self.loop.run_forever()
        leftover = asyncio.all_tasks(self.loop)
        for task in leftover:
            task.cancel()
        self.loop.run_until_complete(asyncio.gather(*leftover, return_exceptions=True))
        self.loop.close()

    def close(self) -> None:
        """Stop listening and let every connection go (within a few seconds)."""
        if self._thread is None or not self._thread.is_alive() or self.loop.is_closed():
            return
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(self._stop(), self.loop).result(5)
        self._thread.join(5)

    async def _stop(self) -> None:
        tasks = [task for task in self._tasks if task is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for listener in self._listeners:
            listener.close()
        self.loop.call_soon(self.loop.stop)

    def _task(self, work: Coroutine[Any, Any, None]) -> None:
        task = self.loop.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _trouble(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """asyncio's own complaints, once a minute each (a flood must not fill the log)."""
        exception = context.get("exception")
        what = str(context.get("message") or "unexpected error")
        if exception is not None:
            what += f" ({type(exception).__name__})"
        self.troubles.add(what, exception)

    @property
    def count(self) -> int:
        """The open streams (the connections past their request head)."""
        return sum(len(screens.writers) for screens in self.tournaments.values())

    # -- the door ------------------------------------------------------------
    async def _accept(self, listener: socket.socket) -> None:
        """Accept every connection the moment it comes; hold it if there is room under
        the cap, else answer 503 and close it without reading it.  One descriptor is
        all a refused connection ever costs, and only for this moment."""
        full = refusal("503 Service Unavailable",
                       f"All {self.cap:,} live-screen connections are in use", retry=True)
        turn = 0
        while True:
            try:
                conn, _ = await self.loop.sock_accept(listener)
            except OSError as exc:
                if exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
                    # Out of descriptors all the same (the reserve was too small):
                    # the connections wait in the system's queue meanwhile.
                    self.tally.add("out of file descriptors (STREAM_RESERVED_FILES is too small)")
                    await asyncio.sleep(OUT_OF_FILES_SECONDS)
                continue
            if self.open >= self.cap:
                conn.setblocking(False)
                with contextlib.suppress(OSError):
                    conn.send(full)
                conn.close()
                self.tally.add(f"too many open (cap {self.cap:,})")
            else:
                self.open += 1
                self._task(self._connection(conn))
            turn += 1
            if turn % ACCEPT_TURN == 0:
                await asyncio.sleep(0)

    async def _connection(self, conn: socket.socket) -> None:
        try:
            try:
                reader, writer = await asyncio.open_connection(sock=conn, limit=HEAD_LIMIT)
            except OSError:
                conn.close()
                return
            try:
                await self._serve(reader, writer)
            finally:
                await self._let_go(writer)
        finally:
            self.open -= 1

    async def _let_go(self, writer: asyncio.StreamWriter) -> None:
        """Close a connection: its last bytes go out first, unless its reader reads
        nothing (``LET_GO_SECONDS``), when they are dropped with it."""
        writer.close()
        try:
            await asyncio.wait_for(writer.wait_closed(), LET_GO_SECONDS)
        except Exception:  # it reads nothing, or it went away with an error
            writer.transport.abort()

    # -- one screen ----------------------------------------------------------
    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.head_seconds)
        except asyncio.LimitOverrunError:
            self.tally.add(f"request head over {HEAD_LIMIT // 1024} KB")
            self._refuse(writer, "431 Request Header Fields Too Large",
                         f"The request head is over {HEAD_LIMIT // 1024} KB")
            return
        except TimeoutError:
            self.tally.add(f"no request head within {self.head_seconds:g} s")
            writer.transport.abort()
            return
        except (asyncio.IncompleteReadError, OSError):
            return
        method, _, rest = head.partition(b" ")
        match = PATH.match(rest.partition(b" ")[0])
        if method != b"GET" or match is None:
            self._refuse(writer, "404 Not Found", "Only the live streams are served here")
            return
        tournament_id = int(match.group(1))
        screens = self._screens(tournament_id)
        screens.writers[writer] = []          # events from now on wait for its first state
        try:
            first = await self._first_state(tournament_id, screens)
            if first is None:
                self._refuse(writer, "404 Not Found", f"There is no tournament {tournament_id}")
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

    @staticmethod
    def _refuse(writer: asyncio.StreamWriter, status: str, text: str) -> None:
        writer.write(refusal(status, text))

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
                writer.transport.abort()      # it reads nothing: let it reconnect
            else:
                writer.write(payload)

    async def _pings(self) -> None:
        while True:
            await asyncio.sleep(self.ping)
            for screens in list(self.tournaments.values()):
                for writer, waiting in list(screens.writers.items()):
                    if waiting is None:
                        writer.write(b": ping\n\n")

    async def _tell(self) -> None:
        """Say what was turned away, once a minute per reason (``Tally``)."""
        while True:
            await asyncio.sleep(TALLY_SECONDS / 12)
            self.tally.flush()
            self.troubles.flush()


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
        self.says = says or (lambda n, reason: f"Live screens: refused {n:,} "
                             f"connection{'' if n == 1 else 's'} in the last minute: {reason}")
        self._counts: dict[str, int] = {}
        self._said: dict[str, float] = {}
        self._exceptions: dict[str, BaseException] = {}

    def add(self, reason: str, exception: BaseException | None = None) -> None:
        self._counts[reason] = self._counts.get(reason, 0) + 1
        if exception is not None:
            self._exceptions[reason] = exception
        if self.clock() - self._said.get(reason, -math.inf) >= self.every:
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
        self._said[reason] = self.clock()
        self.logger.warning(self.says(self._counts.pop(reason), reason),
                            exc_info=self._exceptions.pop(reason, None))


def connection_cap(config: Mapping[str, Any], open_files: int | None) -> int:
    """The most connections the stream port holds at once: ``STREAM_MAX_CONNECTIONS``,
    but no more than the open-files limit leaves after ``STREAM_RESERVED_FILES`` for
    the rest of the process (waitress's connections, the database's files, the log,
    the scheduler); on a limit too small for that reserve, a quarter of it.  No
    limit (``None``: Windows) leaves the setting.

    >>> settings = {"STREAM_MAX_CONNECTIONS": 10_000, "STREAM_RESERVED_FILES": 512}
    >>> connection_cap(settings, 1024), connection_cap(settings, 65_536), connection_cap(settings, 256)
    (512, 10000, 64)
    """
    wanted = int(config["STREAM_MAX_CONNECTIONS"])
    if open_files is not None:
        share = max(open_files - int(config["STREAM_RESERVED_FILES"]), open_files // 4)
        wanted = min(wanted, share)
    return max(1, wanted)


def listen(host: str, port: int) -> list[socket.socket]:
    """Listening sockets on every address of ``host`` (as ``asyncio.start_server``
    makes them: IPv6 ones IPv6 only), with a long queue for the moment after a
    restart when every screen comes back at once."""
    addresses = dict.fromkeys(
        (family, address) for family, _, _, _, address in socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE))
    listeners: list[socket.socket] = []
    try:
        for family, address in addresses:
            listener = socket.create_server(address, family=family, backlog=LISTEN_BACKLOG)
            listener.setblocking(False)
            listeners.append(listener)
    except BaseException:
        for listener in listeners:
            listener.close()
        raise
    return listeners


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
