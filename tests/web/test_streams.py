"""Live screens without a thread each (issues 18 and 28): one ``director serve``
process holds 2,000 open event streams on its one port, and a clock change
reaches every one of them.  Also: the pages open their stream on their own
origin, and the stream's answers (404, its headers) are a stream's."""

from __future__ import annotations

import asyncio
import contextlib
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from director.streams import raise_open_files_limit
from tests.browser.conftest import Server, start_server, stop_server
from tests.conftest import TOKEN
from tests.web.test_workers import call

SCREENS = 2000


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[Server, int]]:
    running = start_server(tmp_path, DIRECTOR_TOKEN=TOKEN)
    assert "live screens on the same port" in running.log.read_text()
    yield running, int(running.url.rsplit(":", 1)[1])
    stop_server(running)


def api(server: Server, path: str, body: dict | None = None) -> dict:
    return call(int(server.url.rsplit(":", 1)[1]), path, body)


async def screen(port: int, tournament_id: int, ready: list[int]) -> float:
    """One screen: its first state, then the moment it heard that the clock runs."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /clock/{tournament_id}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    buffer = b""
    while b'"running":false' not in buffer:
        buffer += await reader.read(65536)
    ready.append(1)
    while b'"running":true' not in buffer:
        chunk = await reader.read(65536)
        assert chunk, "the stream was closed"
        buffer += chunk
    heard = time.monotonic()
    writer.close()
    return heard


async def many_screens(port: int, tournament_id: int, server: Server) -> list[float]:
    ready: list[int] = []
    tasks = []
    for _ in range(SCREENS):  # not all at once: the listen backlog
        tasks.append(asyncio.create_task(screen(port, tournament_id, ready)))
        if len(tasks) % 200 == 0:
            await asyncio.sleep(0.05)
    while len(ready) < SCREENS:
        assert not any(t.done() and t.exception() for t in tasks), [t.exception() for t in tasks if t.done()][:1]
        await asyncio.sleep(0.05)
    started = time.monotonic()
    await asyncio.to_thread(api, server, f"/api/tournaments/{tournament_id}/clock/start", {})
    heard = await asyncio.wait_for(asyncio.gather(*tasks), 30)
    return [moment - started for moment in heard]


@pytest.mark.slow
def test_one_process_holds_2000_streams_and_a_change_reaches_every_one(
        server: tuple[Server, int]) -> None:
    running, port = server
    raise_open_files_limit()                # this test process holds the 2,000 sockets too
    tournament_id = api(running, "/api/tournaments", {
        "name": "Festival", "levels": [{"game": "PO", "duration_seconds": 1200,
                                        "small_blind": 25, "big_blind": 50}]})["id"]
    # A loop of its own on a thread of its own: a browser test that ran earlier in
    # this test process leaves Playwright's event loop running on the main thread.
    with ThreadPoolExecutor(1) as thread:
        delays = sorted(thread.submit(asyncio.run, many_screens(port, tournament_id,
                                                                running)).result())
    assert len(delays) == SCREENS
    print(f"{SCREENS} streams: the change reached them all in {delays[-1] * 1000:.0f} ms "
          f"(median {delays[len(delays) // 2] * 1000:.0f} ms)")
    assert delays[-1] < 5.0


def test_the_pages_open_their_stream_on_their_own_origin(server: tuple[Server, int]) -> None:
    running, port = server
    tournament_id = api(running, "/api/tournaments", {"name": "x", "levels": [
        {"game": "PO", "duration_seconds": 600, "small_blind": 25, "big_blind": 50}]})["id"]
    with urllib.request.urlopen(f"{running.url}/clock/{tournament_id}", timeout=10) as page:
        html = page.read().decode()
        policy = page.headers["Content-Security-Policy"]
    assert f'data-events="/clock/{tournament_id}/events"' in html
    assert "connect-src 'self';" in policy
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/clock/{tournament_id}/events",
                                timeout=10) as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        assert stream.headers["Cache-Control"] == "no-cache, no-transform"
        assert stream.readline() == b"retry: 2000\n"
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/clock/{tournament_id + 99}/events",
                               timeout=10)
    assert refused.value.code == 404


async def read_until(reader: asyncio.StreamReader, marker: bytes, seconds: float) -> bytes:
    """What a stream sent until ``marker`` (or until ``seconds`` passed: all it sent)."""
    buffer = b""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            while marker not in buffer:
                chunk = await reader.read(65536)
                assert chunk, "the stream was closed"
                buffer += chunk
    return buffer


def seated_event(running: Server, name: str) -> int:
    """An event of four buy-ins, late registration open, its seats drawn: its id."""
    tid = api(running, "/api/tournaments", {"name": name, "levels": [
        {"game": "PO", "duration_seconds": 1200, "small_blind": 25, "big_blind": 50}]})["id"]
    api(running, f"/api/tournaments/{tid}/money/settings",
        {"buy_in": "100", "starting_stack": 5000, "late_registration_level": 6})
    for player in ("Ann", "Bo", "Cy", "Di"):
        api(running, f"/api/tournaments/{tid}/seating/players", {"name": player, "chips": 5000})
    api(running, f"/api/tournaments/{tid}/seating/draw", {})
    return int(tid)


def test_a_tables_hand_events_go_to_its_tablet_alone_and_the_clock_to_every_screen(
        server: tuple[Server, int]) -> None:
    """300 tablets make about 100 hand events a second: a stream is sent a table's
    hand events (``dealer``) only when it names that table (``?table=``, the tablet's
    page), so the clock, the seating chart and the other tablets are not written a
    byte per action.  The clock's events still reach them all."""
    running, port = server
    tid = seated_event(running, "Tables")
    table = api(running, f"/api/tournaments/{tid}/dealer/pairing")["tables"][0]["table_id"]

    async def run() -> tuple[dict[str, bytes], dict]:
        streams = {}
        for name, asked in (("clock", ""), ("tablet", f"?table={table}"),
                            ("other tablet", f"?table={table + 1000}")):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(f"GET /clock/{tid}/events{asked} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            await read_until(reader, b"event: clock", 10)
            streams[name] = (reader, writer)
        hand = await asyncio.to_thread(api, running, f"/api/tables/{table}/hands", {})
        await asyncio.to_thread(api, running, f"/api/tables/{table}/hand/actions", {
            "seat": hand["to_act"], "action": "fold", "version": hand["version"]})
        await asyncio.to_thread(api, running, f"/api/tournaments/{tid}/clock/start", {})
        heard = {name: await read_until(reader, b'"running":true', 10)
                 for name, (reader, _writer) in streams.items()}
        for _reader, writer in streams.values():
            writer.close()
        return heard, hand

    with ThreadPoolExecutor(1) as thread:
        heard, hand = thread.submit(asyncio.run, run()).result()
    dealt = f'"table_id":{table},"hand_id":{hand["hand_id"]}'.encode()
    assert heard["tablet"].count(b"event: dealer\n") == 2 and dealt in heard["tablet"]
    for name in ("clock", "other tablet"):
        assert b"event: dealer" not in heard[name], name
    for name, sent in heard.items():                # and the clock reached every screen
        assert b'"running":true' in sent, name


def test_a_stream_that_names_no_table_by_its_id_is_answered_400_naming_the_field(
        server: tuple[Server, int]) -> None:
    running, _port = server
    tid = api(running, "/api/tournaments", {"name": "x", "levels": [
        {"game": "PO", "duration_seconds": 600, "small_blind": 25, "big_blind": 50}]})["id"]
    for asked in ("table=seven", "table=-1", "table=" + "9" * 40, "table=%C3%A9"):
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{running.url}/clock/{tid}/events?{asked}", timeout=10)
        assert refused.value.code == 400, asked
        assert refused.value.read().decode().startswith("table: a table is named by its id"), asked


def test_a_screen_gets_the_first_event_after_a_quiet_spell_at_once_and_a_burst_in_one_write() -> None:
    """The inbox's window (``COALESCE_SECONDS``): the first event is written to the
    screens without waiting for the window; those that follow within it go together,
    at most one write a window."""
    from director.streams import COALESCE_SECONDS, _Inbox

    async def run() -> list[tuple[float, bytes]]:
        loop = asyncio.get_running_loop()
        writes: list[tuple[float, bytes]] = []
        inbox = _Inbox(loop, lambda items: writes.append((loop.time(), b"".join(items))))
        started = loop.time()
        inbox.put(b"level;")                      # a quiet clock: goes at once
        await asyncio.sleep(COALESCE_SECONDS / 4)
        assert [p for _, p in writes] == [b"level;"]      # before the window's end
        for item in (b"a;", b"b;", b"c;"):        # a burst within the window
            inbox.put(item)
            await asyncio.sleep(0.001)
        await asyncio.sleep(COALESCE_SECONDS * 2)
        await asyncio.sleep(COALESCE_SECONDS * 2)  # quiet again
        inbox.put(b"seat;")
        await asyncio.sleep(COALESCE_SECONDS / 4)
        return [(at - started, payload) for at, payload in writes]

    with ThreadPoolExecutor(1) as thread:       # a loop of its own (see above)
        writes = thread.submit(asyncio.run, run()).result()
    assert [p for _, p in writes] == [b"level;", b"a;b;c;", b"seat;"]
    # the burst waited for the end of the first write's window, not longer
    assert COALESCE_SECONDS * 0.9 <= writes[1][0] - writes[0][0] < COALESCE_SECONDS * 10
    assert writes[2][0] - writes[1][0] >= COALESCE_SECONDS * 3


def chunks(sent: bytes) -> list[bytes]:
    """The chunks of a chunked answer's body (``sent``: from its head on), each one write
    of the server's."""
    body = sent.split(b"\r\n\r\n", 1)[1]
    found = []
    while b"\r\n" in body:
        size_line, rest = body.split(b"\r\n", 1)
        size = int(size_line, 16)
        if size == 0 or len(rest) < size:
            break
        found.append(rest[:size])
        body = rest[size + 2:]
    return found


def test_a_late_entrys_seating_figures_and_clock_reach_a_screen_in_one_write(
        server: tuple[Server, int]) -> None:
    """A late entry changes the seating figures and the clock (players left, the prize
    pool): each screen gets both in one write, not a write for each, and the other
    processes both in one batch of the feed (``publishing._tell_screens`` reads both,
    then tells)."""
    running, port = server
    tid = seated_event(running, "Late")

    async def run() -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /clock/{tid}/events HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        sent = await read_until(reader, b"event: clock", 10)
        await asyncio.sleep(0.2)
        await asyncio.to_thread(api, running, f"/api/tournaments/{tid}/seating/players",
                                {"name": "Eve", "chips": 5000})
        sent += await read_until(reader, b'"players_left":5,', 10)
        sent += await read_until(reader, b"\r\n", 1)           # the end of its chunk
        writer.close()
        return sent

    with ThreadPoolExecutor(1) as thread:
        sent = thread.submit(asyncio.run, run()).result()
    assert b"transfer-encoding: chunked" in sent.split(b"\r\n\r\n", 1)[0].lower()
    told = [chunk for chunk in chunks(sent) if b"event: seating" in chunk]
    assert len(told) == 1, told
    assert b"event: clock" in told[0] and told[0].count(b'"players_left":5,') == 2, told[0]
