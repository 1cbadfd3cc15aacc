"""A hostile room against the stream port (issue 26, item 8): the live screens'
stream server holds at most its cap of connections and refuses the rest at once,
lets go of a connection that sends no request head within ``STREAM_HEAD_SECONDS``
or one over 8 KB, says why in one log line per reason per minute, and keeps to its
own share of the process's file descriptors, so that the director's pages
(waitress, same process) answer at once while the stream port is flooded."""

from __future__ import annotations

import logging
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from flask import Flask

from director.streams import StreamServer, Tally, connection_cap, raise_open_files_limit
from tests.browser.conftest import free_port, prepared_database, stop_process
from tests.conftest import TOKEN

try:
    import resource
except ImportError:  # Windows: no open-files limit to flood
    resource = None  # type: ignore[assignment]


@pytest.fixture
def stream_server(make_app: Callable[..., Flask]) -> Iterator[Callable[..., StreamServer]]:
    """``stream_server(**config)``: a stream server on a free port of 127.0.0.1, in this process."""
    servers: list[StreamServer] = []

    def start(**config: object) -> StreamServer:
        server = StreamServer(make_app(**config), "127.0.0.1", 0)
        server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


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


def stream_head(port: int, tournament_id: int, timeout: float = 5) -> bytes:
    """A screen's request, and what the server says first."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(f"GET /clock/{tournament_id}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = sock.recv(4096)
            if not chunk:
                break
            answer += chunk
        return answer


def test_connections_beyond_the_cap_are_refused_at_once_and_the_held_ones_never_exceed_it(
        stream_server: Callable[..., StreamServer]) -> None:
    server = stream_server(STREAM_MAX_CONNECTIONS=40, STREAM_HEAD_SECONDS=30)
    sockets = idle_sockets(server.port, 100)
    try:
        assert wait_until(lambda: held(sockets) <= 40, 3), f"{held(sockets)} connections held"
        assert server.open == held(sockets) == 40
        refused = [sock for sock in sockets if state(sock) == "answered"]
        assert len(refused) == 60
        answer = refused[0].recv(4096)
        assert answer.startswith(b"HTTP/1.1 503 ") and b"Retry-After:" in answer
        more = idle_sockets(server.port, 20)   # still full: these are refused too
        assert wait_until(lambda: all(state(sock) != "open" for sock in more), 2)
        assert server.open == 40
        close_all(more)
    finally:
        close_all(sockets)
    assert wait_until(lambda: server.open == 0, 2)


def test_a_connection_that_sends_no_complete_head_within_the_head_timeout_is_closed(
        stream_server: Callable[..., StreamServer]) -> None:
    server = stream_server(STREAM_HEAD_SECONDS=0.5)
    silent, slow = idle_sockets(server.port, 2)
    slow.send(b"GET /clock/1/events HTTP/1.1\r\n")
    started = time.monotonic()
    try:
        while state(slow) == "open" and time.monotonic() - started < 3:
            slow.send(b"X")                 # a byte now and then does not keep it open
            time.sleep(0.05)
        assert 0.4 < time.monotonic() - started < 1.5
        assert wait_until(lambda: state(silent) == "closed", 0.5)
        assert wait_until(lambda: server.open == 0, 1)
    finally:
        close_all([silent, slow])


def test_a_request_head_over_8_kb_is_answered_431_and_closed(
        stream_server: Callable[..., StreamServer]) -> None:
    server = stream_server()
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(b"GET /clock/1/events HTTP/1.1\r\nX-Long: " + b"a" * 9000)
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 431 ")
    assert wait_until(lambda: server.open == 0, 2)


def test_a_flood_of_refusals_writes_one_log_line_per_reason(
        stream_server: Callable[..., StreamServer], caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="director.streams")
    server = stream_server(STREAM_MAX_CONNECTIONS=20, STREAM_HEAD_SECONDS=0.3)
    for _ in range(3):        # 3 x (40 over the cap, then 20 that send no head)
        sockets = idle_sockets(server.port, 60)
        assert wait_until(lambda: held(sockets) == 0, 3)  # noqa: B023 (called at once)
        close_all(sockets)
    lines = [record.getMessage() for record in caplog.records if record.name == "director.streams"]
    assert len([line for line in lines if "too many open (cap 20)" in line]) == 1, lines
    assert len([line for line in lines if "no request head within 0.3 s" in line]) == 1, lines
    assert len(lines) == 2, lines
    # Every one of the 180 was turned away for one reason or the other, and the two
    # said at once are the only ones not still waiting for the minute to be up.
    assert sum(server.tally.pending().values()) == 180 - 2


def test_refusals_are_counted_and_said_once_a_minute_per_reason(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="director.streams")
    now = [1000.0]
    tally = Tally(logging.getLogger("director.streams"), clock=lambda: now[0])
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
        "Live screens: refused 1 connection in the last minute: too many open (cap 1000)",
        "Live screens: refused 1 connection in the last minute: no request head within 5 s",
        "Live screens: refused 1,312 connections in the last minute: too many open (cap 1000)",
    ]


def test_a_screen_is_served_again_once_the_idle_connections_are_let_go(
        stream_server: Callable[..., StreamServer], make_tournament: Callable[..., int]) -> None:
    tournament_id = make_tournament()
    server = stream_server(STREAM_MAX_CONNECTIONS=30, STREAM_HEAD_SECONDS=0.5)
    sockets = idle_sockets(server.port, 30)
    try:
        assert wait_until(lambda: server.open == 30, 2)
        assert stream_head(server.port, tournament_id).startswith(b"HTTP/1.1 503 ")
        assert wait_until(lambda: held(sockets) == 0, 2)
        assert stream_head(server.port, tournament_id).startswith(b"HTTP/1.1 200 OK")
    finally:
        close_all(sockets)


def test_the_connection_cap_leaves_the_pages_a_reserve_of_the_open_files_limit(
        app: Flask) -> None:
    settings = {**app.config, "STREAM_MAX_CONNECTIONS": 10_000, "STREAM_RESERVED_FILES": 512}
    assert connection_cap(settings, 1024) == 512
    assert connection_cap(settings, 65_536) == 10_000
    assert connection_cap(settings, 256) == 64       # a quarter, on a limit below the reserve
    assert connection_cap(settings, None) == 10_000  # no limit (Windows): the setting
    assert StreamServer(app, "127.0.0.1", 0).cap == connection_cap(app.config, raise_open_files_limit())


# -- the whole server, its open files limited as on a laptop ------------------------

FILES = 1024      # the open-files limit of the server process (soft and hard)
FLOOD = 1500      # idle sockets to its stream port: more than it may open


def timed_page(url: str) -> float:
    started = time.monotonic()
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as page:
        page.read()
        assert page.status == 200
    return time.monotonic() - started


@pytest.mark.slow
@pytest.mark.skipif(resource is None, reason="no open-files limit (Windows)")
def test_the_director_pages_answer_at_once_while_1500_idle_sockets_flood_the_stream_port(
        tmp_path: Path) -> None:
    raise_open_files_limit()                  # this test process holds the 1,500 sockets
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < FLOOD + 200:
        pytest.skip("this test process may not open 1,500 sockets")
    instance = tmp_path / "instance"
    instance.mkdir()
    shutil.copyfile(prepared_database(), instance / "director.sqlite")
    port, stream_port = free_port(), free_port()
    log = tmp_path / "server.log"
    environment = {**os.environ, "DIRECTOR_INSTANCE_PATH": str(instance), "DIRECTOR_TOKEN": TOKEN,
                   "HOST": "127.0.0.1", "PORT": str(port), "STREAM_PORT": str(stream_port),
                   "DIRECTOR_SCHEDULER": "off", "DIRECTOR_STREAM_HEAD_SECONDS": "1",
                   "PYTHONUNBUFFERED": "1"}
    environment.pop("DIRECTOR_DATABASE_URL", None)
    limit = f"import resource; resource.setrlimit(resource.RLIMIT_NOFILE, ({FILES}, {FILES}))"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-c", f"{limit}; from director.cli import main; main()", "serve"],
            env=environment, stdout=out, stderr=subprocess.STDOUT)
    sockets: list[socket.socket] = []
    try:
        assert wait_until(lambda: "Threads:" in log.read_text() or process.poll() is not None, 30)
        shown = re.search(r"live screens: port \d+ \(up to ([\d,]+)", log.read_text())
        assert shown is not None, log.read_text()
        cap = int(shown.group(1).replace(",", ""))
        pages = f"http://127.0.0.1:{port}"
        before = max(timed_page(f"{pages}/api/tournaments") for _ in range(3))

        sockets = idle_sockets(stream_port, FLOOD)
        flooded = [timed_page(f"{pages}{path}") for path in ("/api/tournaments", "/director/") * 3]
        # Once the server has taken them from the system's queue, it holds at most
        # its cap (and the cap leaves the pages their share of the 1,024 files).
        assert wait_until(lambda: held(sockets) <= cap, 3), f"{held(sockets)} held, cap {cap}"
        most = max(held(sockets) for _ in range(3))
        print(f"pages: {before * 1000:.0f} ms before, up to {max(flooded) * 1000:.0f} ms with "
              f"{FLOOD} idle sockets on the stream port ({most} held, cap {cap})")
        assert max(flooded) < 2.0
        assert most <= cap <= FILES - 256
        assert wait_until(lambda: held(sockets) == 0, 3)   # the head timeout lets them go
        assert timed_page(f"{pages}/api/tournaments") < 2.0
        assert log.stat().st_size < 10_000, log.read_text()[-2000:]
    finally:
        close_all(sockets)
        stop_process(process)
