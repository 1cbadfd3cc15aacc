"""The real server, killed with SIGKILL mid-level and mid-hand, then restarted.

Every acknowledged action must be there after the restart, nothing may be
applied twice, and the clock must be right to within a second (the level
that ended while the server was down included).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
import requests

pytestmark = pytest.mark.slow

TOKEN = "crash-test-token"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Server:
    """``director serve`` in a subprocess on a temp instance folder and SQLite file."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # A token of its own: the other test processes start servers too, and one may take
        # this port while this server is down between a crash and its restart.  Only this
        # server answers a director's request with it.
        self.token = f"{TOKEN}-{secrets.token_hex(8)}"
        self.auth = {"Authorization": f"Bearer {self.token}"}
        self.env = {**os.environ, "DIRECTOR_INSTANCE_PATH": str(tmp / "instance"),
                    "DIRECTOR_DATABASE_URL": f"sqlite:///{tmp / 'crash.sqlite'}",
                    "DIRECTOR_TOKEN": self.token, "DIRECTOR_THREADS": "16",
                    "DIRECTOR_BACKUP_MINUTES": "0", "PYTHONUNBUFFERED": "1"}
        self.process: subprocess.Popen[bytes] | None = None
        self.log = tmp / "server.log"

    def start(self) -> None:
        """Start it and wait until it answers; on a new port when its own was taken."""
        for _ in range(3):
            if self._started():
                return
            self.port = free_port()
            self.base = f"http://127.0.0.1:{self.port}"
        raise AssertionError("the server did not start:\n" + self.log.read_text()[-2000:])

    def _started(self) -> bool:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-c", "from director.cli import main; main()", "serve",
                 "--host", "127.0.0.1", "--port", str(self.port)],
                env=self.env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if requests.get(self.base + "/api/players", headers=self.auth, timeout=1).ok:
                    return True
            except requests.RequestException:      # not listening yet, or slow to answer under load
                pass
            time.sleep(0.1)
        if self.process.poll() is None:
            raise AssertionError("the server did not start:\n" + self.log.read_text()[-2000:])
        return False                               # it could not listen: the port was taken

    def kill9(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def post(self, path: str, body: dict | None = None) -> requests.Response:
        return requests.post(self.base + path, json=body or {}, headers=self.auth, timeout=10)

    def get(self, path: str) -> requests.Response:
        return requests.get(self.base + path, headers=self.auth, timeout=10)


@pytest.fixture
def server(tmp_path):
    running = Server(tmp_path)
    running.start()
    yield running
    if running.process and running.process.poll() is None:
        running.process.kill()
        running.process.wait(timeout=10)


def level(seconds: int, small: int = 100, big: int = 200) -> dict:
    return {"kind": "level", "game": "PO", "duration_seconds": seconds,
            "small_blind": small, "big_blind": big}


def test_the_clock_survives_kill_9_mid_level(server):
    created = server.post("/api/tournaments", {"name": "Crash", "levels": [
        level(600), level(4, 200, 400), level(600, 300, 600)]})
    assert created.status_code == 201
    url = f"/api/tournaments/{created.json()['id']}/clock"
    assert server.post(url + "/start").ok
    for _ in range(3):  # three acknowledged adjustments: exactly 90 seconds off
        assert server.post(url + "/adjust", {"seconds": -30}).ok
    state = server.get(url).json()
    assert 509 <= state["seconds_remaining"] <= 510.5
    assert server.post(url + "/next").json()["level_index"] == 1
    answer = server.post(url + "/adjust", {"seconds": 2})  # level 2: 6 s left
    assert answer.ok
    acknowledged_at = time.monotonic()
    left = answer.json()["seconds_remaining"]
    assert 5 <= left <= 6

    server.kill9()  # mid-level
    time.sleep(max(0.0, left + 1.5 - (time.monotonic() - acknowledged_at)))
    server.start()  # level 2 ended while the server was down

    state = server.get(url).json()
    downtime = time.monotonic() - acknowledged_at
    assert state["running"] is True
    assert state["level_index"] == 2, state
    expected = 600 - (downtime - left)
    assert abs(state["seconds_remaining"] - expected) <= 1.0, (state["seconds_remaining"],
                                                               expected)
    # (Had the +2 s been applied twice, or lost, level 3 would be 2 s off.)
    # The restarted clock still takes controls.
    assert server.post(url + "/pause").json()["running"] is False


def seat_a_table(server) -> tuple[int, int]:
    created = server.post("/api/tournaments", {"name": "Hand", "levels": [level(3600)]})
    tournament_id = created.json()["id"]
    assert server.post(f"/api/tournaments/{tournament_id}/money/settings",  # entries are buy-ins
                       {"buy_in": "100", "starting_stack": 10_000}).status_code == 200
    for name in ("Ann", "Bo", "Cy", "Di"):
        assert server.post(f"/api/tournaments/{tournament_id}/seating/players",
                           {"name": name, "chips": 10_000}).status_code == 201
    assert server.post(f"/api/tournaments/{tournament_id}/seating/draw").ok
    pairing = server.get(f"/api/tournaments/{tournament_id}/dealer/pairing")
    if pairing.status_code == 404:
        pytest.xfail("no /api/tournaments/<id>/dealer/pairing to find the table's id")
    return tournament_id, int(pairing.json()["tables"][0]["table_id"])


def test_a_hand_survives_kill_9_mid_hand(server):
    _, table_id = seat_a_table(server)
    hands = server.post(f"/api/tables/{table_id}/hands", {"absent_seats": []})
    if hands.status_code in (404, 405):
        pytest.xfail("the dealer API /api/tables/<id>/hands does not exist yet")
    assert hands.status_code == 201, hands.text
    hand = hands.json()
    url = f"/api/tables/{table_id}/hand/actions"
    acknowledged = []
    for kind in ("call", "call", "call"):  # three acknowledged calls pre-flop
        key = str(uuid.uuid4())
        body = {"seat": hand["to_act"], "action": kind, "amount": None,
                "version": hand["version"], "idempotency_key": key}
        answer = server.post(url, body)
        assert answer.status_code == 200, answer.text
        hand = answer.json()
        acknowledged.append((body, hand))

    # One more action in flight while the server is killed: applied once or not at all.
    in_flight = {"seat": hand["to_act"], "action": "check", "amount": None,
                 "version": hand["version"], "idempotency_key": str(uuid.uuid4())}
    sender = threading.Thread(target=lambda: _try_post(server, url, in_flight))
    sender.start()
    time.sleep(0.01)
    server.kill9()
    sender.join()
    server.start()

    now = server.get(f"/api/tables/{table_id}/hand").json()
    last = acknowledged[-1][1]
    assert now["hand_id"] == last["hand_id"]
    assert now["version"] in (last["version"], last["version"] + 1), (now, last)
    # Every acknowledged call is there, once: the stacks are those of the last answer
    # (the in-flight action is a check: it moves no chips).
    stacks = {seat["seat"]: seat["stack"] for seat in now["seats"]}
    assert stacks == {seat["seat"]: seat["stack"] for seat in last["seats"]}
    assert sorted(stacks.values()) == [9_800] * 4
    # Sending an acknowledged action again returns its answer and applies nothing.
    body, original = acknowledged[-1]
    again = server.post(url, body)
    assert again.status_code == 200 and again.json()["version"] == original["version"]
    # The in-flight one, sent again, is applied exactly once.
    retried = server.post(url, in_flight)
    assert retried.status_code == 200, retried.text
    assert retried.json()["version"] == last["version"] + 1
    final = server.get(f"/api/tables/{table_id}/hand").json()
    assert final["version"] == last["version"] + 1


def _try_post(server, url, body):
    with contextlib.suppress(requests.RequestException):  # died first: not acknowledged
        server.post(url, body)
