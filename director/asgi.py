"""The served application (issue 28): uvicorn, one port for everything.

* ``/clock/<id>/events``, the live screens' streams, is a native async endpoint
  (``director.streams``): no thread each.
* Everything else is the Flask app, mounted as WSGI (a2wsgi) on a pool of
  ``THREADS`` threads.
* ``/ca.crt`` is the root certificate of ``director serve --tls`` (``lan.py``),
  for the tablets to trust.

The port faces the room's Wi-Fi, where the players are, so the connections are
bounded by the server, not by hand-written parsing (``Door``, uvicorn's HTTP
protocol with three guards added where uvicorn has none):

* at most ``cap`` connections a process (``MAX_CONNECTIONS``, and never more
  than the open-files limit leaves after ``RESERVED_FILES``): at the cap, the
  oldest connection that has not sent a request head is let go to make room (a
  flood of idle sockets cannot keep a director out), and when every connection
  is a served one, the new one is answered 503 before a byte is read;
* a request head must be complete within ``HEAD_SECONDS`` of the connection (or
  of the last response, after ``KEEP_ALIVE_SECONDS`` of keep-alive): uvicorn
  arms no timer before the first request, and a byte now and then kept its
  keep-alive timer off;
* a request head over ``HEAD_LIMIT`` (8 KB) is answered 431 (httptools has no
  limit of its own);
* a request body not sent with its head must be whole within ``HEAD_SECONDS``
  and a second for each ``BODY_RATE`` bytes, and at the cap such a connection
  is let go as one without a head is; the body is read on the loop before a
  thread takes the request (``_Responder``), so a slow body holds no thread.

uvicorn's own settings do the rest: ``limit_concurrency`` (the cap),
``timeout_keep_alive``, the backlog, ``timeout_graceful_shutdown``; the bodies
are bounded by Flask's ``MAX_CONTENT_LENGTH`` (2 MB; the largest a route takes
is read ahead at most) and ``BODY_BUDGET`` for the large ones held at once.
What is turned away is said once a minute per reason (``streams.Tally``), and so
are uvicorn's and asyncio's own complaints of the kind a flood repeats.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import gc
import json
import logging
import os
import re
import socket
import sys
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import Body, WSGIResponder, build_environ
from flask import Flask
from sqlalchemy import select
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from director.db import db, start_checkpointer
from director.i18n import load_locale_data
from director.models import Tournament
from director.security import TrustedProxies
from director.services import change_feed, read_model
from director.services import seating as seating_service
from director.services.audit import writer
from director.services.events import events
from director.streams import (
    TALLY_SECONDS,
    LiveScreens,
    Tally,
    connection_cap,
    raise_open_files_limit,
)
from director.tournament.lifecycle import Status
from director.views.body_limits import largest_body, route_limits, size_words
from director.workers import SchedulerStandby

IN_PLAY = (Status.REGISTERING.value, Status.RUNNING.value)

log = logging.getLogger("director.server")

HEAD_LIMIT = 8192        # bytes of a request head
BODY_RATE = 64 * 1024    # bytes a second a request body comes at, at the least (Door)
BODY_BUDGET = 64 * 1024 * 1024   # bytes of large bodies read ahead at once (_Responder)
BACKLOG = 4096           # connections the system queues before they are accepted
SWITCH_SECONDS = 0.001   # the GIL's switch interval while screens are served
CA_PATH = "/ca.crt"
_STARLETTE_PATHS = re.compile(r"/clock/\d+/events$|/ca\.crt$")

_tally = Tally(log)      # what the door turned away, and why (one per process)
_live: weakref.WeakSet[LiveScreens] = weakref.WeakSet()


# --------------------------------------------------------------------------- the door

def no_delay(transport: asyncio.BaseTransport) -> None:
    """Send each write at once (TCP_NODELAY).  asyncio sets it only on a socket whose
    ``proto`` is TCP, and the sockets uvicorn binds (``socket.socket(family)``) and
    accepts have ``proto`` 0: with Nagle's algorithm on, an answer's body, written
    after its head, waited for the client's delayed acknowledgement of the head,
    40 ms on Linux (a dealer's "next hand" right after the award answered in 48 ms
    instead of 9, and a live screen's next event waited the same)."""
    sock = transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class Door(HttpToolsProtocol):
    """uvicorn's HTTP protocol (httptools), with a cap, a head timeout and a head
    size limit.  ``configure`` sets the class's limits before the server starts."""

    cap = 10_000
    head_seconds = 5.0
    keep_alive_seconds = 5.0
    max_body = 16 * 1024 * 1024      # the largest body a route takes (``body_limits``)
    refusal = b""

    @classmethod
    def configure(cls, cap: int, head_seconds: float, keep_alive_seconds: float,
                  max_body: int | None = None) -> None:
        cls.cap, cls.head_seconds, cls.keep_alive_seconds = cap, head_seconds, keep_alive_seconds
        if max_body is not None:
            cls.max_body = max_body
        body = f"All {cap:,} connections are in use; try again in a few seconds\n".encode()
        cls.refusal = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; "
                       b"charset=utf-8\r\nRetry-After: 10\r\nConnection: close\r\n"
                       + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        waiting = _waiting(self.server_state)
        if len(self.connections) >= self.cap:
            if waiting:       # the oldest one that has not sent its request makes room
                oldest, missing = next(iter(waiting.items()))
                waiting.pop(oldest)
                oldest._let_go(f"no {missing} while the {self.cap:,} connections were full")
                # It is gone now, though its transport says so only at the next turn
                # of the loop (uvloop: later): uvicorn's own count must not hold it.
                self.connections.discard(oldest)
            else:
                _tally.add(f"too many open (cap {self.cap:,})")
                with contextlib.suppress(Exception):
                    transport.write(self.refusal)
                transport.abort()
                return
        self._admitted = True
        no_delay(transport)
        super().connection_made(transport)
        self._head_bytes = 0
        self._body_due: int | None = None        # the bytes of a body still to come
        self._body_timer: asyncio.TimerHandle | None = None
        self._awaiting_head(self.head_seconds)

    def _awaiting_head(self, seconds: float) -> None:
        _waiting(self.server_state)[self] = "request head"
        self._head_timer: asyncio.TimerHandle | None = self.loop.call_later(
            seconds, self._let_go, f"no request head within {self.head_seconds:g} s")

    def _head_done(self) -> None:
        _waiting(self.server_state).pop(self, None)
        timer = getattr(self, "_head_timer", None)
        if timer is not None:
            timer.cancel()
            self._head_timer = None

    def _awaiting_body(self, size: int) -> None:
        """A request whose body did not come with its head: it has ``head_seconds``
        and a second for each ``BODY_RATE`` bytes to come whole, and, at the cap, it
        is let go to make room as a connection without a head is (``Responder``
        reads a body on the loop before any thread takes the request)."""
        seconds = self.head_seconds + size / BODY_RATE
        _waiting(self.server_state)[self] = "whole request body"
        self._body_timer = self.loop.call_later(
            seconds, self._let_go, f"request body not whole within {self.head_seconds:g} s "
                                   f"and a second for each {BODY_RATE // 1024} KB")

    def _body_done(self) -> None:
        self._body_due = None
        timer = getattr(self, "_body_timer", None)
        if timer is not None:
            timer.cancel()
            self._body_timer = None
            _waiting(self.server_state).pop(self, None)

    def _let_go(self, reason: str) -> None:
        _tally.add(reason)
        self._head_done()
        self._body_done()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        waiting = getattr(self, "_head_timer", None) is not None
        if waiting:
            self._head_bytes += len(data)
        super().data_received(data)        # the head may be complete now (on_headers_complete)
        if self._body_due is not None and self._body_timer is None and not self.transport.is_closing():
            # The head came, its body not whole with it (a body sent with its head, as a
            # tablet's tap, arms no timer).
            self._awaiting_body(self._body_due)
        if waiting and getattr(self, "_head_timer", None) is not None \
                and self._head_bytes > HEAD_LIMIT and not self.transport.is_closing():
            self._head_done()
            _tally.add(f"request head over {HEAD_LIMIT // 1024} KB")
            body = f"The request head is over {HEAD_LIMIT // 1024} KB\n".encode()
            self.transport.write(
                b"HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; "
                b"charset=utf-8\r\nConnection: close\r\n"
                + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            self.transport.close()

    def on_headers_complete(self) -> None:
        self._head_done()
        super().on_headers_complete()
        self._body_due = _body_size(self.headers)

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._body_done()

    def on_response_complete(self) -> None:
        if not self.pipeline:      # answered before its body was whole (a 413): no more wait
            self._body_done()
        super().on_response_complete()
        if not self.transport.is_closing() and not self.pipeline:
            self._head_bytes = 0
            self._awaiting_head(self.keep_alive_seconds + self.head_seconds)

    def connection_lost(self, exc: Exception | None) -> None:
        if getattr(self, "_admitted", False):   # a refused one was never counted in
            self._head_done()
            self._body_done()
            super().connection_lost(exc)

    def shutdown(self) -> None:
        for screens in list(_live):     # the streams end first: then the server may stop
            screens.close()
        super().shutdown()


def _body_size(headers: list[tuple[bytes, bytes]]) -> int | None:
    """The bytes of body a request head announces (``Door.max_body`` for a chunked
    one), or None for none."""
    size = None
    for name, value in headers:
        if name == b"content-length" and value.isdigit():
            size = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value.lower():
            return Door.max_body
    return size or None


def _waiting(server_state: Any) -> dict[Door, str]:
    """The connections of this server that have not sent (the rest of) a request head,
    or its whole body, oldest first, with what they have not sent."""
    waiting: dict[Door, str] | None = getattr(server_state, "director_waiting", None)
    if waiting is None:
        waiting = server_state.director_waiting = {}
    return waiting


class QuietFlood(logging.Filter):
    """uvicorn's and asyncio's lines that a flood repeats (a bad request, a refused
    one, accept() out of files) go to the tally: one line per reason per minute."""

    REPEATED = ("Invalid HTTP request received", "Exceeded concurrency limit",
                "socket.accept() out of system resource", "Exception in ASGI application",
                "Fatal error on transport", "Fatal read error")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        for repeated in self.REPEATED:
            if message.startswith(repeated):
                exception = record.exc_info[1] if record.exc_info else None
                what = repeated + (f" ({type(exception).__name__})" if exception else "")
                _tally.add(what, exception)
                return False
        return True


def quiet_floods() -> None:
    quiet = QuietFlood()
    for name in ("uvicorn.error", "asyncio"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, QuietFlood) for f in logger.filters):
            logger.addFilter(quiet)


# --------------------------------------------------------------------------- the app

class _Responder(WSGIResponder):
    """a2wsgi's responder with fewer round trips between the loop and the thread.
    a2wsgi hands the body's chunks, the answer's start, each chunk and its end
    across one by one, the thread waiting for the loop at each (profiled under the
    dealer tablets' load: a sixth of the server's time went to those waits and the
    loop's wake-ups).  Here a body with its length given, up to the largest a route
    takes (``Door.max_body``), is read whole on the loop before the thread starts:
    40 clients sending a body a byte a second held every thread while it waited for
    the rest, and no page answered.  Beyond ``READ_AHEAD`` bytes a body draws on a
    budget of ``BODY_BUDGET`` bytes for the process, a quarter of it for one client
    address (a 503 past either), so that bodies stopped short of their end cannot
    fill the memory, nor one client keep the others' uploads out; the door lets go
    of a body not whole in time.  A large body larger than its route takes (the
    app's URL map, ``body_limits.route_limits``) is left unread: the app refuses it
    (413) before reading.  An answer comes back
    with the thread's end: the loop, woken once to resume this request, sends it
    (no task, queue or wake-up of its own).  A long answer goes across once per
    ``HAND_OVER`` bytes while the thread makes the rest, through a sender started
    for it.  Flask's answers are in memory already: nothing is held that was not
    held anyway."""

    READ_AHEAD = 64 * 1024
    HAND_OVER = 256 * 1024

    def __init__(self, app: Any, executor: Any, loop: asyncio.AbstractEventLoop,
                 proxies: TrustedProxies | None, limits: Callable[[str, str], int | None]) -> None:
        # Not a2wsgi's: it asks for the loop and makes a queue on every request.
        self.app = app
        self.proxies = proxies
        self.limits = limits
        self.executor = executor
        self.loop = loop
        self.response_started = False
        self.exc_info: Any = None
        self._out: list[Any] = []
        self._out_bytes = 0
        self._sender: asyncio.Task[None] | None = None
        self._ended = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        body = Body(self.loop, receive)
        length = next((value for name, value in scope["headers"] if name == b"content-length"), None)
        size = int(length) if length is not None and length.isdigit() else None
        chunked = size is None and _body_size(scope["headers"]) is not None
        large = chunked or size is not None and size > self.READ_AHEAD   # drawn on the budget
        held = 0              # bytes of a large body taken from the read-ahead budget
        address = self._client(scope) if large else ""
        # A large body is read up to what its route takes (2 MB but for the players import)
        limit = min(Door.max_body, self.limits(scope["method"], scope["path"]) or Door.max_body) \
            if large else Door.max_body
        try:
            if chunked or size is not None and size <= limit:
                # The whole body, on the loop, before a thread takes the request: a client
                # sending it slowly holds a socket (the door's body timer), not a thread.
                while body._has_more:
                    message = await receive()
                    if message["type"] != "http.request":   # gone before its body was whole
                        return
                    chunk = message.get("body", b"")
                    if len(body.buffer) + len(chunk) > limit:   # chunked: more than the route takes
                        await _refuse(scope, send, 413, f"The body is larger than {size_words(limit)}")
                        return
                    if large:
                        if not _read_ahead.take(address, len(chunk)):
                            _tally.add(f"large request bodies over {_read_ahead.total:,} bytes at once, "
                                       f"or {_read_ahead.share:,} from one address")
                            await _refuse(scope, send, 503, BUSY, [(b"retry-after", b"5")])
                            return
                        held += len(chunk)
                    body.buffer.extend(chunk)
                    body._has_more = message.get("more_body", False)
            await self._answer(scope, body, send, chunked)
        finally:
            _read_ahead.give(address, held)

    def _client(self, scope: Any) -> str:
        """Whose share a large body draws on: the client's address, the one a trusted
        proxy names for it (behind one, every client would have the proxy's)."""
        peer = (scope.get("client") or ("",))[0]
        if self.proxies is None:
            return str(peer)
        forwarded = b",".join(value for name, value in scope["headers"] if name == b"x-forwarded-for")
        named = self.proxies.forwarded_client(peer, forwarded.decode("latin-1"))
        return str(peer) if named is None else f"{named} (by {peer})"

    async def _answer(self, scope: Any, body: Body, send: Any, chunked: bool = False) -> None:
        environ = build_environ(scope, body)
        if chunked:       # read whole above: the app reads it (werkzeug reads no body of unknown length else)
            environ["wsgi.input_terminated"] = True  # type: ignore[typeddict-unknown-key]
        self._send = send
        try:
            await self.loop.run_in_executor(self.executor, contextvars.copy_context().run,
                                            self.wsgi, environ, self.start_response)
        except BaseException:        # the app failed, or this request was cancelled
            self._ended = True
            if self._sender is not None and not self._sender.done():
                self._sender.cancel()
            raise
        if self._sender is None:
            for message in self._out:
                await send(message)
        else:                        # a long answer: its last part after the others
            _put_all(self.send_queue, [*self._out, None])
            await self._sender
        if self.exc_info is not None:
            raise self.exc_info[0].with_traceback(self.exc_info[1], self.exc_info[2])

    def send(self, message: Any) -> None:
        self._out.append(message)
        self._out_bytes += len(message.get("body", b""))
        if self._out_bytes >= self.HAND_OVER and message.get("more_body"):
            out, self._out, self._out_bytes = self._out, [], 0
            self.loop.call_soon_threadsafe(self._spill, out)

    def _spill(self, messages: list[Any]) -> None:
        """On the loop: a long answer's part, sent while the thread goes on (dropped
        once the request has ended: no one would take it from the queue)."""
        if self._ended:
            return
        if self._sender is None:
            self.send_queue: asyncio.Queue[Any] = asyncio.Queue()
            self._sender = self.loop.create_task(self.sender(self._send))
        _put_all(self.send_queue, messages)


class _Budget:
    """Bytes held at once by the large bodies read ahead (on the loop: no lock), of
    which one client address may hold ``share``: a client that stops its bodies short
    of their end cannot take it all from the others."""

    def __init__(self, total: int, share: int | None = None) -> None:
        self.total, self.used = total, 0
        self.share = total // 4 if share is None else share
        self.by_address: dict[str, int] = {}

    def take(self, address: str, size: int) -> bool:
        held = self.by_address.get(address, 0)
        if self.used + size > self.total or held + size > self.share:
            return False
        self.used += size
        self.by_address[address] = held + size
        return True

    def give(self, address: str, size: int) -> None:
        if size:
            self.used -= size
            left = self.by_address.pop(address) - size
            if left:
                self.by_address[address] = left


_read_ahead = _Budget(BODY_BUDGET)

BUSY = "The server is receiving too many large uploads at once: send it again in a few seconds"


async def _refuse(scope: Any, send: Any, status: int, sentence: str,
                  headers: list[tuple[bytes, bytes]] | None = None) -> None:
    """Answer ``status`` with ``sentence`` (JSON under ``/api/``) from the loop, without a
    thread, and close the connection (its body is not read further)."""
    api = scope["path"].startswith("/api/")
    body = (json.dumps({"error": sentence}) if api else sentence + "\n").encode()
    await send({"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json" if api else b"text/plain; charset=utf-8"),
        (b"content-length", str(len(body)).encode()), *(headers or []),
        (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def _put_all(queue: asyncio.Queue[Any], messages: list[Any]) -> None:
    for message in messages:
        queue.put_nowait(message)


class Pages(WSGIMiddleware):
    """The Flask app on a pool of ``workers`` threads (a2wsgi)."""

    def __init__(self, app: Flask, workers: int) -> None:
        super().__init__(app, workers=workers)  # type: ignore[arg-type]
        self.proxies: TrustedProxies | None = app.extensions.get("director.proxies")
        self.limits = route_limits(app)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await _Responder(self.app, self.executor, asyncio.get_running_loop(), self.proxies,
                             self.limits)(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def build(app: Flask, *, serving: bool = True) -> Callable[..., Awaitable[None]]:
    """The ASGI application of ``app``.  ``serving``: its lifespan starts what a
    serving process runs (the checkpointer, the scheduler or its stand-by, the
    change feed) and stops it."""
    screens = LiveScreens(app)
    _live.add(screens)
    threads = int(app.config["THREADS"])
    pages = Pages(app, workers=threads)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        standby = _start(app) if serving else None
        teller = asyncio.get_running_loop().create_task(_tell())
        try:
            yield
        finally:
            teller.cancel()
            screens.close()
            if serving:
                await asyncio.to_thread(_stop, app, standby)
            pages.executor.shutdown(wait=False)

    def ca_certificate(request: Request) -> Response:
        path = Path(app.instance_path) / "tls" / "ca.crt"
        if not path.is_file():
            return PlainTextResponse("This server has no certificate authority "
                                     "(director serve --tls makes one)\n", status_code=404)
        return FileResponse(path, media_type="application/x-x509-ca-cert",
                            filename="director-ca.crt")

    served = Starlette(routes=[
        Route("/clock/{tournament_id:int}/events", screens),
        Route(CA_PATH, ca_certificate),
        Mount("/", app=pages),
    ], lifespan=lifespan)

    async def app_or_pages(scope: Any, receive: Any, send: Any) -> None:
        """A page or an API call goes straight to the pages' threads (starlette's
        router and error middleware cost every tablet's write about 0.1 ms);
        the streams, the root certificate and the lifespan go through starlette."""
        if scope["type"] == "http" and not _STARLETTE_PATHS.match(scope["path"]):
            await pages(scope, receive, send)
        else:
            await served(scope, receive, send)

    return app_or_pages


def _start(app: Flask) -> SchedulerStandby | None:
    quiet_floods()
    start_checkpointer(app)
    # The loop gives up the GIL at each socket write, and a request thread busy in
    # Python keeps it for the switch interval, 5 ms by default: 1 ms lets the
    # screens through while the request goes on.
    sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_SECONDS))
    standby = None
    if app.config["SCHEDULER"] not in ("off", "0", "false", "no"):
        standby = SchedulerStandby(app, on_take=lambda: _say(
            f"This process ({os.getpid()}) now runs the level scheduler "
            "(the one that ran it stopped)."))
        running = standby.start()
        _say(f"Scheduler: {'on' if running else 'standing by'} (process {os.getpid()}"
             + ("" if running else "; another process runs it, this one takes over if it stops")
             + ")")
    else:
        _say("Scheduler: off (run `director scheduler`)")
    events(app).start_feed()
    warm(app)
    settle_garbage_collector()
    return standby


def _stop(app: Flask, standby: SchedulerStandby | None) -> None:
    events(app).close()
    if standby is not None:
        standby.close()
    writer(app).close()
    _say(f"Stopped (process {os.getpid()}).")


def _say(line: str) -> None:
    print(line, flush=True)


async def _tell() -> None:
    """Say what was turned away, once a minute per reason."""
    while True:
        await asyncio.sleep(TALLY_SECONDS / 12)
        _tally.flush()


WARM_EVENTS = 20


def warm(app: Flask) -> None:
    """Before serving: load what the first requests would otherwise load while the room
    waits, each language's CLDR data (``i18n.load_locale_data``) and, for the events in
    play (newest first, at most ``WARM_EVENTS``), the clock state and the room: their
    SQL is compiled, the read model holds the clock state and the seating keeps the
    room with its digest (``seating.load_layout``, ``seating.layout_digest``: 16 ms at
    377 tables), so that the first level change or entry after a restart is not the
    slowest of the day.  Reads only; a failure is said and serving goes on."""
    try:
        load_locale_data()
        with app.app_context():
            try:
                for tournament_id in db.session.scalars(
                        select(Tournament.id).where(Tournament.status.in_(IN_PLAY))
                        .order_by(Tournament.id.desc()).limit(WARM_EVENTS)):
                    read_model.clock_state(tournament_id)
                    seating_service.layout_digest(seating_service.load_layout(tournament_id))
            finally:
                db.session.remove()
    except Exception as exc:  # noqa: BLE001 - a warm-up never stops the server
        _say(f"Warm-up skipped: {exc}")


def settle_garbage_collector() -> None:
    """Before serving: everything loaded so far (the app, its libraries, the
    templates) is kept for the life of the process, so it is moved out of the
    collector's sight (``gc.freeze``).  Python's full collection otherwise walks
    all of it every few seconds under load, and each walk held every request for
    30-70 ms (the dealer tablets' p99, ``benchmarks/dealer_load.py``); now it walks
    only what the requests left behind.  A young collection comes after 10,000 new
    objects (Python's default is 700): at 1,000 the collector ran 15-19 times a
    second under the tablets' load and moved the objects of the requests still
    running to the older generation, walked again there; at 10,000 most of them are
    gone by then, and the collector took 18-25 µs a dealer's write instead of 54-75
    (about 1.5 % of it).  The full walk is about ten times rarer (every 100
    second-level collections rather than 10)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 100)


# --------------------------------------------------------------------------- the server

LOG_CONFIG: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(levelname)s: %(message)s"}},
    "handlers": {"err": {"class": "logging.StreamHandler", "formatter": "plain",
                         "stream": "ext://sys.stderr"}},
    "loggers": {"uvicorn": {"handlers": ["err"], "level": "WARNING", "propagate": False},
                "uvicorn.error": {"level": "WARNING"},
                "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
                "director.server": {"handlers": ["err"], "level": "INFO", "propagate": False}},
}


def configure_door(app: Flask) -> int:
    """The door's limits from ``app``'s settings, in this process; returns the cap."""
    cap = connection_cap(app.config, raise_open_files_limit())
    Door.configure(cap, float(app.config["HEAD_SECONDS"]), float(app.config["KEEP_ALIVE_SECONDS"]),
                   largest_body(app))
    return cap


def server_settings(app: Flask, workers: int = 1, tls: tuple[str, str] | None = None) -> dict[str, Any]:
    """uvicorn's settings for ``app``'s limits (``uvicorn.Config``'s keywords)."""
    cap = configure_door(app)
    open_files = raise_open_files_limit()
    # asyncio accepts up to ``backlog`` connections at each turn of the loop, and the
    # ones let go at the cap give their descriptor back only at the next turn: half
    # the reserve keeps such a turn within the open-files limit (else accept() fails,
    # and asyncio stops accepting for a whole second).
    backlog = BACKLOG if open_files is None else min(BACKLOG, max(64, (open_files - cap) // 2))
    keep_alive = float(app.config["KEEP_ALIVE_SECONDS"])
    settings: dict[str, Any] = {
        "http": Door, "ws": "none", "lifespan": "on", "workers": workers,
        # asyncio's own loop on every system (uvloop measured no faster here, and
        # Windows has none).
        "loop": "asyncio",
        "limit_concurrency": cap + 1,         # the door refuses at the cap itself
        "timeout_keep_alive": int(max(1, keep_alive)),
        "timeout_graceful_shutdown": 5, "backlog": backlog,
        # The app reads X-Forwarded-* from the proxies in TRUSTED_PROXIES only and
        # drops them from anybody else (security.TrustedProxies): uvicorn must not
        # rewrite the client from them first.
        "proxy_headers": False, "server_header": False, "date_header": True,
        "access_log": False, "log_config": LOG_CONFIG,
    }
    if tls is not None:
        settings.update(ssl_certfile=tls[0], ssl_keyfile=tls[1])
    return settings


def feed_for_workers(app: Flask) -> None:
    """Several processes on one SQLite file share a change feed through its table."""
    if change_feed.backend(app) == "memory":
        os.environ["DIRECTOR_CHANGE_FEED"] = "table"
