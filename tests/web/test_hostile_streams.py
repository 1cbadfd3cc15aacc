"""A hostile room against the one port (issues 26 and 28): the server (uvicorn, with
``director.asgi.Door``) holds at most its cap of connections, lets the oldest one
that has said nothing go to make room for a new one, refuses a new one at once
(503) only when every connection is being served, lets go of a connection whose
request head is not complete within ``HEAD_SECONDS`` (a byte now and then does
not keep it) or is over 8 KB, says why in one log line per reason per minute, and
keeps to its share of the process's file descriptors, so that the director's pages
answer at once while idle sockets flood the port."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn
from flask import Flask

from director import asgi
from director.streams import Tally, connection_cap, raise_open_files_limit
from tests.browser.conftest import free_port, prepared_database, stop_process
from tests.conftest import TOKEN

try:
    import resource
except ImportError:  # Windows: no open-files limit to flood
    resource = None  # type: ignore[assignment]


@dataclass
class Running:
    server: uvicorn.Server
    port: int

    @property
    def open(self) -> int:
        """The connections the server holds."""
        return len(self.server.server_state.connections)


@pytest.fixture
def door(make_app: Callable[..., Flask], monkeypatch: pytest.MonkeyPatch
         ) -> Iterator[Callable[..., Running]]:
    """``door(**config)``: the served app (uvicorn, ``asgi.Door``) on a free port of
    127.0.0.1, in a thread of this process, with a tally of its own."""
    started: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(**config: object) -> Running:
        app = make_app(**config)
        monkeypatch.setattr(asgi, "_tally", Tally(logging.getLogger("director.server")))
        asgi.quiet_floods()
        settings = {**asgi.server_settings(app), "log_config": None}
        server = uvicorn.Server(uvicorn.Config(asgi.build(app, serving=False), host="127.0.0.1",
                                               port=0, **settings))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        assert wait_until(lambda: server.started, 10)
        started.append((server, thread))
        return Running(server, server.servers[0].sockets[0].getsockname()[1])

    yield start
    for server, thread in started:
        server.should_exit = True
        thread.join(10)


def idle_sockets(port: int, count: int) -> list[socket.socket]:
    """``count`` connections that never send a byte."""
    sockets = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.setblocking(False)
        sockets.append(sock)
    return sockets


def state(sock: socket.socket) -> str:
    """What the server did with a connection: ``open`` (holds it), ``answered`` (wrote
    to it: a refusal) or ``closed``."""
    try:
        data = sock.recv(64, socket.MSG_PEEK)
    except BlockingIOError:
        return "open"
    except OSError:
        return "closed"
    return "answered" if data else "closed"


def held(sockets: list[socket.socket]) -> int:
    return sum(state(sock) == "open" for sock in sockets)


def wait_until(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def close_all(sockets: list[socket.socket]) -> None:
    for sock in sockets:
        sock.close()


def ask(port: int, request: bytes, timeout: float = 5) -> bytes:
    """Send ``request`` on a new connection; what the server says first (its head)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
        return answer


def stream_request(tournament_id: int) -> bytes:
    return f"GET /clock/{tournament_id}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode()


def test_idle_connections_beyond_the_cap_are_let_go_and_a_request_still_gets_its_answer(
        door: Callable[..., Running]) -> None:
    running = door(MAX_CONNECTIONS=40, HEAD_SECONDS=30)
    sockets = idle_sockets(running.port, 100)
    try:
        assert wait_until(lambda: held(sockets) <= 40, 3), f"{held(sockets)} connections held"
        assert running.open <= 40
        started = time.monotonic()
        answer = ask(running.port, b"GET /api/tournaments HTTP/1.1\r\nHost: x\r\n"
                     + f"Authorization: Bearer {TOKEN}\r\n\r\n".encode())
        assert answer.startswith(b"HTTP/1.1 200 "), answer
        assert time.monotonic() - started < 1.0
        assert running.open <= 40
    finally:
        close_all(sockets)
    assert wait_until(lambda: running.open == 0, 2)


def test_when_every_connection_is_a_served_stream_the_next_one_is_answered_503_unread(
        door: Callable[..., Running], make_tournament: Callable[..., int]) -> None:
    tournament_id = make_tournament()
    running = door(MAX_CONNECTIONS=5)
    screens = [socket.create_connection(("127.0.0.1", running.port), timeout=5) for _ in range(5)]
    try:
        for screen in screens:
            screen.sendall(stream_request(tournament_id))
            assert screen.recv(4096).startswith(b"HTTP/1.1 200 OK")
        refused = ask(running.port, b"")
        assert refused.startswith(b"HTTP/1.1 503 ") and b"Retry-After: 10" in refused
        assert running.open == 5
    finally:
        close_all(screens)
    assert wait_until(lambda: running.open == 0, 2)
    assert ask(running.port, stream_request(tournament_id)).startswith(b"HTTP/1.1 200 OK")


def test_a_connection_that_sends_no_complete_head_within_the_head_timeout_is_closed(
        door: Callable[..., Running]) -> None:
    running = door(HEAD_SECONDS=0.5)
    silent, slow = idle_sockets(running.port, 2)
    slow.send(b"GET /clock/1/events HTTP/1.1\r\n")
    started = time.monotonic()
    try:
        while state(slow) == "open" and time.monotonic() - started < 3:
            slow.send(b"X")                 # a byte now and then does not keep it open
            time.sleep(0.05)
        assert 0.4 < time.monotonic() - started < 1.5
        assert wait_until(lambda: state(silent) == "closed", 0.5)
        assert wait_until(lambda: running.open == 0, 1)
    finally:
        close_all([silent, slow])


def test_a_kept_alive_connection_that_drips_bytes_after_its_answer_is_closed(
        door: Callable[..., Running]) -> None:
    running = door(HEAD_SECONDS=0.3, KEEP_ALIVE_SECONDS=0.3)
    with socket.create_connection(("127.0.0.1", running.port), timeout=5) as sock:
        sock.sendall(b"GET /login HTTP/1.1\r\nHost: x\r\n\r\n")
        answer = sock.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200 ")
        length = int(re.search(rb"content-length: (\d+)", answer, re.I).group(1))  # type: ignore[union-attr]
        while len(answer.partition(b"\r\n\r\n")[2]) < length:
            answer += sock.recv(65536)
        sock.setblocking(False)
        started = time.monotonic()
        sock.send(b"GET /login HTTP/1.1\r\nX-Slow: ")
        while state(sock) == "open" and time.monotonic() - started < 3:
            sock.send(b"a")                 # uvicorn's keep-alive timer stops at every byte
            time.sleep(0.05)
        assert 0.5 < time.monotonic() - started < 1.5


def whole_answer(sock: socket.socket) -> bytes:
    """An answer with its Content-Length, read whole from ``sock``."""
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(65536)
    length = int(re.search(rb"content-length: (\d+)", answer, re.I).group(1))  # type: ignore[union-attr]
    while len(answer.partition(b"\r\n\r\n")[2]) < length:
        answer += sock.recv(65536)
    return answer


def body_started(port: int, size: int, sent: bytes = b"{", path: str = "/api/dealer/pair",
                 source: str | None = None, forwarded_for: str | None = None) -> socket.socket:
    """A connection (from the address ``source``) that sends a request head announcing
    ``size`` bytes of body (``X-Forwarded-For: forwarded_for``), and ``sent`` of them."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5,
                                    source_address=(source, 0) if source else None)
    proxy = f"X-Forwarded-For: {forwarded_for}\r\n" if forwarded_for else ""
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{proxy}"
                 f"Content-Length: {size}\r\n\r\n".encode() + sent)
    sock.setblocking(False)
    return sock


def test_clients_sending_their_bodies_a_byte_at_a_time_hold_no_thread_and_are_let_go(
        door: Callable[..., Running], caplog: pytest.LogCaptureFixture) -> None:
    """40 clients sending a 1 MB body a byte a second held every one of the app's
    threads, each waiting for the rest of its body, and no page answered (15 s and
    more).  The body is read on the loop now: the pages answer at once, and each
    slow body is let go when it is not whole within the head's time and a second for
    each 64 KB."""
    caplog.set_level(logging.INFO)
    running = door(THREADS=4, HEAD_SECONDS=0.5)
    size = 100_000              # more than is read ahead today; whole within 0.5 + 1.5 s, or let go
    slow = [body_started(running.port, size) for _ in range(12)]
    try:
        started = time.monotonic()
        for _ in range(3):
            for sock in slow:
                sock.send(b" ")
            page = urllib.request.urlopen(f"http://127.0.0.1:{running.port}/login", timeout=5)
            assert page.status == 200
            time.sleep(0.2)
        assert time.monotonic() - started < 1.4        # three pages, none waiting for a body
        assert held(slow) == 12
        assert wait_until(lambda: held(slow) == 0, 3)
        assert 1.8 < time.monotonic() - started < 4
    finally:
        close_all(slow)
    assert any("request body not whole within 0.5 s" in record.getMessage()
               for record in caplog.records if record.name == "director.server")


def test_at_the_cap_a_connection_stopped_in_its_body_makes_room(door: Callable[..., Running]) -> None:
    running = door(MAX_CONNECTIONS=10, HEAD_SECONDS=30)
    stopped = [body_started(running.port, 5000) for _ in range(10)]
    try:
        assert wait_until(lambda: running.open == 10, 2)
        answer = ask(running.port, b"GET /login HTTP/1.1\r\nHost: x\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 200 "), answer[:80]
        assert wait_until(lambda: held(stopped) == 9, 2)  # the oldest was let go
        assert state(stopped[0]) == "closed"
    finally:
        close_all(stopped)


def test_a_body_sent_whole_slowly_is_answered_and_large_bodies_held_at_once_are_bounded(
        door: Callable[..., Running], monkeypatch: pytest.MonkeyPatch) -> None:
    """Bodies over 64 KB read ahead share a budget (64 MB a process, a quarter of it
    for one address; 250 and 150 KB here): one that would pass either is answered
    503 with Retry-After, read no further; one from another address still fits; the
    ones that hold the budget are answered when whole; the budget is given back."""
    monkeypatch.setattr(asgi, "_read_ahead", asgi._Budget(250_000, share=150_000))
    running = door(HEAD_SECONDS=5)
    size = 120_000
    body = b'{"code": "' + b"1" * (size - 12) + b'"}'
    first = body_started(running.port, size, body[:100_000])
    try:
        other = body_started(running.port, size, body[:100_000], source="127.0.0.2")
    except OSError:
        pytest.skip("no second loopback address here (127.0.0.2)")
    try:
        time.sleep(0.3)
        request = (f"POST /api/dealer/pair HTTP/1.1\r\nHost: x\r\nContent-Type: "
                   f"application/json\r\nContent-Length: {size}\r\n\r\n").encode() + body[:100_000]
        for source in ("127.0.0.1", "127.0.0.3"):    # the first address's share; the whole budget
            with socket.create_connection(("127.0.0.1", running.port), timeout=5,
                                          source_address=(source, 0)) as sock:
                sock.sendall(request)
                refused = whole_answer(sock)
            assert refused.startswith(b"HTTP/1.1 503 ") and b"retry-after: 5" in refused.lower()
        for sock in (first, other):
            sock.setblocking(True)
            sock.sendall(body[100_000:])
            answer = whole_answer(sock)
            assert answer.startswith(b"HTTP/1.1 400 "), answer[:200]  # read whole: the code is no code
            assert b'"code"' in answer.partition(b"\r\n\r\n")[2]
    finally:
        first.close()
        other.close()
    third = ask(running.port, f"POST /api/dealer/pair HTTP/1.1\r\nHost: x\r\nContent-Type: "
                f"application/json\r\nContent-Length: {size}\r\n\r\n".encode() + body)
    assert third.startswith(b"HTTP/1.1 400 ")
    assert wait_until(lambda: asgi._read_ahead.used == 0 and not asgi._read_ahead.by_address, 1)


@pytest.mark.parametrize("proxies", ["127.0.0.1", "1"], ids=["listed", "hops"])
def test_behind_a_trusted_proxy_each_client_has_its_own_share_of_the_large_bodies(
        door: Callable[..., Running], monkeypatch: pytest.MonkeyPatch, proxies: str) -> None:
    """Behind the reverse proxy of the deployment section every connection comes from
    the proxy's address: one player there stopping his large bodies short would keep
    every director's import out.  The share is the client's the proxy names
    (``DIRECTOR_TRUSTED_PROXIES``, as the app reads it); a client that is no trusted
    proxy naming others gets none of theirs."""
    monkeypatch.setattr(asgi, "_read_ahead", asgi._Budget(250_000, share=150_000))
    size = 120_000
    body = b'{"code": "' + b"1" * (size - 12) + b'"}'

    def refused(running: Running, forwarded_for: str) -> bool:
        sock = body_started(running.port, size, body[:100_000], forwarded_for=forwarded_for)
        try:
            sock.settimeout(0.5)
            try:
                return whole_answer(sock).startswith(b"HTTP/1.1 503 ")
            except TimeoutError:        # held, waiting for the rest of its body
                return False
        finally:
            sock.close()

    behind = door(HEAD_SECONDS=5, TRUSTED_PROXIES=proxies)
    player = body_started(behind.port, size, body[:100_000], forwarded_for="10.0.0.66")
    try:
        time.sleep(0.3)
        assert refused(behind, "10.0.0.66")             # his share is full ...
        assert not refused(behind, "10.0.0.7")          # ... the director's is not
    finally:
        player.close()
    assert wait_until(lambda: asgi._read_ahead.used == 0, 2)
    direct = door(HEAD_SECONDS=5)                         # no proxy trusted: the header is no one
    player = body_started(direct.port, size, body[:100_000], forwarded_for="10.0.0.66")
    try:
        time.sleep(0.3)
        assert refused(direct, "10.0.0.7")
    finally:
        player.close()


def test_a_large_body_is_read_only_up_to_what_its_route_takes(door: Callable[..., Running]) -> None:
    """Every route takes 2 MB but the players import (16 MB).  A 3 MB body announced to
    the anonymous pairing route is refused (413, naming its limit) without a byte of it
    read: before, the door read any body up to 16 MB, the largest of all, and only
    then did the app refuse it.  A chunked one is cut off at the route's 2 MB.  The
    import still takes its 3 MB."""
    running = door(HEAD_SECONDS=5)

    def answer_to_head(path: str) -> bytes:
        """The answer to a head announcing 3 MB and one byte of the body, no more."""
        sock = body_started(running.port, 3 * 2**20, path=path)
        try:
            sock.settimeout(5)
            return whole_answer(sock)
        finally:
            sock.close()

    started = time.monotonic()
    answer = answer_to_head("/api/dealer/pair")
    assert answer.startswith(b"HTTP/1.1 413 ") and b"larger than 2 MB" in answer, answer[:300]
    answer = answer_to_head("/no/such/route")                              # nor to no route
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:300]
    assert time.monotonic() - started < 2
    assert asgi._read_ahead.used == 0
    with socket.create_connection(("127.0.0.1", running.port), timeout=5) as sock:
        sock.sendall(b"POST /api/dealer/pair HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        part = b"x" * 2**18
        with contextlib.suppress(OSError):       # closed once past the limit
            for _ in range(12):                  # 3 MB
                sock.sendall(f"{len(part):x}\r\n".encode() + part + b"\r\n")
        answer = whole_answer(sock)
    assert answer.startswith(b"HTTP/1.1 413 ") and b"larger than 2 MB" in answer, answer[:300]
    csv = b"name\n" + b"A Player\n" * (3 * 2**20 // 9)
    imported = ask(running.port, f"POST /api/players/import HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\n"
                   f"Content-Length: {len(csv)}\r\n\r\n".encode() + csv)
    assert imported.startswith(b"HTTP/1.1 401 "), imported[:300]     # read whole: then not signed in


def test_a_request_head_over_8_kb_is_answered_431_and_closed(door: Callable[..., Running]) -> None:
    running = door()
    with socket.create_connection(("127.0.0.1", running.port), timeout=5) as sock:
        sock.sendall(b"GET /clock/1/events HTTP/1.1\r\nX-Long: " + b"a" * 20_000)
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 431 ")
    assert wait_until(lambda: running.open == 0, 2)


def test_a_flood_writes_one_log_line_per_reason(
        door: Callable[..., Running], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    running = door(MAX_CONNECTIONS=20, HEAD_SECONDS=0.3)
    for _ in range(3):        # 3 x (40 over the cap, then 20 that send no head)
        sockets = idle_sockets(running.port, 60)
        assert wait_until(lambda: held(sockets) == 0, 3)  # noqa: B023 (called at once)
        close_all(sockets)
    for _ in range(30):       # and 30 requests that are not HTTP
        ask(running.port, b"NOT HTTP AT ALL\r\n\r\n")
    lines = [record.getMessage() for record in caplog.records
             if record.name in ("director.server", "uvicorn.error", "asyncio")
             and record.levelno >= logging.WARNING]
    reasons = ("while the 20 connections were full", "no request head within 0.3 s",
               "Invalid HTTP request received")
    for reason in reasons:
        assert len([line for line in lines if reason in line]) == 1, lines
    assert len(lines) == len(reasons), lines
    # Every one of the 180 and the 30 was counted, and only the first of each reason said.
    assert sum(asgi._tally.pending().values()) == 180 + 30 - len(reasons)


def test_turned_away_connections_are_counted_and_said_once_a_minute_per_reason(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="director.server")
    now = [1000.0]
    tally = Tally(logging.getLogger("director.server"), clock=lambda: now[0])
    for second in range(1313):            # 22 a second, for a minute
        now[0] = 1000.0 + second / 22
        tally.add("too many open (cap 1000)")
    tally.add("no request head within 5 s")
    tally.flush()                         # before the minute is up: nothing more
    now[0] = 1060.0
    tally.flush()
    now[0] = 1200.0
    tally.flush()                         # nothing new: nothing said
    assert [record.getMessage() for record in caplog.records] == [
        "Server: turned away 1 connection in the last minute: too many open (cap 1000)",
        "Server: turned away 1 connection in the last minute: no request head within 5 s",
        "Server: turned away 1,312 connections in the last minute: too many open (cap 1000)",
    ]


def test_the_connection_cap_leaves_the_process_a_reserve_of_the_open_files_limit(
        app: Flask) -> None:
    settings = {**app.config, "MAX_CONNECTIONS": 10_000, "RESERVED_FILES": 512}
    assert connection_cap(settings, 1024) == 512
    assert connection_cap(settings, 65_536) == 10_000
    assert connection_cap(settings, 256) == 64       # a quarter, on a limit below the reserve
    assert connection_cap(settings, None) == 10_000  # no limit (Windows): the setting
    assert asgi.configure_door(app) == connection_cap(app.config, raise_open_files_limit())
    assert asgi.Door.cap == asgi.configure_door(app)


# -- the whole server, its open files limited as on a laptop ------------------------

FILES = 1024      # the open-files limit of the server process (soft and hard)
FLOOD = 1500      # idle sockets to its one port: more than it may open


def timed_page(url: str) -> float:
    started = time.monotonic()
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as page:
        page.read()
        assert page.status == 200
    return time.monotonic() - started


@pytest.mark.slow
@pytest.mark.skipif(resource is None, reason="no open-files limit (Windows)")
def test_the_director_pages_answer_at_once_while_1500_idle_sockets_flood_the_port(
        tmp_path: Path) -> None:
    raise_open_files_limit()                  # this test process holds the 1,500 sockets
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < FLOOD + 200:
        pytest.skip("this test process may not open 1,500 sockets")
    instance = tmp_path / "instance"
    instance.mkdir()
    shutil.copyfile(prepared_database(), instance / "director.sqlite")
    port = free_port()
    log = tmp_path / "server.log"
    environment = {**os.environ, "DIRECTOR_INSTANCE_PATH": str(instance), "DIRECTOR_TOKEN": TOKEN,
                   "HOST": "127.0.0.1", "PORT": str(port), "DIRECTOR_SCHEDULER": "off",
                   "DIRECTOR_HEAD_SECONDS": "1", "PYTHONUNBUFFERED": "1"}
    environment.pop("DIRECTOR_DATABASE_URL", None)
    limit = f"import resource; resource.setrlimit(resource.RLIMIT_NOFILE, ({FILES}, {FILES}))"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", f"{limit}; from director.cli import main; main()", "serve"],
            env=environment, stdout=out, stderr=subprocess.STDOUT)
    sockets: list[socket.socket] = []
    try:
        assert wait_until(lambda: "Scheduler:" in log.read_text() or process.poll() is not None, 30)
        shown = re.search(r"up to ([\d,]+) connections", log.read_text())
        assert shown is not None, log.read_text()
        cap = int(shown.group(1).replace(",", ""))
        pages = f"http://127.0.0.1:{port}"
        before = max(timed_page(f"{pages}/api/tournaments") for _ in range(3))

        sockets = idle_sockets(port, FLOOD)
        flooded = [timed_page(f"{pages}{path}") for path in ("/api/tournaments", "/director/") * 3]
        # Once the server has taken them from the system's queue, it holds at most
        # its cap (and the cap leaves the process its share of the 1,024 files).
        assert wait_until(lambda: held(sockets) <= cap, 3), f"{held(sockets)} held, cap {cap}"
        most = max(held(sockets) for _ in range(3))
        print(f"pages: {before * 1000:.0f} ms before, up to {max(flooded) * 1000:.0f} ms with "
              f"{FLOOD} idle sockets on the port ({most} held, cap {cap})")
        assert max(flooded) < 2.0
        assert most <= cap <= FILES - 256
        assert wait_until(lambda: held(sockets) == 0, 3)   # the head timeout lets them go
        assert timed_page(f"{pages}/api/tournaments") < 2.0
        assert log.stat().st_size < 10_000, log.read_text()[-2000:]
    finally:
        close_all(sockets)
        stop_process(process)


def answers(sock: socket.socket, count: int) -> list[tuple[int, bytes]]:
    """The next ``count`` answers on a kept-alive connection: (status, body)."""
    received, found = b"", []
    while len(found) < count:
        head, sep, rest = received.partition(b"\r\n\r\n")
        length = re.search(rb"(?im)^content-length: *(\d+)", head) if sep else None
        if length is not None and len(rest) >= int(length[1]):
            found.append((int(head.split()[1]), rest[:int(length[1])]))
            received = rest[int(length[1]):]
            continue
        chunk = sock.recv(65536)
        assert chunk, received
        received += chunk
    return found


def test_each_write_to_a_connection_goes_out_at_once_on_the_socket_director_serve_binds(
        make_app: Callable[..., Flask]) -> None:
    """``director serve`` binds its socket itself (``uvicorn.Config.bind_socket``: a socket
    whose ``proto`` is 0), and asyncio sets TCP_NODELAY only on sockets whose ``proto`` is
    TCP: without the door's own setting an answer's body, written after its head,
    waited for the client's delayed acknowledgement (40 ms on Linux: a dealer's next
    hand right after the award answered in 48 ms instead of 9).  Here, served that
    way, the accepted connection sends each write at once, and two requests sent back
    to back on it are both answered."""
    app = make_app()
    settings = {**asgi.server_settings(app), "log_config": None}
    config = uvicorn.Config(asgi.build(app, serving=False), host="127.0.0.1", port=free_port(),
                            **settings)
    listening = config.bind_socket()
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    try:
        assert wait_until(lambda: server.started, 10)
        client = socket.create_connection(("127.0.0.1", config.port), timeout=5)
        request = b"GET /api/tournaments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + \
            TOKEN.encode() + b"\r\n\r\n"
        client.sendall(request + request)
        assert [status for status, _ in answers(client, 2)] == [200, 200]
        assert wait_until(lambda: len(server.server_state.connections) == 1, 5)
        (connection,) = server.server_state.connections
        accepted = connection.transport.get_extra_info("socket")
        assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
        client.close()
    finally:
        server.should_exit = True
        thread.join(10)
