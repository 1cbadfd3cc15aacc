"""Clock fan-out: how long until every open screen has a level change.

Starts a real server (``director serve``: uvicorn, temp instance and SQLite
DB) in a subprocess, opens N server-sent-event clients (default 200) on one
tournament, then changes the level through the API a few times and measures,
for every client, the delay from just before the director's POST until that
client has read the event.  Goal: p99 <= 250 ms at 200 clients.

    .venv/bin/python benchmarks/clock_fanout.py [--clients 200] [--rounds 5]

The last line is one JSON object: {"clients", "p50_ms", "p99_ms"}.
A benchmark is not a test: it never fails on a time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from live_server import free_port, percentile, start_server  # benchmarks/ is on sys.path

TOKEN = "fanout-benchmark-token"
GOAL_P99_MS = 250.0



def api(base: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        base + path, method="POST", data=json.dumps(body or {}).encode(),
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


class Client:
    def __init__(self, port: int, tournament_id: int) -> None:
        self.port = port
        self.tournament_id = tournament_id
        self.buffer = b""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def connect(self) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(
            f"GET /clock/{self.tournament_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Accept: text/event-stream\r\n\r\n".encode())
        await self.writer.drain()
        await self.wait_for(b'"level_index":0,')

    async def wait_for(self, marker: bytes) -> float:
        """Read until ``marker`` is in the stream; returns perf_counter() at that moment."""
        assert self.reader is not None
        while marker not in self.buffer:
            chunk = await self.reader.read(65536)
            if not chunk:
                raise ConnectionError("the server closed the stream")
            self.buffer += chunk
        seen = time.perf_counter()
        self.buffer = self.buffer[self.buffer.index(marker) + len(marker):]
        return seen

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def measure(base: str, port: int, tournament_id: int, clients: int,
                  rounds: int) -> list[float]:
    screens = [Client(port, tournament_id) for _ in range(clients)]
    for start in range(0, clients, 50):  # connect in batches
        await asyncio.gather(*(c.connect() for c in screens[start:start + 50]))
    delays: list[float] = []
    loop = asyncio.get_running_loop()
    for round_number in range(rounds):
        control, target = ("next", 1) if round_number % 2 == 0 else ("previous", 0)
        marker = f'"level_index":{target},'.encode()
        waits = [asyncio.ensure_future(c.wait_for(marker)) for c in screens]
        await asyncio.sleep(0.2)
        started = time.perf_counter()
        await loop.run_in_executor(
            None, api, base, f"/api/tournaments/{tournament_id}/clock/{control}")
        seen = await asyncio.wait_for(asyncio.gather(*waits), timeout=30)
        delays.extend((moment - started) * 1000 for moment in seen)
        await asyncio.sleep(0.3)
    for c in screens:
        c.close()
    return delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="director-fanout-") as folder:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_server(Path(folder), port, TOKEN)
        try:
            level = {"game": "PO", "duration_seconds": 3600, "small_blind": 100,
                     "big_blind": 200}
            tournament_id = api(base, "/api/tournaments",
                                {"name": "Fan-out", "levels": [level, level, level]})["id"]
            api(base, f"/api/tournaments/{tournament_id}/clock/start")
            delays = asyncio.run(measure(base, port, tournament_id, args.clients, args.rounds))
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
    p50, p99 = percentile(delays, 0.50), percentile(delays, 0.99)
    print(f"{args.clients} SSE clients x {args.rounds} level changes: "
          f"p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(delays):.1f} ms, "
          f"mean {statistics.fmean(delays):.1f} ms")
    print(f"p99 against the {GOAL_P99_MS:.0f} ms goal: {p99 / GOAL_P99_MS:.2f}x")
    print(json.dumps({"clients": args.clients, "p50_ms": round(p50, 1), "p99_ms": round(p99, 1)}))


if __name__ == "__main__":
    main()
