"""Several server processes (issues 18 and 28): two real ``director serve`` processes
on one database (two machines); the one that runs the level scheduler is killed,
the other takes the lock within 10 s, the levels keep changing on time, and the
screens attached to the survivor keep receiving.  Then ``director serve --workers
2``: uvicorn's processes on one port, one killed mid-event and started again by
the server while the screens of the other keep receiving.

SQLite (a file lock, the change feed's table) or, with ``make test-postgres``,
PostgreSQL (an advisory lock, LISTEN/NOTIFY)."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask

from tests.browser.conftest import free_port, stop_process
from tests.conftest import TOKEN, level

LEVEL_SECONDS = 3


class Process:
    def __init__(self, environment: dict[str, str], log: Path, *args: str) -> None:
        self.log = log
        with log.open("wb") as out:
            self.popen = subprocess.Popen(
                [sys.executable, "-c", "from director.cli import main; main()", "serve", *args],
                env=environment, stdout=out, stderr=subprocess.STDOUT)

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, words: str, seconds: float = 30) -> float:
        deadline = time.monotonic() + seconds
        while words not in self.text():
            assert self.popen.poll() is None or words in self.text(), self.text()
            assert time.monotonic() < deadline, f"no {words!r} within {seconds} s: {self.text()}"
            time.sleep(0.05)
        return time.monotonic()

    def stop(self) -> None:
        stop_process(self.popen, timeout=15)


@pytest.fixture
def serve(make_app: Callable[..., Flask], app_config: dict[str, Any],
          tmp_path: Path) -> Iterator[Callable[..., Process]]:
    """``serve(name, *args)``: ``director serve`` on this test's database."""
    make_app()  # the tables
    environment = {**os.environ, "DIRECTOR_INSTANCE_PATH": app_config["INSTANCE_PATH"],
                   "DIRECTOR_TOKEN": TOKEN, "HOST": "127.0.0.1", "PYTHONUNBUFFERED": "1",
                   "DIRECTOR_SCHEDULER_RETRY_SECONDS": "1", "DIRECTOR_SSE_PING_SECONDS": "1",
                   "DIRECTOR_CHANGE_FEED": "auto" if "TEST_SCHEMA" in app_config else "table"}
    url = app_config["SQLALCHEMY_DATABASE_URI"]
    if "TEST_SCHEMA" in app_config:   # PostgreSQL: this test's schema, lock key and channel
        schema = app_config["TEST_SCHEMA"]
        url += f"?options={quote(f'-csearch_path={schema}')}&application_name={schema}"
        environment.update(DIRECTOR_SCHEDULER_LOCK_KEY=str(app_config["SCHEDULER_LOCK_KEY"]),
                           DIRECTOR_CHANGE_FEED_CHANNEL=schema)
    environment["DIRECTOR_DATABASE_URL"] = url
    started: list[Process] = []

    def start(name: str, *args: str) -> Process:
        started.append(Process(environment, tmp_path / f"{name}.log", *args))
        return started[-1]

    yield start
    for process in started:
        process.stop()


def call(port: int, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", method="POST" if body is not None else "GET",
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return dict(json.loads(answer.read()))


class Screen:
    """A stream read in a thread: (arrival, clock state) for every clock event."""

    def __init__(self, url: str) -> None:
        self.response = urllib.request.urlopen(url, timeout=30)
        self.states: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
        self.ended = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event = ""
        try:
            for raw in self.response:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "clock":
                    self.states.put((time.monotonic(), json.loads(line[6:])))
        except Exception:  # noqa: BLE001 - the server went away: the stream ended
            pass
        finally:
            self.ended.set()

    def next_level(self, after: int, seconds: float) -> tuple[float, dict[str, Any]]:
        deadline = time.monotonic() + seconds
        while True:
            arrived, state = self.states.get(timeout=max(0.01, deadline - time.monotonic()))
            if state["level_index"] > after:
                return arrived, state


@pytest.mark.slow
def test_the_scheduler_moves_to_the_other_process_when_its_own_dies(
        serve: Callable[..., Process]) -> None:
    first_port, second_port = free_port(), free_port()
    first = serve("first", "--port", str(first_port))
    first.wait_for("Scheduler: on")
    second = serve("second", "--port", str(second_port))
    second.wait_for("Scheduler: standing by")
    tid = call(first_port, "/api/tournaments", {
        "name": "Failover", "levels": [level(25 * i, 50 * i, seconds=LEVEL_SECONDS)
                                       for i in range(1, 41)]})["id"]
    screen = Screen(f"http://127.0.0.1:{second_port}/clock/{tid}/events")
    started = call(first_port, f"/api/tournaments/{tid}/clock/start", {})
    assert started["running"] is True
    arrived, state = screen.next_level(0, LEVEL_SECONDS + 3)      # a level change via the feed
    start = arrived - LEVEL_SECONDS * state["level_index"]

    os.kill(first.popen.pid, signal.SIGKILL)   # the scheduler's process dies mid-event
    killed = time.monotonic()
    took_over = second.wait_for("now runs the level scheduler", seconds=12)
    assert took_over - killed < 10

    # the screens on the survivor keep receiving, and the levels change on time
    last = state["level_index"]
    for _ in range(3):
        arrived, state = screen.next_level(last, LEVEL_SECONDS + 10)
        last = state["level_index"]
    expected = (arrived - start) / LEVEL_SECONDS
    assert abs(state["level_index"] - expected) < 0.5, (state["level_index"], expected)
    assert call(second_port, f"/api/tournaments/{tid}/clock")["level_index"] == last


def scheduler_process(process: Process) -> int:
    """The process id the log says runs the level scheduler now (the last one said)."""
    said = re.findall(r"Scheduler: on \(process (\d+)\)|This process \((\d+)\) now runs",
                      process.text())
    assert said, process.text()
    return int(next(pid for pid in said[-1] if pid))


def serving_process(screen: Screen, pids: list[int]) -> int | None:
    """Which of ``pids`` holds the server's end of ``screen``'s connection (Linux /proc)."""
    client_port = screen.response.fp.raw._sock.getsockname()[1]
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if int(fields[2].rsplit(":", 1)[1], 16) == client_port:
                    inodes.add(f"socket:[{fields[9]}]")
    for pid in pids:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                if os.readlink(f"/proc/{pid}/fd/{fd}") in inodes:
                    return pid
    return None


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/net/tcp"), reason="finds a stream's process in /proc")
def test_serve_with_workers_starts_a_killed_worker_again_and_the_others_screens_keep_receiving(
        serve: Callable[..., Process]) -> None:
    port = free_port()
    supervisor = serve("workers", "--port", str(port), "--workers", "2")
    supervisor.wait_for("Scheduler: standing by")
    supervisor.wait_for("Scheduler: on")
    assert f"2 processes on port {port}" in supervisor.text()
    pids = [int(pid) for pid in re.findall(r"Scheduler: \w[\w ]* \(process (\d+)", supervisor.text())]
    tid = call(port, "/api/tournaments", {
        "name": "Failover", "levels": [level(25 * i, 50 * i, seconds=LEVEL_SECONDS)
                                       for i in range(1, 41)]})["id"]
    screens: dict[int, list[Screen]] = {pid: [] for pid in pids}
    for _ in range(60):        # the system hands each connection to one process or the other
        if all(screens.values()):
            break
        screen = Screen(f"http://127.0.0.1:{port}/clock/{tid}/events")
        screens.setdefault(serving_process(screen, pids) or 0, []).append(screen)
    assert all(screens[pid] for pid in pids), {pid: len(s) for pid, s in screens.items()}
    call(port, f"/api/tournaments/{tid}/clock/start", {})
    for screen in (screen for group in screens.values() for screen in group):
        screen.next_level(0, LEVEL_SECONDS + 3)

    killed_pid = scheduler_process(supervisor)
    os.kill(killed_pid, signal.SIGKILL)   # the process that runs the scheduler dies mid-event
    killed = time.monotonic()
    deadline = killed + 12
    while scheduler_process(supervisor) == killed_pid:
        assert time.monotonic() < deadline, supervisor.text()
        time.sleep(0.1)
    while supervisor.text().count("Scheduler: ") < 3:    # uvicorn starts another process
        assert time.monotonic() < deadline + 10, supervisor.text()
        time.sleep(0.1)

    # The screens on the process that lived go on receiving the levels, on time; those
    # of the dead one were cut off (a browser reconnects by itself).
    survivor = next(pid for pid in pids if pid != killed_pid)
    assert all(screen.ended.wait(5) for screen in screens[killed_pid])
    for screen in screens[survivor]:
        last = 0
        for _ in range(2):
            _, state = screen.next_level(last, LEVEL_SECONDS + 10)
            last = state["level_index"]
        assert not screen.ended.is_set()
    assert call(port, "/api/tournaments") is not None
    supervisor.popen.send_signal(signal.SIGTERM)
    assert supervisor.popen.wait(timeout=20) == 0
    assert supervisor.text().count("Stopped (process") == 2
