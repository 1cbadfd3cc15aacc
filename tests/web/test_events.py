"""The live stream: an immediate ping, the full state first, the level change
pushed by the scheduler, a change made by another process noticed within a
second, and a 404 for an unknown tournament."""

from __future__ import annotations

import json
import queue
import threading
import time

import pytest

from director.db import db
from director.models import Tournament
from director.services.change_feed import Change
from director.services.events import TournamentEvents, events, table_of
from director.services.scheduler import start_scheduler
from tests.conftest import level


class Stream:
    """Reads a server-sent-event response in a thread; ``next_event`` waits with a timeout."""

    def __init__(self, response) -> None:
        self.response = response
        self.chunks: queue.Queue[bytes] = queue.Queue()
        self.buffer = b""
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for chunk in self.response.response:
                self.chunks.put(chunk)
        except Exception:  # closed by the test
            pass

    def next_block(self, timeout: float) -> bytes:
        deadline = time.monotonic() + timeout
        while b"\n\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no event within {timeout} s")
            try:
                self.buffer += self.chunks.get(timeout=left)
            except queue.Empty:
                continue
        block, _, self.buffer = self.buffer.partition(b"\n\n")
        return block

    def next_event(self, timeout: float = 5.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            block = self.next_block(max(0.01, deadline - time.monotonic()))
            lines = block.decode().splitlines()
            data = [line[5:].strip() for line in lines if line.startswith("data:")]
            if data:
                return json.loads("".join(data))

    def close(self) -> None:
        self.thread.join(timeout=2)
        self.response.close()


@pytest.fixture
def open_stream(app, client):
    streams: list[Stream] = []

    def open_(tournament_id: int) -> Stream:
        response = client.get(f"/clock/{tournament_id}/events", buffered=False)
        assert response.status_code == 200
        assert response.mimetype == "text/event-stream"
        stream = Stream(response)
        streams.append(stream)
        return stream

    yield open_
    events(app).close()  # ends every stream of this app
    for stream in streams:
        stream.close()


def test_stream_pings_at_once_then_sends_the_full_state(make_tournament, open_stream):
    tournament_id = make_tournament()
    stream = open_stream(tournament_id)
    first = stream.next_block(timeout=2)
    assert b": connected" in first  # a comment line: the immediate ping
    state = stream.next_event(timeout=2)
    assert state["tournament_id"] == tournament_id
    assert state["level"]["big_blind"] == 50 and "server_time" in state


def test_stream_sends_keepalive_pings(make_tournament, open_stream):
    stream = open_stream(make_tournament())
    stream.next_event(timeout=2)
    assert stream.next_block(timeout=2).strip() == b": ping"  # SSE_PING_SECONDS is 0.5 here


def test_a_client_receives_the_level_change(app, make_tournament, open_stream, client, auth):
    tournament_id = make_tournament(levels=[level(25, 50, seconds=1), level(50, 100, seconds=60)])
    start_scheduler(app)
    stream = open_stream(tournament_id)
    assert stream.next_event()["level_index"] == 0
    client.post(f"/api/tournaments/{tournament_id}/clock/start", headers=auth)
    started = stream.next_event()
    assert started["running"] is True and started["ends_at"]
    deadline = time.monotonic() + 5
    changed = stream.next_event(timeout=3)
    while changed["level_index"] == 0 and time.monotonic() < deadline:
        # A repeat of the running level-1 state (the watcher's, under load) may come first.
        assert changed["running"] is True
        changed = stream.next_event(timeout=max(0.01, deadline - time.monotonic()))
    assert changed["level_index"] == 1
    assert changed["level"]["small_blind"] == 50 and changed["level"]["big_blind"] == 100


def test_a_change_by_another_process_reaches_the_stream_within_a_second(
        app, make_app, make_tournament, open_stream, auth):
    tournament_id = make_tournament()
    stream = open_stream(tournament_id)
    assert stream.next_event()["running"] is False
    other = make_app()  # another process: its broker has no subscribers
    other.test_client().post(f"/api/tournaments/{tournament_id}/clock/start", headers=auth)
    changed_at = time.monotonic()
    state = stream.next_event(timeout=2)
    assert state["running"] is True
    assert time.monotonic() - changed_at < 1.0


def test_a_structure_edit_reaches_the_stream(app, make_tournament, open_stream):
    tournament_id = make_tournament()
    stream = open_stream(tournament_id)
    stream.next_event()
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        tournament.levels = [level(500, 1000), level(1000, 2000)]
        db.session.commit()
    assert stream.next_event(timeout=2)["level"]["big_blind"] == 1000


def test_stream_of_an_unknown_tournament_is_404(client):
    response = client.get("/clock/999/events")
    assert response.status_code == 404


def test_streams_beyond_the_limit_get_503(make_app, make_tournament):
    app = make_app(THREADS=18, SSE_RESERVED_THREADS=16)  # room for two streams
    client = app.test_client()
    tournament_id = client.post("/api/tournaments", json={"name": "x", "levels": [level()]},
                                headers={"Authorization": "Bearer test-director-token"}
                                ).get_json()["id"]
    open_ = [client.get(f"/clock/{tournament_id}/events", buffered=False) for _ in range(2)]
    try:
        refused = client.get(f"/clock/{tournament_id}/events", buffered=False)
        assert refused.status_code == 503
        assert refused.headers["Retry-After"]
    finally:
        events(app).close()
        for response in open_:
            response.close()


class Writes:
    """A stream server's inbox: each item it is handed is one write to its screens."""

    def __init__(self) -> None:
        self.items: list[bytes] = []

    def put(self, item: bytes) -> None:
        self.items.append(item)


def test_the_events_of_a_change_heard_together_from_another_process_go_out_in_one_write() -> None:
    """A late entry's seating figures and clock come from the other process in one batch
    of the feed: this process's screens get them in one write, in order; a table's hand
    event, for its tablet alone, still goes as an item of its own."""
    broker = TournamentEvents()
    broker.watch_seconds = 3600
    other, here = Writes(), Writes()
    subscriptions = [broker.subscribe(7, inbox=here), broker.subscribe(8, inbox=other)]
    seating = Change("seating", 7, None, "seating", {"tournament_id": 7, "players_left": 5}, "p2")
    clock = Change("seating", 7, 12, "clock", {"tournament_id": 7, "players_left": 5,
                                               "version": 12}, "p2")
    hand = Change("hands", 7, None, "dealer", {"table_id": 3, "hand_id": 1}, "p2")
    elsewhere = Change("clock", 8, 4, "clock", {"tournament_id": 8, "version": 4}, "p2")
    mine = Change("clock", 7, 13, "clock", {"tournament_id": 7, "version": 13}, broker.origin)
    broker.deliver([seating, clock, elsewhere, mine])
    assert here.items == [b'event: seating\ndata: {"tournament_id":7,"players_left":5}\n\n'
                          b'id: 12\nevent: clock\ndata: {"tournament_id":7,"players_left":5,'
                          b'"version":12}\n\n']          # its own change: not delivered back
    assert other.items == [b'id: 4\nevent: clock\ndata: {"tournament_id":8,"version":4}\n\n']
    broker.deliver([hand, clock])
    assert [table_of(item) for item in here.items[1:]] == [3, None]
    for subscription in subscriptions:
        broker.unsubscribe(subscription)
    broker.close()
