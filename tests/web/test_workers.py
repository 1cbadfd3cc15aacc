"""Several server processes (issue 18): two real ``director serve`` processes on one
database; the one that runs the level scheduler is killed, the other takes the
lock within 10 s, the levels keep changing on time, and the screens attached to
the survivor keep receiving.  Then ``director serve --workers 2`` itself.

SQLite (a file lock, the change feed's table) or, with ``make test-postgres``,
PostgreSQL (an advisory lock, LISTEN/NOTIFY)."""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
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
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event = ""
        for raw in self.response:
            line = raw.decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "clock":
                self.states.put((time.monotonic(), json.loads(line[6:])))

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
    first = serve("first", "--port", str(first_port), "--stream-port", str(free_port()))
    first.wait_for("Scheduler: on")
    second_streams = free_port()
    second = serve("second", "--port", str(second_port), "--stream-port", str(second_streams))
    second.wait_for("Scheduler: standing by")
    tid = call(first_port, "/api/tournaments", {
        "name": "Failover", "levels": [level(25 * i, 50 * i, seconds=LEVEL_SECONDS)
                                       for i in range(1, 41)]})["id"]
    screen = Screen(f"http://127.0.0.1:{second_streams}/clock/{tid}/events")
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


def ports_in_a_row(count: int) -> int:
    while True:
        first, probes = free_port(), []
        try:
            for port in range(first, first + count):
                probe = socket.socket()
                probes.append(probe)
                probe.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue
        finally:
            for probe in probes:
                probe.close()


def test_serve_with_workers_starts_them_and_stops_them(serve: Callable[..., Process]) -> None:
    port = ports_in_a_row(2)
    supervisor = serve("workers", "--port", str(port), "--workers", "2", "--stream-port", "0")
    supervisor.wait_for(f"2 server processes on ports {port}-{port + 1}")
    deadline = time.monotonic() + 30
    while supervisor.text().count("Director:") < 2:
        assert time.monotonic() < deadline, supervisor.text()
        time.sleep(0.1)
    assert supervisor.text().count("Scheduler: on") == 1
    assert supervisor.text().count("Scheduler: standing by") == 1
    for one in (port, port + 1):
        assert call(one, "/api/tournaments") is not None
    supervisor.popen.send_signal(signal.SIGTERM)
    assert supervisor.popen.wait(timeout=20) == 0
    assert supervisor.text().count("Stopped.") == 2
