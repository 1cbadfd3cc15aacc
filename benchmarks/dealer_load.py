"""Dealer tablets under load: N tablets on N tables post realistic hands at once.

Starts a real server (``director serve``: uvicorn, temp instance and SQLite
DB, ``synchronous=FULL``; ``--server hypercorn|granian``: the same app on another
candidate, ``servers.py``) in a subprocess, registers 6 players per table,
draws the seats, pairs one tablet per table (each with its own device token)
and lets every tablet play hands for ``--seconds``: blinds 100/200 pot-limit
Omaha, random folds, calls, checks and minimum raises, "flop/turn/river dealt",
and the dealer's pick of the winner at showdown, with a pause of about
``--think-ms`` before each write (the next hand's deal included) (0: as fast as the server answers, which
measures the queue rather than one write).  Every write carries the
version and an idempotency key; about one write in twenty is sent a second
time, as a tablet on bad Wi-Fi would, and must get the same answer.

Measured: accepted writes per second and their latency (p50/p99, from the
tablet's side), and, at the end, every hand's stored events compared with what
the tablets were told was accepted: ``lost`` (accepted but not stored) and
``duplicated`` (stored more than once, e.g. a retry applied twice) must be 0.
Goals: p99 <= 15 ms and >= 300 actions/s on 2 cores.

Client and server share the machine, so the CPU each used during the run is
printed (server from ``/proc``, this client's own): the client is light (one
keep-alive ``http.client`` connection per tablet, no per-write ``uuid4``) and
uses about a tenth of what the server does.  The default ``--think-ms 150``
makes the 50 tablets offer about 330 writes/s, the goal's 300 with a margin, so
the figures are the latency at the goal's rate.  ``--think-ms 0`` measures
capacity instead (a saturated queue: its p50/p99 are queueing time); a real
dealer taps every few seconds, so ``--think-ms 3000`` gives the latency a card
room of 50 tables actually sees (~17 writes/s).  The tables deal their first
hands at random moments over ``--ramp`` seconds (about one hand: in a card room
the tables are not in step), and the figures count the writes sent in the
``--seconds`` that follow (every tablet stops there, mid-hand or not); the p99
including the ramp is printed too.  The slowest writes are listed with the
moment they were sent, so that a pause shared by every tablet (a garbage
collection, a WAL checkpoint) shows itself.

    .venv/bin/python benchmarks/dealer_load.py [--tablets 50] [--seconds 20]

Then, in the same run and on the same server, the same tablets (same count,
pause, ramp and seconds) against two floors (``servers.py``): a bare Flask app
whose one route inserts a row into SQLite and commits (``insert``: what a
dealer's write cannot beat), and the same bare app answering JSON without a
database (``json``: the stack's own limit).  The ratios are the project's writes
per second over the floor's: with ``--think-ms 0`` (capacity) they compare what
each can do; at the default pause both keep up with what the tablets offer, and
as each tablet waits for its answer before its next pause the ratio is (pause +
the floor's answer) / (pause + the project's answer): under 1 by about the
difference of the two answers' times over the pause (compare the p99s too).  The
server's CPU a write is printed for the project and for each floor (the JSON
floor's is the stack's own cost a request).

The last line is one JSON object: {"server", "tablets", "actions", "actions_per_s",
"p50_ms", "p99_ms", "cpu_ms" (the server's CPU a write), "lost", "duplicated",
"floor_insert_per_s", "floor_json_per_s", "ratio_insert", "ratio_json",
"floor_insert_p99_ms", "floor_json_p99_ms", "floor_insert_cpu_ms",
"floor_json_cpu_ms"}.  A benchmark never fails on a time.
"""

from __future__ import annotations

import argparse
import gc
import http.client
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from live_server import every_page, free_port, start_server  # benchmarks/ is on sys.path

TOKEN = "dealer-benchmark-token"
PLAYERS_PER_TABLE = 6



def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process so far (Linux ``/proc``; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    """One keep-alive HTTP connection with a bearer token."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.token = token
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body)
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        for attempt in range(3):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
            except (ConnectionError, http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def setup(port: int, tablets: int) -> list[dict[str, Any]]:
    director = Client(port, TOKEN)
    level = {"kind": "level", "game": "PO", "duration_seconds": 7200, "small_blind": 100, "big_blind": 200}
    status, made = director.call("POST", "/api/tournaments", {"name": "Load", "levels": [level]})
    assert status == 201, made
    tid = made["id"]
    status, _ = director.call("POST", f"/api/tournaments/{tid}/seating/settings", {"table_size": 6})
    assert status == 200
    status, _ = director.call("POST", f"/api/tournaments/{tid}/money/settings",  # buy-ins
                              {"buy_in": "100", "starting_stack": 1_000_000})
    assert status == 200
    for i in range(tablets * PLAYERS_PER_TABLE):
        status, body = director.call("POST", f"/api/tournaments/{tid}/seating/players",
                                     {"name": f"Player {i + 1}", "chips": 1_000_000})
        assert status == 201, body
    status, body = director.call("POST", f"/api/tournaments/{tid}/seating/draw")
    assert status == 200, body
    tables = every_page(lambda path: director.call("GET", path)[1],       # 20 tables a page
                        f"/api/tournaments/{tid}/dealer/pairing")
    out = []
    for table in tables[:tablets]:
        status, paired = Client(port, "").call("POST", "/api/dealer/pair",
                                              {"table": table["number"], "code": table["code"]})
        assert status == 201, paired
        out.append({"table_id": table["table_id"], "token": paired["token"]})
    return out


class Tablet(threading.Thread):
    def __init__(self, port: int, table: dict[str, Any], until: float, seed: int, think: float,
                 ramp: float) -> None:
        super().__init__(daemon=True)
        self.ramp = ramp
        self.think = think
        self.client = Client(port, table["token"])
        self.table_id = table["table_id"]
        self.until = until
        self.rng = random.Random(seed)
        # the ramp and the pauses from a generator of their own, seeded as the floor's
        # tablet of the same number: both wait the same times, write for write
        self.pauses = random.Random(seed)
        self.samples: list[tuple[float, float, str]] = []    # (when it was sent, latency, path)
        self.accepted: dict[int, int] = {}      # hand id -> events the server said it accepted
        self.retries_same = 0
        self.retries_differ = 0
        self.errors: list[str] = []

    def post(self, path: str, body: dict[str, Any], hand: dict[str, Any]) -> dict[str, Any]:
        if self.think:
            time.sleep(self.pauses.uniform(0.5, 1.5) * self.think)     # the dealer reads and taps
        # a random key from the tablet's own generator: uuid4 reads os.urandom, which cost
        # this client ~0.3 ms a write on the shared 2 cores
        body = {**body, "version": hand["version"], "idempotency_key": f"{self.rng.getrandbits(128):032x}"}
        sent, start = time.monotonic(), time.perf_counter()
        status, answer = self.client.call("POST", f"/api/tables/{self.table_id}{path}", body)
        self.samples.append((sent, time.perf_counter() - start, path))
        if status != 200:
            self.errors.append(f"{path} {status} {answer}")
            return self.client.call("GET", f"/api/tables/{self.table_id}/hand")[1]
        if self.rng.random() < 0.05:           # the tablet did not hear the answer: send it again
            again_status, again = self.client.call("POST", f"/api/tables/{self.table_id}{path}", body)
            if again_status == 200 and again == answer:
                self.retries_same += 1
            else:
                self.retries_differ += 1
        self.accepted[answer["hand_id"]] = self.accepted.get(answer["hand_id"], 0) + 1
        return dict(answer)

    def decide(self, hand: dict[str, Any]) -> dict[str, Any]:
        buttons = hand["buttons"]
        roll = self.rng.random()
        kinds = {b["action"]: b for b in buttons}
        if "check" in kinds and roll < 0.8:
            return {"seat": hand["to_act"], "action": "check"}
        if roll < 0.25 and "fold" in kinds:
            return {"seat": hand["to_act"], "action": "fold"}
        raises = [b for b in buttons if b["action"] in ("raise", "bet")]
        if roll > 0.9 and raises:
            return {"seat": hand["to_act"], "action": raises[0]["action"], "amount": raises[0]["amount"]}
        if "call" in kinds:
            return {"seat": hand["to_act"], "action": "call"}
        if "check" in kinds:
            return {"seat": hand["to_act"], "action": "check"}
        return {"seat": hand["to_act"], "action": "fold"}

    def run(self) -> None:
        try:
            time.sleep(self.pauses.uniform(0, self.ramp))    # tables deal their first hands at random
            while time.monotonic() < self.until:
                if self.think:       # the dealer's "next hand" too: every write after a pause
                    time.sleep(self.pauses.uniform(0.5, 1.5) * self.think)
                sent, start = time.monotonic(), time.perf_counter()
                status, hand = self.client.call("POST", f"/api/tables/{self.table_id}/hands",
                                                {"absent_seats": []})
                self.samples.append((sent, time.perf_counter() - start, "/hands"))
                if status != 201:
                    self.errors.append(f"start {status} {hand}")
                    return
                while not hand["finished"] and time.monotonic() < self.until:
                    if hand["to_act"] is not None:
                        hand = self.post("/hand/actions", self.decide(hand), hand)
                    elif hand["awaiting"] == "board":
                        hand = self.post("/hand/board", {"cards": None}, hand)
                    elif hand["awaiting"] == "showdown":
                        hand = self.post("/hand/award", {"high": [[hand["showdown_order"][0]]]}, hand)
                    else:
                        self.errors.append(f"stuck: {hand['prompt']}")
                        return
        except Exception as exc:  # noqa: BLE001 - reported, never hidden
            self.errors.append(repr(exc))


class FloorTablet(threading.Thread):
    """A tablet against a floor: one write after each pause, a body like a dealer's."""

    def __init__(self, port: int, until: float, seed: int, think: float, ramp: float) -> None:
        super().__init__(daemon=True)
        self.client = Client(port, "")
        self.until, self.think, self.ramp = until, think, ramp
        self.rng = random.Random(seed)
        self.pauses = random.Random(seed)       # as the project's tablet of the same number
        self.samples: list[tuple[float, float]] = []
        self.errors: list[str] = []

    def run(self) -> None:
        try:
            time.sleep(self.pauses.uniform(0, self.ramp))
            version = 0
            while time.monotonic() < self.until:
                if self.think:
                    time.sleep(self.pauses.uniform(0.5, 1.5) * self.think)
                version += 1
                body = {"seat": 3, "action": "call", "version": version,
                        "idempotency_key": f"{self.rng.getrandbits(128):032x}"}
                sent, start = time.monotonic(), time.perf_counter()
                status, _ = self.client.call("POST", "/write", body)
                self.samples.append((sent, time.perf_counter() - start))
                if status != 200:
                    self.errors.append(str(status))
        except Exception as exc:  # noqa: BLE001 - reported, never hidden
            self.errors.append(repr(exc))


def floor(kind: str, server_kind: str, args: argparse.Namespace) -> tuple[float, float, float]:
    """(writes/s, p99 ms, the server's CPU ms a write) of ``args.tablets`` tablets
    against the floor ``kind``."""
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(Path(tmp), port, TOKEN, server=server_kind, app=kind)
        try:
            began = time.monotonic()
            window = (began + args.ramp, began + args.ramp + args.seconds)
            tablets = [FloorTablet(port, window[1], seed, args.think_ms / 1000, args.ramp)
                       for seed in range(args.tablets)]
            gc.collect()
            gc.disable()
            server_cpu = cpu_seconds(server.pid)
            for tablet in tablets:
                tablet.start()
            for tablet in tablets:
                tablet.join()
            server_cpu = cpu_seconds(server.pid) - server_cpu
            gc.enable()
        finally:
            server.terminate()
            server.wait(timeout=10)
    cpu_ms = server_cpu / max(sum(len(t.samples) for t in tablets), 1) * 1000
    measured = sorted(latency for t in tablets for sent, latency in t.samples
                      if window[0] <= sent < window[1])
    errors = sum(len(t.errors) for t in tablets)
    rate = len(measured) / args.seconds
    p99 = measured[min(len(measured) - 1, int(len(measured) * 0.99))] * 1000 if measured else 0.0
    p50 = statistics.median(measured) * 1000 if measured else 0.0
    print(f"floor {kind} ({server_kind}): {rate:.0f} writes/s, p50 {p50:.1f} ms, "
          f"p99 {p99:.1f} ms, server CPU per write {cpu_ms:.2f} ms, "
          f"errors {errors}")
    return rate, p99, cpu_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="uvicorn", choices=("uvicorn", "hypercorn", "granian"),
                        help="the server the app and the floors run on (uvicorn: director serve)")
    parser.add_argument("--no-floors", action="store_true", help="measure the project only")
    parser.add_argument("--tablets", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--think-ms", type=float, default=150.0,
                        help="mean pause before each write (a dealer taps every few seconds; "
                             "150 ms makes 50 tablets offer about 330 writes/s)")
    parser.add_argument("--ramp", type=float, default=4.0,
                        help="seconds over which the tables deal their first hands (about one hand), "
                             "not measured: in a card room the tables are not in step")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(Path(tmp), port, TOKEN, server=args.server)
        try:
            print(f"setting up {args.tablets} tables ...", flush=True)
            tables = setup(port, args.tablets)
            print(f"playing for {args.ramp:.0f} + {args.seconds:.0f} s ...", flush=True)
            began = time.monotonic()
            window = (began + args.ramp, began + args.ramp + args.seconds)
            tablets = [Tablet(port, t, window[1], seed, args.think_ms / 1000, args.ramp)
                       for seed, t in enumerate(tables)]
            server_cpu, client_cpu = cpu_seconds(server.pid), time.process_time()
            # This client's own collector would stop all 50 tablets at once and charge the
            # pause to the server: it is off while they play (their garbage is not cyclic).
            gc.collect()
            gc.disable()
            for tablet in tablets:
                tablet.start()
            for tablet in tablets:
                tablet.join()
            gc.enable()
            elapsed = time.monotonic() - began
            server_cpu, client_cpu = cpu_seconds(server.pid) - server_cpu, time.process_time() - client_cpu
            checker = Client(port, TOKEN)
            lost = duplicated = 0
            hands = 0
            for tablet in tablets:
                for hand_id, accepted in tablet.accepted.items():
                    _, stored = checker.call("GET", f"/api/hands/{hand_id}")
                    count = len(stored["events"])
                    hands += 1
                    lost += max(0, accepted - count)
                    duplicated += max(0, count - accepted)
        finally:
            server.terminate()
            server.wait(timeout=10)
    everything = sorted(x for t in tablets for x in t.samples)
    measured = [x for x in everything if window[0] <= x[0] < window[1]]
    latencies = sorted(latency for _, latency, _ in measured)
    actions = len(latencies)
    errors = [e for t in tablets for e in t.errors]
    same = sum(t.retries_same for t in tablets)
    differ = sum(t.retries_differ for t in tablets)

    def percentile(values: list[float], q: float) -> float:
        return values[min(len(values) - 1, int(len(values) * q))] * 1000 if values else 0.0

    p50 = statistics.median(latencies) * 1000 if latencies else 0.0
    p99 = percentile(latencies, 0.99)
    print(f"tablets: {len(tablets)}, hands: {hands}, writes: {len(everything)} in {elapsed:.1f} s, "
          f"of which {actions} sent in the {args.seconds:.0f} s after the {args.ramp:.0f} s ramp")
    print(f"throughput: {actions / args.seconds:.0f} writes/s (goal >= 300)")
    print(f"latency: p50 {p50:.1f} ms, p99 {p99:.1f} ms (goal p99 <= 15 ms); with the ramp: "
          f"p99 {percentile(sorted(x[1] for x in everything), 0.99):.1f} ms")
    paths: dict[str, list[float]] = {}
    for _, latency, path in measured:
        paths.setdefault(path, []).append(latency)
    for path, values in sorted(paths.items()):
        values.sort()
        print(f"  {path}: {len(values)} writes, p50 {statistics.median(values) * 1000:.1f} ms, "
              f"p99 {percentile(values, 0.99):.1f} ms")
    slowest = sorted(measured, key=lambda x: -x[1])[:8]
    print("  slowest: " + ", ".join(f"{path} {latency * 1000:.0f} ms at {sent - window[0]:.2f} s"
                                    for sent, latency, path in slowest))
    print(f"CPU per write: server {server_cpu / max(len(everything), 1) * 1000:.2f} ms "
          f"({server_cpu / elapsed * 100:.0f}% of a core), "
          f"this client {client_cpu / max(len(everything), 1) * 1000:.2f} ms "
          f"({client_cpu / elapsed * 100:.0f}% of a core); load average {os.getloadavg()[0]:.2f}")
    print(f"retries answered identically: {same}, differently: {differ}")
    print(f"lost: {lost}, duplicated: {duplicated}, errors: {len(errors)}")
    for line in errors[:5]:
        print("  error:", line[:200])
    result: dict[str, Any] = {
        "server": args.server, "tablets": len(tablets), "actions": actions,
        "actions_per_s": round(actions / args.seconds, 1), "p50_ms": round(p50, 2),
        "p99_ms": round(p99, 2), "cpu_ms": round(server_cpu / max(len(everything), 1) * 1000, 2),
        "lost": lost, "duplicated": duplicated + differ}
    if not args.no_floors:
        rate = actions / args.seconds
        for kind in ("insert", "json"):
            floor_rate, floor_p99, floor_cpu = floor(kind, args.server, args)
            result[f"floor_{kind}_cpu_ms"] = round(floor_cpu, 2)
            result[f"floor_{kind}_per_s"] = round(floor_rate, 1)
            result[f"floor_{kind}_p99_ms"] = round(floor_p99, 2)
            result[f"ratio_{kind}"] = round(rate / floor_rate, 2) if floor_rate else None
        print(f"the project's writes/s over the floors' ({args.server}, same run): "
              f"{result['ratio_insert']}x a bare Flask + one SQLite insert and commit, "
              f"{result['ratio_json']}x a bare Flask JSON answer; "
              f"load average {os.getloadavg()[0]:.2f}")
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
