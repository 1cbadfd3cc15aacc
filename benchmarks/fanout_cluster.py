"""Fan-out across server processes: 2 ``director serve`` processes on PostgreSQL,
2,000 live screens split between them, 300 dealer tablets writing.

Each process serves its screens on its one port (``director.streams``: uvicorn,
or ``--server hypercorn|granian`` for the same app on another candidate) and
hears the other's changes through LISTEN/NOTIFY (``services.change_feed``).
The tournament has 300 tables of 6 (1,800 players, each a paid buy-in, seated
through the services in this process); 300 tablet threads in a process of their own (not the one
that reads the screens), half on each server, write one action every
``--tablet-seconds`` (3 s): deal, fold, fold, ... (the director's token,
``dealer_load.py`` measures the tablets themselves).  Of the 2,000 screens, each
table's tablet reads a stream that names its table (``?table=``: it is also sent
that table's hand events), two for each probe table (one on each process); the
others name no table (the clocks, seating charts and phones of the room).  While
the tablets play, three changes are measured, each from just before its POST until
every screen it is sent to has read it:

* a level change (``clock/next``, through process 1): every screen,
* a seating move (a late player seated, through process 2: ``players_left`` + 1):
  every screen,
* a dealer action (a fold on a probe table, through process 2): that table's two
  streams.

Each is measured ``--rounds`` (5) times, a level change, a seating move and a
dealer action in turn; the figures take every screen of every round.  The first
of each kind is the first such request its process serves (its code paths and
SQL statements not yet warm), so each round's p99 is also printed.  A round's p99
moves with what else the machine does at that moment, the floor's as much as the
project's (the floor's quiet rounds come first, when its 2,000 screens have just
connected): "typical", the median of the rounds' p99, is the figure meant to hold
from one run and one machine to the next, and its ratio to the floor's typical
round.  Then the
tablets stop and the same three changes are measured again ("quiet": the quiet
floor's conditions, on a probe table of its own).
``lost``: (screen, change) pairs not read within 10 s.  Goal: p99 <= 250 ms.

"publication": the quiet changes again, each from the moment the change was told
to the other processes (the ``NOTIFY`` after its commit, heard by a ``LISTEN`` of the
benchmark's own) until every screen has it: the fan-out alone, apart from the
request's own work (which ``dealer_load.py`` compares with a bare insert).  The
floor's probes are measured the same way.  A screen of the process that made the
change may have it before the ``NOTIFY`` is heard (a delay below zero).

The floor, in the same run and on the same server: the same 2 processes, screens,
tablets and probes through a bare SSE broadcaster of a few lines of starlette
(``servers.py broadcast``: a queue per stream, PostgreSQL NOTIFY between the
processes): first with no tablet publishing (the transport alone: the floor the
ratio is taken against), then with the tablets each publishing a dealer-sized
message for its table every ``--tablet-seconds`` (the floor has table streams as
the project has: each message goes to its table's stream alone; the third probe
of each round, the dealer action's, to its probe table's two streams).  Goal:
the project's p99 within 1.5x the floor's.  The floor fans out the same bytes: each
of its probes carries to each screen as many bytes as the project's change of that
kind sent one in the quiet rounds (a level change: the clock state; a seating move:
the seating figures and the clock state; "probe_bytes"), as its tablets publish
dealer-sized messages.

    .venv/bin/python benchmarks/fanout_cluster.py [--clients 2000] [--tablets 300]

PostgreSQL: ``DIRECTOR_BENCH_DATABASE_URL`` (else ``DIRECTOR_TEST_DATABASE_URL``, else
the ``make postgres`` cluster); the run uses a schema of its own, dropped after.
When it is not reachable the benchmark says so and skips.  The last line is one
JSON object: {"server", "clients", "processes", "p50_ms", "p99_ms" (the tablets
playing), "quiet_p50_ms", "quiet_p99_ms" (stopped), "lost" (both phases),
"floor_p50_ms", "floor_p99_ms", "floor_lost" (no tablets publishing),
"floor_loaded_p50_ms", "floor_loaded_p99_ms", "floor_loaded_lost", "ratio_p99"
(the project's p99, tablets playing, over the quiet floor's), "ratio_quiet_p99"
(quiet over quiet), "ratio_loaded_p99" (tablets on both), "publication_p50_ms",
"publication_p99_ms", "floor_publication_p50_ms", "floor_publication_p99_ms",
"ratio_publication_p99" (the fan-out alone, quiet, over the floor's),
"loaded_warm_p99_ms", "floor_loaded_warm_p99_ms", "ratio_loaded_warm_p99" (tablets on
both, the rounds after the first: no change the first of its kind in its process),
"typical_p99_ms", "floor_typical_p99_ms" (each phase's median of its rounds' p99:
"loaded", "quiet", "publication"), "ratio_typical_p99" (the project's loaded over the
floor's quiet, as "ratio_p99"), "ratio_typical_loaded_p99" (loaded over loaded),
"ratio_typical_quiet_p99" (quiet over quiet), "ratio_typical_publication_p99",
"probe_bytes", "ratio_by_kind", "p99_by_process_ms" (each phase's, each kind's p99 on
the screens of each process: the one that served the request tells its own screens
after its commit, the other hears the change through the NOTIFY)}.
A benchmark is not a test: it never fails on a time.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

from live_server import BENCHMARKS, every_page, free_port, percentile  # benchmarks/ is on sys.path

TOKEN = "cluster-benchmark-token"
GOAL_P99_MS = 250.0
ROUNDS = 5              # each change measured five times (--rounds); the first finds its process cold
KINDS = ("level change", "seating move", "dealer action")
PROCESSES = 2
# The buy-in; late entries (the seating move is one) open until the last round (prepare).
MONEY_SETTINGS = {"buy_in": "100", "starting_stack": 20_000}
DEFAULT_URL = "postgresql://director:director@127.0.0.1:5432/director_test"
HEADERS = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}


def reachable(url: str) -> str | None:
    """None when PostgreSQL answers, else why not."""
    try:
        import psycopg
    except ImportError:
        return "psycopg is not installed (pip install -e '.[postgres]')"
    try:
        psycopg.connect(url, connect_timeout=3).close()
    except Exception as exc:  # noqa: BLE001 - any reason is a reason to skip
        return f"PostgreSQL is not reachable at {url.split('@')[-1]}: {str(exc).strip()[:160]}"
    return None


def call(port: int, path: str, body: dict[str, Any] | None = None,
         connection: http.client.HTTPConnection | None = None) -> dict[str, Any]:
    own = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    own.request("POST" if body is not None else "GET", path,
                body=json.dumps(body) if body is not None else None, headers=HEADERS)
    answer = own.getresponse()
    data = answer.read()
    if connection is None:
        own.close()
    if answer.status >= 400:
        raise RuntimeError(f"{path}: {answer.status} {data[:300]!r}")
    return dict(json.loads(data))


# ---------------------------------------------------------------- the screens

class Screen(asyncio.Protocol):
    """One live screen: notes when each marker first arrives (a marker may be cut in
    two by the network, so the end of the previous chunk is kept)."""

    def __init__(self, seen: dict[bytes, list[float]], opened: asyncio.Event,
                 process: int) -> None:
        self.seen = seen
        self.process = process     # which server process it reads (0: the first)
        self.at: dict[bytes, float] = {}    # when each marker arrived here
        self.opened = opened
        self.tail = b""
        self.received = 0          # bytes read: what each change cost this screen
        self.found: set[bytes] = set()
        self.connected = False
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.received += len(data)
        text = self.tail + data
        if not self.connected and b"event: clock" in text:
            self.connected = True
            self.opened.set()
        for marker, moments in self.seen.items():
            if marker not in self.found and marker in text:
                self.found.add(marker)
                self.at[marker] = time.perf_counter()
                moments.append(self.at[marker])
        self.tail = text[-200:]


def table_streams(tables: list[int], probe_tables: tuple[int, int]) -> list[int]:
    """The table of each tablet's stream: one a table, two for each probe table (its
    hand read on both processes: a second device, the floor's phone, the change
    crossing between them)."""
    return [table for table in tables for _ in range(2 if table in probe_tables else 1)]


async def open_screens(ports: list[int], path: str, clients: int,
                       seen: dict[bytes, list[float]], tables: list[int]) -> list[Screen]:
    """``clients`` streams of ``path``: first a tablet's for each of ``tables``
    (``?table=``: it is also sent its table's hand events), the others screens of no
    table (clocks, seating charts, phones); once each has its first event."""
    loop = asyncio.get_running_loop()
    screens: list[Screen] = []
    for i in range(clients):
        opened, process = asyncio.Event(), i % len(ports)
        transport, screen = await loop.create_connection(
            lambda o=opened, p=process: Screen(seen, o, p), "127.0.0.1", ports[process])
        asked = f"?table={tables[i]}" if i < len(tables) else ""
        transport.write(f"GET {path}{asked} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        screens.append(screen)
        if i % 100 == 99:
            await asyncio.sleep(0.02)
    deadline = time.monotonic() + 60
    while not all(s.connected for s in screens):
        if time.monotonic() > deadline:
            raise SystemExit("the screens did not all get their first state")
        await asyncio.sleep(0.1)
    return screens


# ---------------------------------------------------------------- the tablets

class Tablet(threading.Thread):
    """A dealer tablet: one write every ``every`` seconds (deal, then fold to the end)."""

    def __init__(self, port: int, table_id: int, every: float, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.port, self.table_id, self.every, self.stop = port, table_id, every, stop
        self.hand: dict[str, Any] | None = None
        self.writes = 0
        self.errors = 0

    def run(self) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        self.stop.wait(random.uniform(0, self.every))     # the tables are not in step
        while not self.stop.is_set():
            try:
                self.write(connection)
                self.writes += 1
            except Exception:  # noqa: BLE001 - counted, the tablet goes on
                self.errors += 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                self.hand = None
            self.stop.wait(self.every)

    def write(self, connection: http.client.HTTPConnection) -> None:
        url = f"/api/tables/{self.table_id}"
        if self.hand is None or self.hand.get("finished") or self.hand.get("to_act") is None:
            self.hand = call(self.port, f"{url}/hands", {}, connection)
            return
        self.hand = call(self.port, f"{url}/hand/actions", {
            "seat": self.hand["to_act"], "action": "fold", "version": self.hand["version"]},
            connection)


def play(ports: list[int], table_ids: list[int], every: float, stop: Any, counts: Any) -> None:
    """The tablets of ``Room``, in their own process until ``stop`` is set."""
    halt = threading.Event()
    running = [Tablet(ports[i % len(ports)], table, every, halt)
               for i, table in enumerate(table_ids)]
    for tablet in running:
        tablet.start()
    stop.wait()
    halt.set()
    counts.put((sum(t.writes for t in running), sum(t.errors for t in running)))


class Room:
    """The tablets, playing from a process of their own: 300 threads writing and
    reading JSON in the process that reads the 2,000 screens would hold its
    interpreter lock, and the screens' delays would be the benchmark's own."""

    def __init__(self, ports: list[int], table_ids: list[int], every: float) -> None:
        context = multiprocessing.get_context("spawn")
        self._stop = context.Event()
        self._counts: Any = context.Queue()
        self._process = context.Process(target=play, daemon=True,
                                        args=(ports, table_ids, every, self._stop, self._counts))
        self._process.start()

    def stop(self) -> tuple[int, int]:
        """(writes, errors) of every tablet."""
        self._stop.set()
        counts: tuple[int, int] = self._counts.get(timeout=60)
        self._process.join(30)
        return counts


# ---------------------------------------------------------------- the publication

class Heard(threading.Thread):
    """A ``LISTEN`` of the benchmark's own on a change-feed channel: when each change was
    told to the other processes (the ``NOTIFY`` that follows its commit), so that the
    fan-out alone (from there to the screens) is measured apart from the request that
    made the change.  The project and the floor are measured the same way."""

    def __init__(self, url: str, channel: str) -> None:
        super().__init__(daemon=True)
        self.url, self.channel = url, channel
        self.notes: list[tuple[float, str]] = []
        self.ready = threading.Event()
        self.halt = threading.Event()

    def run(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute(f'LISTEN "{self.channel}"')
            self.ready.set()
            while not self.halt.is_set():
                for note in connection.notifies(timeout=0.5):
                    self.notes.append((time.perf_counter(), note.payload))

    def start_listening(self) -> Heard:
        self.start()
        if not self.ready.wait(10):
            raise SystemExit(f"could not LISTEN on {self.channel}")
        return self

    def stop(self) -> None:
        self.halt.set()
        self.join(5)

    def first_after(self, started: float, marker: bytes | None = None) -> float | None:
        """When the first change told after ``started`` (with ``marker`` in it) was heard."""
        return next((moment for moment, payload in self.notes if moment >= started
                     and (marker is None or marker.decode() in payload)), None)


def from_publication(sent: list[tuple[float, bytes]], seen: dict[bytes, list[float]],
                     heard: Heard, by_marker: bool) -> list[float]:
    """Each screen's delay from its change's publication (heard), in ms."""
    delays: list[float] = []
    for started, marker in sent:
        told = heard.first_after(started, marker if by_marker else None)
        if told is not None:
            delays.extend((moment - told) * 1000 for moment in seen[marker])
    return delays


# ---------------------------------------------------------------- the floor

FLOOR_MESSAGE = json.dumps({"table_id": 0, "hand_id": 0, "seat": 3, "action": "fold",
                            "pot": 1200, "to_act": 4, "street": "preflop",
                            "stacks": [20_000] * 6, "board": [], "version": 0,
                            "buttons": ["fold", "call", "raise"] * 10})


def publish(port: int, body: str, connection: http.client.HTTPConnection | None = None,
            table: int | None = None) -> None:
    own = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    own.request("POST", "/publish" if table is None else f"/publish?table={table}",
                body=body.encode(), headers=HEADERS)
    answer = own.getresponse()
    answer.read()
    if connection is None:
        own.close()
    if answer.status >= 400:
        raise RuntimeError(f"/publish: {answer.status}")


FLOOR_EVENT = len(b"event: message\ndata: \n\n")    # the floor's bytes around a message
MAX_FLOOR_PROBE = 7_800                             # under PostgreSQL's NOTIFY payload limit


def floor_probe(marker: bytes, size: int | None) -> str:
    """A floor probe whose event carries ``size`` bytes to each screen (what the
    project's change of that kind sent one; None: the marker alone).

    >>> len(f"event: message\\ndata: {floor_probe(b'probe-1', 2000)}\\n\\n")
    2000
    """
    bare = json.dumps({"probe": marker.decode(), "pad": ""})
    pad = 0 if size is None else max(0, min(size, MAX_FLOOR_PROBE) - FLOOR_EVENT - len(bare))
    return json.dumps({"probe": marker.decode(), "pad": "x" * pad})


def play_floor(ports: list[int], tablets: int, every: float, stop: Any, counts: Any) -> None:
    """The floor's tablets: each publishes a dealer-sized message for its table (1 to
    ``tablets``) every ``every`` s."""
    halt = threading.Event()
    writes = [0]
    errors = [0]

    def tablet(port: int, table: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        halt.wait(random.uniform(0, every))
        while not halt.is_set():
            try:
                publish(port, FLOOR_MESSAGE, connection, table)
                writes[0] += 1
            except Exception:  # noqa: BLE001 - counted
                errors[0] += 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            halt.wait(every)

    threads = [threading.Thread(target=tablet, args=(ports[i % len(ports)], i + 1), daemon=True)
               for i in range(tablets)]
    for thread in threads:
        thread.start()
    stop.wait()
    halt.set()
    counts.put((writes[0], errors[0]))


async def measure_floor(ports: list[int], clients: int, tablets: int, every: float,
                        heard: Heard, sizes: dict[str, int]
                        ) -> tuple[list[tuple[list[float], int]], dict[str, dict[str, list[float]]],
                                   dict[str, list[list[float]]]]:
    """The same screens and probes through the bare broadcaster: first with no
    tablet publishing (the transport alone), then with the tablets; each (delays,
    lost); last, the quiet probes' delays from their publication (``heard``).  And
    each phase's delays by the kind of change its probe stands for.  As
    the project's: a stream per table (0 to ``tablets`` + 1; two for each probe
    table, 0 and the last), the third probe of each round published for a probe
    table, its two streams waiting for it."""
    seen: dict[bytes, list[float]] = {}
    probe_tables = (0, tablets + 1)
    screens = await open_screens(ports, "/events", clients, seen,
                                 table_streams(list(range(tablets + 2)), probe_tables))
    expected: dict[bytes, int] = {}

    async def probes(name: str) -> list[tuple[float, bytes]]:
        sent: list[tuple[float, bytes]] = []
        table = probe_tables[0] if name == "loaded" else probe_tables[1]
        for round_ in range(ROUNDS):
            for k, port in enumerate((ports[0], ports[1], ports[1])):
                marker = f"probe-{name}-{round_}-{k}-{uuid.uuid4().hex[:8]}".encode()
                seen[marker] = []
                expected[marker] = 2 if k == 2 else clients
                await asyncio.sleep(0.3)
                started = time.perf_counter()
                await asyncio.to_thread(publish, port, floor_probe(marker, sizes.get(KINDS[k])),
                                        None, table if k == 2 else None)
                sent.append((started, marker))
        await asyncio.sleep(3 if name == "quiet" else 10)
        return sent

    quiet = await probes("quiet")          # the transport alone: no tablets publishing
    context = multiprocessing.get_context("spawn")
    stop, counts = context.Event(), context.Queue()
    room = context.Process(target=play_floor, daemon=True,
                           args=(ports, tablets, every, stop, counts))
    room.start()
    await asyncio.sleep(every * 2)
    loaded = await probes("loaded")
    stop.set()
    writes, errors = counts.get(timeout=60)
    room.join(30)
    for screen in screens:
        if screen.transport is not None:
            screen.transport.close()
    print(f"floor tablets: {writes} publishes ({errors} failed)")
    results = []
    for sent in (quiet, loaded):
        results.append(([(m - started) * 1000 for started, marker in sent for m in seen[marker]],
                         sum(expected[marker] - len(seen[marker]) for _, marker in sent)))
    results.append((from_publication(quiet, seen, heard, by_marker=True), 0))
    by_kind = {phase: {name: [(m - started) * 1000 for started, marker in sent[k::len(KINDS)]
                              for m in seen[marker]] for k, name in enumerate(KINDS)}
               for phase, sent in (("quiet", quiet), ("loaded", loaded),
                                   ("loaded_warm", loaded[len(KINDS):]))}   # rounds 2 on
    # Each round's delays, its three probes together, as the project's rounds.
    by_round = {phase: [[(m - started) * 1000 for started, marker in sent[r:r + len(KINDS)]
                         for m in seen[marker]] for r in range(0, len(sent), len(KINDS))]
                for phase, sent in (("quiet", quiet), ("loaded", loaded))}
    by_round["publication"] = [from_publication(quiet[r:r + len(KINDS)], seen, heard,
                                                by_marker=True)
                               for r in range(0, len(quiet), len(KINDS))]
    return results, by_kind, by_round


# ---------------------------------------------------------------- the run

def prepare(url: str, schema: str, tables: int) -> int:
    """The schema, its tables, and a tournament with ``tables`` tables of 6 drawn: each
    player a buy-in taken at the desk (a line of the ledger, as at a real event)."""
    from director import create_app, migrations
    from director.db import db
    from director.services import money, seating, tournaments

    options = {"connect_args": {"options": f"-csearch_path={schema}"}}
    folder = Path(tempfile.mkdtemp(prefix="director-cluster-setup-"))
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(folder), "TOKEN": TOKEN,
                      "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url,
                      "SQLALCHEMY_ENGINE_OPTIONS": options, "CHANGE_FEED": "memory"})
    migrations.prepare(app, backup=False)
    with app.app_context():
        level = {"game": "PO", "duration_seconds": 3600, "small_blind": 100, "big_blind": 200}
        # A level change in every round of both phases, and late entries open until the last.
        tournament = tournaments.create_tournament("Festival", [level] * (2 * ROUNDS + 4))
        seating.configure(tournament.id, {"table_size": 6})
        money.save_settings(tournament.id, {**MONEY_SETTINGS,
                                            "late_registration_level": 2 * ROUNDS + 3})
        for i in range(tables * 6):
            money.register_entry(tournament.id, f"Player {i + 1:04d}")
        seating.draw(tournament.id, random.Random(18))
        tid = tournament.id
        db.engine.dispose()
    return tid


def serve(url: str, schema: str, folder: Path, port: int, server: str = "uvicorn",
          app: str = "director") -> subprocess.Popen[bytes]:
    env = {**os.environ, "DIRECTOR_INSTANCE_PATH": str(folder), "DIRECTOR_TOKEN": TOKEN,
           "DIRECTOR_DATABASE_URL": f"{url}?options={quote(f'-csearch_path={schema}')}",
           "DIRECTOR_CHANGE_FEED_CHANNEL": schema, "DIRECTOR_BACKUP_MINUTES": "0",
           "DIRECTOR_SCHEDULER_LOCK_KEY": str(random.randrange(1, 2**62)),
           "HOST": "127.0.0.1", "PYTHONUNBUFFERED": "1",
           "FLOOR_DATABASE_URL": url.replace("postgresql+psycopg://", "postgresql://"),
           "FLOOR_CHANNEL": f"{schema}_floor",
           "PYTHONPATH": os.pathsep.join([str(BENCHMARKS.parent), str(BENCHMARKS)])}
    folder.mkdir(parents=True, exist_ok=True)
    log = (folder / "server.log").open("wb")
    if server == "uvicorn" and app == "director":
        command = [sys.executable, "-c", "from director.cli import main; main()", "serve",
                   "--port", str(port)]
    else:
        command = [sys.executable, str(BENCHMARKS / "servers.py"), server, app, str(port)]
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT,
                               cwd=BENCHMARKS)
    deadline = time.monotonic() + 60
    while "Director:" not in (folder / "server.log").read_text(errors="replace"):
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"a server did not start: {(folder / 'server.log').read_text()}")
        time.sleep(0.1)
    while time.monotonic() < deadline:      # and answers (its app has started)
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/nothing-here")
            connection.getresponse().read()
            connection.close()
            break
        except OSError:
            time.sleep(0.1)
    return process


async def measure(web: list[int], tid: int, table_ids: list[int],
                  clients: int, tablets: int, every: float,
                  heard: Heard) -> tuple[dict[str, dict[str, list[list[float]]]], int, int,
                                         dict[str, int],
                                         dict[str, dict[str, list[float | None]]]]:
    """The three changes while the tablets play ("loaded"), then again once they have
    stopped ("quiet": the same conditions as the quiet floor); each kind's delays.
    "publication": the quiet ones again, each from when its change was told to the
    other processes (``heard``: nothing else is told then).  And how many bytes each
    quiet change sent one of its screens (the median of its rounds): the floor's
    probes carry as many.  And each kind's p99 on each process's screens."""
    seen: dict[bytes, list[float]] = {}
    probe_tables, played = (table_ids[0], table_ids[-1]), table_ids[1:tablets + 1]
    streams = table_streams(table_ids, probe_tables)
    screens = await open_screens(web, f"/clock/{tid}/events", clients, seen, streams)
    # The bytes a quiet change sends: a screen of no table (the level change, the
    # seating move), and one of the quiet probe table (the dealer action).
    watched = {"level change": screens[-1], "seating move": screens[-1],
               "dealer action": screens[streams.index(probe_tables[1])]}
    read_before: list[tuple[str, dict[str, int]]] = []   # each quiet probe: its kind, and
    # what the watched screens had read when it began
    expected: dict[bytes, int] = {}      # how many screens are sent each change
    room = Room(web, played, every)
    await asyncio.sleep(every * 2)                         # the room is playing
    left = (await asyncio.to_thread(call, web[1], f"/api/tournaments/{tid}/clock"))["players_left"]
    answered: dict[bytes, float] = {}    # how long each POST took to answer

    async def probe(marker: bytes, port: int, path: str, body: dict[str, Any],
                    screens: int = clients, kind: str = "", quiet: bool = False
                    ) -> tuple[float, bytes, Any]:
        seen[marker] = []
        expected[marker] = screens
        await asyncio.sleep(0.3)
        if quiet:
            read_before.append((kind, {name: watched[name].received for name in KINDS}))
        started = time.perf_counter()
        answer = await asyncio.to_thread(call, port, path, body)
        answered[marker] = (time.perf_counter() - started) * 1000
        return started, marker, answer

    async def rounds(first: int, probe_table: int) -> dict[str, list[tuple[float, bytes]]]:
        hand = await asyncio.to_thread(call, web[1], f"/api/tables/{probe_table}/hands", {})
        await asyncio.sleep(0.5)
        sent: dict[str, list[tuple[float, bytes]]] = {name: [] for name in KINDS}
        for round_ in range(first, first + ROUNDS):   # the first of each kind is cold
            quiet = first > 0
            level = await probe(f'"level_index":{round_ + 1},'.encode(), web[0],
                                f"/api/tournaments/{tid}/clock/next", {},
                                kind=KINDS[0], quiet=quiet)
            seat = await probe(
                f'{{"tournament_id":{tid},"players_left":{left + 1 + round_},'.encode(),
                web[1], f"/api/tournaments/{tid}/seating/players",
                {"name": f"Late Entry {round_ + 1}", "chips": 20_000}, kind=KINDS[1], quiet=quiet)
            marker = (f'"table_id":{probe_table},"hand_id":{hand["hand_id"]},'
                      f'"version":{hand["version"] + 1}}}').encode()
            action = await probe(marker, web[1], f"/api/tables/{probe_table}/hand/actions",
                                 {"seat": hand["to_act"], "action": "fold",
                                  "version": hand["version"]}, screens=2,
                                 kind=KINDS[2], quiet=quiet)
            hand = action[2]
            for name, (started, marker_, _answer) in zip(KINDS, (level, seat, action),
                                                         strict=True):
                sent[name].append((started, marker_))
        await asyncio.sleep(10)                             # what has not arrived now is lost
        return sent

    loaded = await rounds(0, probe_tables[0])
    writes, errors = room.stop()
    print(f"tablets: {writes} writes ({errors} refused or failed)")
    await asyncio.sleep(2)
    quiet = await rounds(ROUNDS, probe_tables[1])
    # What each quiet change sent its screen: the bytes it read until the next probe
    # began (the last: until now); nothing else is sent then but a ping.
    read_before.append(("", {name: watched[name].received for name in KINDS}))
    sizes: dict[str, list[int]] = {name: [] for name in KINDS}
    for (kind, before), (_next, after) in zip(read_before, read_before[1:], strict=False):
        sizes[kind].append(after[kind] - before[kind])
    lost = 0
    results: dict[str, dict[str, list[list[float]]]] = {}
    for phase, sent in (("loaded", loaded), ("quiet", quiet)):
        results[phase] = {name: [] for name in KINDS}
        for name, probes in sent.items():
            print(f"{phase}, {name}: the request answered in "
                  + ", ".join(f"{answered[marker]:.0f}" for _started, marker in probes) + " ms")
            for started, marker in probes:
                moments = seen[marker]
                lost += expected[marker] - len(moments)
                results[phase][name].append([(m - started) * 1000 for m in moments])
    # Each kind's p99 on each process's screens: the process that served the request
    # tells its own screens at once, the other hears it through the NOTIFY.
    by_process = {phase: {name: [round(percentile(delays, 0.99), 1) if delays else None
                                 for delays in ([(screen.at[marker] - started) * 1000
                                                 for started, marker in probes
                                                 for screen in screens
                                                 if screen.process == process
                                                 and marker in screen.at]
                                                for process in range(len(web)))]
                          for name, probes in sent.items()}
                  for phase, sent in (("loaded", loaded), ("quiet", quiet))}
    results["publication"] = {name: [from_publication([probe], seen, heard, by_marker=False)
                                     for probe in probes] for name, probes in quiet.items()}
    for screen in screens:
        if screen.transport is not None:
            screen.transport.close()
    return results, lost, writes, {name: sorted(sent)[len(sent) // 2]
                                   for name, sent in sizes.items() if sent}, by_process


def typical_p99(rounds: list[list[float]]) -> float | None:
    """The median of the rounds' p99 (the lower middle of an even count)."""
    figures = sorted(percentile(delays, 0.99) for delays in rounds if delays)
    return round(figures[(len(figures) - 1) // 2], 1) if figures else None


def clients_of(rounds: list[list[float]]) -> int:
    return max((len(r) for r in rounds), default=0)


def main() -> None:
    global ROUNDS  # noqa: PLW0603 - prepare and both measures read it
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=2000)
    parser.add_argument("--tablets", type=int, default=300)
    parser.add_argument("--tablet-seconds", type=float, default=3.0)
    parser.add_argument("--server", default="uvicorn", choices=("uvicorn", "hypercorn", "granian"),
                        help="the server of the project and of the floor (uvicorn: director serve)")
    parser.add_argument("--no-floor", action="store_true", help="measure the project only")
    parser.add_argument("--rounds", type=int, default=ROUNDS,
                        help="how many times each change is measured in each phase")
    args = parser.parse_args()
    ROUNDS = max(1, args.rounds)
    url = (os.environ.get("DIRECTOR_BENCH_DATABASE_URL")
           or os.environ.get("DIRECTOR_TEST_DATABASE_URL") or DEFAULT_URL)
    why = reachable(url)
    if why is not None:
        print(f"fanout_cluster: skipped: {why}")
        print(json.dumps({"clients": args.clients, "processes": PROCESSES, "p50_ms": None,
                          "p99_ms": None, "lost": None, "skipped": why}))
        return
    from director.config import database_url
    from director.streams import raise_open_files_limit

    raise_open_files_limit()
    import sqlalchemy

    url = database_url(url)
    schema = "bench_" + uuid.uuid4().hex[:12]
    admin = sqlalchemy.create_engine(url, poolclass=sqlalchemy.pool.NullPool)
    with admin.begin() as connection:
        connection.execute(sqlalchemy.text(f'CREATE SCHEMA "{schema}"'))
    servers: list[subprocess.Popen[bytes]] = []
    try:
        started = time.perf_counter()
        tid = prepare(url, schema, args.tablets + 2)    # and a probe table for each phase
        print(f"set-up: {args.tablets + 2} tables of 6 in {time.perf_counter() - started:.1f} s")
        web = [free_port() for _ in range(PROCESSES)]
        with tempfile.TemporaryDirectory(prefix="director-cluster-") as folder:
            for i in range(PROCESSES):
                servers.append(serve(url, schema, Path(folder) / f"p{i}", web[i], args.server))
            pairing = every_page(lambda path: call(web[0], path),     # 20 tables a page
                                 f"/api/tournaments/{tid}/dealer/pairing")
            table_ids = [table["table_id"] for table in pairing]
            listen_url = url.replace("postgresql+psycopg://", "postgresql://")
            heard = Heard(listen_url, schema).start_listening()
            try:
                results, lost, _, sizes, by_process = asyncio.run(measure(
                    web, tid, table_ids, args.clients, args.tablets, args.tablet_seconds, heard))
                print("what each quiet change sent one of its screens (the floor's probes carry "
                      "as many bytes): " + ", ".join(f"{name} {size:,} bytes"
                                                    for name, size in sizes.items()))
            except Exception:
                for i in range(PROCESSES):   # what the servers said
                    print((Path(folder) / f"p{i}" / "server.log").read_text()[-20000:])
                raise
            finally:
                heard.stop()
            stop_all(servers)
            floor: list[tuple[list[float], int]] | None = None
            floor_kinds: dict[str, dict[str, list[float]]] = {}
            floor_rounds: dict[str, list[list[float]]] = {}
            if not args.no_floor:
                ports = [free_port() for _ in range(PROCESSES)]
                servers = [serve(url, schema, Path(folder) / f"floor{i}", ports[i], args.server,
                                 "broadcast") for i in range(PROCESSES)]
                heard = Heard(listen_url, f"{schema}_floor").start_listening()
                try:
                    floor, floor_kinds, floor_rounds = asyncio.run(measure_floor(
                        ports, args.clients, args.tablets, args.tablet_seconds, heard, sizes))
                except Exception:
                    for i in range(PROCESSES):
                        print((Path(folder) / f"floor{i}" / "server.log").read_text()[-20000:])
                    raise
                finally:
                    heard.stop()
                stop_all(servers)
    finally:
        for server in servers:
            if server.poll() is None:
                server.kill()
        with admin.begin() as connection:
            connection.execute(sqlalchemy.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
    result: dict[str, Any] = {"server": args.server, "clients": args.clients,
                              "processes": PROCESSES, "lost": lost, "probe_bytes": sizes,
                              "p99_by_process_ms": by_process}
    served_by = {"level change": 0, "seating move": 1, "dealer action": 1}
    for phase, kinds in by_process.items():
        print(f"{phase}, each process's screens (p99): " + "; ".join(
            f"{name} " + ", ".join(f"process {i + 1}{' (its request)' if i == served_by[name] else ''}"
                                   f" {p99} ms" for i, p99 in enumerate(figures))
            for name, figures in kinds.items()))
    for phase, kinds in results.items():
        every = [delay for rounds in kinds.values() for delays in rounds for delay in delays]
        for name, rounds in kinds.items():
            delays = [delay for delays in rounds for delay in delays]
            if delays:
                firsts = ", ".join(f"{percentile(r, 0.99):.0f}" for r in rounds if r)
                print(f"{phase}, {name}: {len(rounds)} x {clients_of(rounds)} screens, "
                      f"p50 {percentile(delays, 0.5):.1f} ms, p99 {percentile(delays, 0.99):.1f} ms, "
                      f"max {max(delays):.1f} ms (p99 of each round: {firsts} ms)")
        p50 = percentile(every, 0.5) if every else None
        p99 = percentile(every, 0.99) if every else None
        key = {"loaded": "", "quiet": "quiet_", "publication": "publication_"}[phase]
        result[f"{key}p50_ms"] = None if p50 is None else round(p50, 1)
        result[f"{key}p99_ms"] = None if p99 is None else round(p99, 1)
        if p99 is not None:
            what = {"loaded": f"{args.tablets} tablets playing", "quiet": "the tablets stopped",
                    "publication": "the tablets stopped, from each change's NOTIFY"}[phase]
            print(f"{phase}: {args.clients} screens on {PROCESSES} processes, {what}: "
                  f"p50 {p50:.1f} ms, p99 {p99:.1f} ms; p99 against the {GOAL_P99_MS:.0f} ms "
                  f"goal: {p99 / GOAL_P99_MS:.2f}x")
    print(f"lost {lost} (screen, change) pairs")
    # The median of the rounds' p99: a round's three changes, every screen of each.
    typical = {phase: typical_p99([[d for delays in kinds.values() for d in delays[r]]
                                   for r in range(ROUNDS)])
               for phase, kinds in results.items()}
    floor_typical = {phase: typical_p99(rounds) for phase, rounds in floor_rounds.items()}
    result["typical_p99_ms"] = typical
    print("typical (the median of the rounds' p99): " + ", ".join(
        f"{phase} {figure} ms" for phase, figure in typical.items()))
    if floor is not None:
        for name, (delays, floor_lost) in zip(("quiet", "loaded", "publication"), floor,
                                              strict=True):
            if not delays:
                continue
            floor_p50, floor_p99 = percentile(delays, 0.5), percentile(delays, 0.99)
            key = {"quiet": "floor", "loaded": "floor_loaded",
                   "publication": "floor_publication"}[name]
            result.update({f"{key}_p50_ms": round(floor_p50, 1), f"{key}_p99_ms": round(floor_p99, 1)})
            if name != "publication":
                result[f"{key}_lost"] = floor_lost
            what = {"quiet": "no tablets publishing: the transport alone",
                    "loaded": f"{args.tablets} tablets each publishing every "
                              f"{args.tablet_seconds:g} s to its table's stream",
                    "publication": "no tablets publishing, from each probe's NOTIFY"}[name]
            print(f"floor, a bare starlette SSE broadcaster on {args.server} ({what}): "
                  f"p50 {floor_p50:.1f} ms, p99 {floor_p99:.1f} ms, lost {floor_lost}")
        if result.get("p99_ms") and result.get("floor_p99_ms"):
            result["ratio_p99"] = round(result["p99_ms"] / result["floor_p99_ms"], 2)
            print(f"the project's p99 with the tablets playing over the quiet floor's: "
                  f"{result['ratio_p99']}x (goal <= 1.5x)")
        if result.get("quiet_p99_ms") and result.get("floor_p99_ms"):
            result["ratio_quiet_p99"] = round(result["quiet_p99_ms"] / result["floor_p99_ms"], 2)
            print(f"quiet against quiet (no tablets on either): {result['ratio_quiet_p99']}x")
        if result.get("publication_p99_ms") and result.get("floor_publication_p99_ms"):
            result["ratio_publication_p99"] = round(
                result["publication_p99_ms"] / result["floor_publication_p99_ms"], 2)
            print("the fan-out alone, quiet, from the change's NOTIFY to the last screen: "
                  f"{result['ratio_publication_p99']}x")
        if result.get("p99_ms") and result.get("floor_loaded_p99_ms"):
            result["ratio_loaded_p99"] = round(result["p99_ms"] / result["floor_loaded_p99_ms"], 3)
            print(f"loaded against loaded (the tablets on both): {result['ratio_loaded_p99']}x")
        # The first round's changes are the first of their kind each process serves;
        # the rounds after it are those of a room that has played a while.
        ours = [d for rounds in results["loaded"].values() for delays in rounds[1:] for d in delays]
        theirs = [d for delays in floor_kinds.get("loaded_warm", {}).values() for d in delays]
        if ours and theirs:
            warm, floor_warm = percentile(ours, 0.99), percentile(theirs, 0.99)
            result.update({"loaded_warm_p99_ms": round(warm, 1),
                           "floor_loaded_warm_p99_ms": round(floor_warm, 1),
                           "ratio_loaded_warm_p99": round(warm / floor_warm, 3)})
            print(f"loaded against loaded, the rounds after the first (not the first change of "
                  f"its kind a process serves): p99 {warm:.1f} ms against {floor_warm:.1f} ms, "
                  f"{result['ratio_loaded_warm_p99']}x")
        result["floor_typical_p99_ms"] = floor_typical
        ratios = {"ratio_typical_p99": ("loaded", "quiet", "the tablets playing over the "
                                        "quiet floor's (goal <= 1.5x)"),
                  "ratio_typical_loaded_p99": ("loaded", "loaded", "loaded against loaded"),
                  "ratio_typical_quiet_p99": ("quiet", "quiet", "quiet against quiet"),
                  "ratio_typical_publication_p99": ("publication", "publication",
                                                    "the fan-out alone, from the NOTIFY")}
        for key, (ours_, theirs_, what) in ratios.items():
            if typical.get(ours_) and floor_typical.get(theirs_):
                result[key] = round(typical[ours_] / floor_typical[theirs_], 2)
                print(f"typical, {what}: {typical[ours_]} ms against the floor's "
                      f"{floor_typical[theirs_]} ms, {result[key]}x")
        # Each kind against the floor's probes of its size: which change is far from it.
        result["ratio_by_kind"] = {}
        for name in KINDS:
            said = []
            for phase in ("quiet", "loaded"):
                ours = [d for delays in results[phase][name] for d in delays]
                theirs = floor_kinds.get(phase, {}).get(name, [])
                if ours and theirs:
                    ratio = round(percentile(ours, 0.99) / percentile(theirs, 0.99), 2)
                    result["ratio_by_kind"].setdefault(name, {})[phase] = ratio
                    said.append(f"{phase} p99 {percentile(ours, 0.99):.1f} ms against the "
                                f"floor's {percentile(theirs, 0.99):.1f} ms ({ratio}x)")
            print(f"{name}: " + "; ".join(said))
        print(f"load average {os.getloadavg()[0]:.2f}")
    print(json.dumps(result))


def stop_all(servers: list[subprocess.Popen[bytes]]) -> None:
    for server in servers:
        server.terminate()
    for server in servers:
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()


if __name__ == "__main__":
    main()
