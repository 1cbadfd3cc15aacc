"""The Flask app on the served stack (``director.asgi.Pages``): what a client gets.

An answer made in memory comes back whole with the thread's end; a long answer
(a download streamed by the app) goes out part by part while the app still makes
the rest; an app that fails half-way through its answer neither hangs the request
nor sends a half answer as if it were whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from flask import Flask, Response, request

from director import asgi
from director.asgi import Pages, _Responder

PART = 64 * 1024


def app() -> Flask:
    flask = Flask(__name__)
    released = threading.Event()
    flask.config["released"] = released
    flask.config["gate"] = threading.Event()

    @flask.get("/small")
    def small() -> Any:
        return {"seat": 3, "action": "fold"}

    @flask.post("/echo")
    def echo() -> Any:
        return {"got": request.get_json()}

    @flask.get("/long")
    def long() -> Response:
        def parts() -> Iterator[bytes]:
            for n in range(20):
                if n * PART == 2 * _Responder.HAND_OVER:
                    # The client must have had the first parts before the app goes on.
                    flask.config["streamed"] = released.wait(10)
                yield bytes([n]) * PART
        return Response(parts(), mimetype="application/octet-stream")

    @flask.get("/held")
    def held() -> Response:
        def parts() -> Iterator[bytes]:
            flask.config["gate"].wait(10)       # the test lets the app go on
            for n in range(20):
                yield bytes([n]) * PART
        return Response(parts(), mimetype="application/octet-stream")

    @flask.get("/broken")
    def broken() -> Response:
        def parts() -> Iterator[bytes]:
            yield b"first part"
            raise RuntimeError("the disk went away")
        return Response(parts(), mimetype="text/plain")

    return flask


def run_apart(coroutine: Any) -> Any:
    """``asyncio.run`` on a thread of its own: the browser tests leave a loop running
    on this one."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def scope_of(method: str, path: str, body: bytes = b"") -> dict[str, Any]:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
            "root_path": "", "query_string": b"", "server": ("127.0.0.1", 5000),
            "client": ("127.0.0.1", 40000),
            "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode())]}


def client(sent: list[dict[str, Any]], body: bytes = b"",
           on_body: Any = None) -> tuple[Any, Any]:
    """uvicorn's ``receive`` (the whole ``body`` at once) and ``send`` (each message
    kept in ``sent``; ``on_body`` called at each part of the answer's body)."""
    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)
        if on_body is not None and message["type"] == "http.response.body":
            on_body()

    return receive, send


def call(flask: Flask, method: str, path: str, body: bytes = b"",
         on_body: Any = None) -> tuple[list[dict[str, Any]], BaseException | None]:
    """Run one request through ``Pages`` as uvicorn would: what was sent, and the error
    the request ended with (uvicorn closes the connection then)."""
    sent: list[dict[str, Any]] = []
    pages = Pages(flask, workers=2)
    scope = scope_of(method, path, body)

    async def run() -> BaseException | None:
        try:
            await asyncio.wait_for(pages(scope, *client(sent, body, on_body)), 20)
        except Exception as exc:  # noqa: BLE001 - the test looks at it
            return exc
        return None

    try:
        return sent, run_apart(run())
    finally:
        pages.executor.shutdown(wait=True)


def body_of(sent: list[dict[str, Any]]) -> bytes:
    return b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def test_an_answer_in_memory_arrives_whole_with_one_start_and_one_end() -> None:
    sent, error = call(app(), "GET", "/small")
    assert error is None
    assert [m["type"] for m in sent].count("http.response.start") == 1
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 200
    assert json.loads(body_of(sent)) == {"seat": 3, "action": "fold"}
    assert sent[-1]["type"] == "http.response.body" and not sent[-1].get("more_body")


def test_a_posted_body_reaches_the_app_and_its_answer_comes_back() -> None:
    sent, error = call(app(), "POST", "/echo", json.dumps({"seat": 2, "amount": 700}).encode())
    assert error is None
    assert sent[0]["status"] == 200
    assert json.loads(body_of(sent)) == {"got": {"seat": 2, "amount": 700}}


def test_a_long_answer_goes_out_part_by_part_while_the_app_makes_the_rest() -> None:
    flask = app()
    sent, error = call(flask, "GET", "/long", on_body=flask.config["released"].set)
    assert error is None
    assert flask.config["streamed"] is True, "the app waited for the client's first parts"
    assert body_of(sent) == b"".join(bytes([n]) * PART for n in range(20))
    assert [m["type"] for m in sent].count("http.response.start") == 1
    assert sent[-1]["type"] == "http.response.body" and not sent[-1].get("more_body")


def test_an_app_failing_half_way_ends_the_request_without_a_half_answer_sent_as_whole() -> None:
    sent, error = call(app(), "GET", "/broken")
    assert isinstance(error, RuntimeError)
    assert not any(m["type"] == "http.response.body" and not m.get("more_body") for m in sent)


def test_a_request_cancelled_while_its_long_answer_is_made_sends_nothing_and_leaves_no_task(
        ) -> None:
    """The server cancels a request (it is stopping) while the app is still making a
    long answer: the parts the app makes after that are dropped, not sent by a task
    that would then wait for more forever."""
    flask = app()
    sent: list[dict[str, Any]] = []

    async def run() -> list[asyncio.Task[Any]]:
        pages = Pages(flask, workers=2)
        request = asyncio.ensure_future(pages(scope_of("GET", "/held"), *client(sent)))
        await asyncio.sleep(0.2)                   # the app is making its answer
        request.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await request
        flask.config["gate"].set()                 # it goes on, and hands its parts over
        await asyncio.get_running_loop().run_in_executor(None, pages.executor.shutdown, True)
        await asyncio.sleep(0.1)                   # the loop runs what the thread handed over
        return [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]

    assert run_apart(run()) == []
    assert not [m for m in sent if m["type"] == "http.response.body"]


@pytest.mark.parametrize("path", ["/small", "/long"])
def test_many_requests_at_once_each_get_their_own_answer(path: str) -> None:
    flask = app()
    flask.config["released"].set()
    alone, _ = call(flask, "GET", path)

    async def many() -> list[bytes]:
        pages = Pages(flask, workers=4)
        try:
            async def one() -> bytes:
                sent: list[dict[str, Any]] = []
                await pages(scope_of("GET", path), *client(sent))
                return body_of(sent)
            return await asyncio.wait_for(asyncio.gather(*(one() for _ in range(12))), 30)
        finally:
            pages.executor.shutdown(wait=True)

    assert body_of(alone)
    assert run_apart(many()) == [body_of(alone)] * 12


def parts_then(parts: list[bytes], end: dict[str, Any] | None) -> Any:
    """uvicorn's ``receive`` for a body that comes in ``parts`` and then ``end`` (None:
    its last part ends it; a disconnect: the client went away)."""
    messages = [{"type": "http.request", "body": part, "more_body": True} for part in parts]
    messages.append(end or {"type": "http.request", "body": b"", "more_body": False})

    async def receive() -> dict[str, Any]:
        await asyncio.sleep(0.01)                      # each part on a later turn of the loop
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    return receive


def test_a_large_body_is_read_whole_before_a_thread_takes_it_and_a_body_cut_short_is_not_run(
        ) -> None:
    """A body larger than the first read (64 KB) is read on the loop too: a client
    sending it slowly holds no thread.  A client gone before its body was whole gets
    no answer and the app never sees half a body (half a form may well be a valid
    form)."""
    flask = app()
    seen: list[int] = []

    @flask.post("/size")
    def size() -> Any:
        seen.append(threading.get_ident())
        return {"bytes": len(request.get_data())}

    whole = json.dumps({"pad": "x" * 300_000}).encode()
    pieces = [whole[i:i + 50_000] for i in range(0, len(whole), 50_000)]

    async def run(end: dict[str, Any] | None, parts: list[bytes]) -> tuple[list[dict[str, Any]], int]:
        sent: list[dict[str, Any]] = []
        pages = Pages(flask, workers=2)
        try:
            _, send = client(sent)
            await asyncio.wait_for(pages(scope_of("POST", "/size", whole), parts_then(parts, end), send), 10)
            return sent, asgi._read_ahead.used
        finally:
            pages.executor.shutdown(wait=True)

    sent, used = run_apart(run(None, pieces))
    assert sent[0]["status"] == 200 and json.loads(body_of(sent)) == {"bytes": len(whole)}
    assert used == 0                                   # the budget given back
    sent, used = run_apart(run({"type": "http.disconnect"}, pieces[:3]))
    assert sent == [] and len(seen) == 1 and used == 0


def test_a_chunked_body_reaches_the_app_whole_and_one_larger_than_any_route_takes_is_413(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A body without a length (``Transfer-Encoding: chunked``) is read on the loop as
    well and handed to the app whole; werkzeug read none before (the app saw an empty
    body).  Past the largest body a route takes it is refused (413) unread further,
    the app never run."""
    monkeypatch.setattr(asgi.Door, "max_body", 2**17)
    flask = app()
    runs: list[int] = []

    @flask.post("/size")
    def size() -> Any:
        runs.append(1)
        return {"bytes": len(request.get_data()), "json": request.get_json(silent=True) is not None}

    def chunked_scope() -> dict[str, Any]:
        scope = scope_of("POST", "/size")
        scope["headers"] = [(b"host", b"x"), (b"content-type", b"application/json"),
                            (b"transfer-encoding", b"chunked")]
        return scope

    async def run(parts: list[bytes]) -> list[dict[str, Any]]:
        sent: list[dict[str, Any]] = []
        pages = Pages(flask, workers=2)
        try:
            _, send = client(sent)
            await asyncio.wait_for(pages(chunked_scope(), parts_then(parts, None), send), 10)
            return sent
        finally:
            pages.executor.shutdown(wait=True)

    whole = json.dumps({"pad": "x" * 80_000}).encode()
    sent = run_apart(run([whole[:30_000], whole[30_000:]]))
    assert sent[0]["status"] == 200 and json.loads(body_of(sent)) == {"bytes": len(whole), "json": True}
    sent = run_apart(run([b"x" * 60_000] * 3))
    assert sent[0]["status"] == 413 and b"larger than 128 kB" in body_of(sent)
    assert runs == [1] and asgi._read_ahead.used == 0
