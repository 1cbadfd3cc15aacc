"""The servers the benchmarks compare (issue 28), and the floors they measure against.

Not a benchmark itself: ``live_server.py``, ``dealer_load.py`` and
``fanout_cluster.py`` start it in a subprocess::

    python benchmarks/servers.py SERVER APP PORT

SERVER: ``uvicorn`` (what ``director serve`` runs, its door included),
``hypercorn`` or ``granian``: the candidates, each on its own defaults but one
process and the project's limits where they have the setting.
APP:
* ``director``: the project's ASGI app (``director.asgi.build``), its settings from
  the ``DIRECTOR_*`` environment, as ``director serve`` builds it;
* ``insert``: a bare Flask app (the same a2wsgi mount and threads) whose one route
  inserts a row into a SQLite file (WAL, ``synchronous=FULL``, as the project's)
  and commits: the floor of a dealer's write;
* ``json``: the same bare Flask app answering JSON without a database: the
  stack's own limit;
* ``broadcast``: a bare SSE broadcaster in a few lines of starlette, across
  processes through PostgreSQL LISTEN/NOTIFY (``FLOOR_DATABASE_URL``,
  ``FLOOR_CHANNEL``): ``GET /events`` streams every message, ``POST /publish``
  sends its body to every stream of every process: the floor of the fan-out.
  A stream that names a table (``/events?table=7``) is also sent the messages
  published for it (``/publish?table=7``), which no other stream is: the
  project's table streams, in a few lines more.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import sys
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def director_app() -> Any:
    from director import asgi, create_app

    app = create_app()
    asgi.configure_door(app)
    return asgi.build(app)


def flask_floor(kind: str) -> Any:
    """``insert`` or ``json``: a bare Flask app on the project's a2wsgi mount."""
    from flask import Flask, jsonify, request

    from director.asgi import Pages

    app = Flask("floor")
    path = os.environ.get("FLOOR_SQLITE", "/tmp/floor.sqlite")
    local = threading.local()

    def connection() -> sqlite3.Connection:
        if getattr(local, "db", None) is None:
            local.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            local.db.execute("PRAGMA journal_mode=WAL")
            local.db.execute("PRAGMA synchronous=FULL")
            local.db.execute("PRAGMA busy_timeout=5000")
        return local.db  # type: ignore[no-any-return]

    with sqlite3.connect(path) as setup:
        setup.execute("CREATE TABLE IF NOT EXISTS writes (id INTEGER PRIMARY KEY, body TEXT)")

    @app.post("/write")
    def write() -> Any:
        body = request.get_json()
        if kind == "insert":
            db = connection()
            db.execute("BEGIN IMMEDIATE")
            cursor = db.execute("INSERT INTO writes (body) VALUES (?)", (str(body),))
            db.execute("COMMIT")
            return jsonify({"id": cursor.lastrowid, "accepted": True})
        return jsonify({"id": 0, "accepted": True, "echo": body})

    threads = int(os.environ.get("DIRECTOR_THREADS", "32"))
    return Pages(app, workers=threads)


def broadcast_floor() -> Any:
    """A bare SSE broadcaster: a queue per stream, PostgreSQL NOTIFY between processes."""
    import psycopg
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response, StreamingResponse
    from starlette.routing import Route

    url = os.environ["FLOOR_DATABASE_URL"]
    channel = os.environ.get("FLOOR_CHANNEL", "floor")
    queues: dict[asyncio.Queue[bytes], str] = {}    # each stream's table ("": none)
    sender: list[Any] = []

    async def listen() -> None:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            await conn.execute(f'LISTEN "{channel}"')
            async for note in conn.notifies():
                table, _, body = note.payload.partition(" ")
                data = f"event: message\ndata: {body}\n\n".encode()
                for queue, wanted in list(queues.items()):
                    if not table or table == wanted:
                        queue.put_nowait(data)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        sender.append(await psycopg.AsyncConnection.connect(url, autocommit=True))
        task = asyncio.create_task(listen())
        yield
        task.cancel()
        await sender[0].close()

    async def events(request: Request) -> StreamingResponse:
        queue: asyncio.Queue[bytes] = asyncio.Queue()
        queues[queue] = request.query_params.get("table", "")

        async def stream() -> AsyncIterator[bytes]:
            try:
                yield b"retry: 2000\n: connected\n\nevent: clock\ndata: {}\n\n"
                while True:
                    yield await queue.get()
            finally:
                queues.pop(queue, None)

        return StreamingResponse(stream(), media_type="text/event-stream")

    async def publish(request: Request) -> Response:
        body = (await request.body()).decode()
        table = request.query_params.get("table", "")
        await sender[0].execute("SELECT pg_notify(%s, %s)", (channel, f"{table} {body}"))
        return Response(b'{"sent":true}', media_type="application/json")

    return Starlette(routes=[Route("/events", events), Route("/publish", publish, methods=["POST"])],
                     lifespan=lifespan)


APPS = {"director": director_app, "insert": lambda: flask_floor("insert"),
        "json": lambda: flask_floor("json"), "broadcast": broadcast_floor}


def main() -> None:
    if len(sys.argv) != 4:   # ``make bench`` runs every file here: this one is not a benchmark
        print("usage: servers.py uvicorn|hypercorn|granian director|insert|json|broadcast PORT")
        return
    server, kind, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.environ["FLOOR_KIND"] = kind
    print(f"Director: {server} serving {kind} on 127.0.0.1:{port}", flush=True)
    if server == "uvicorn":
        import uvicorn

        from director import asgi

        settings: dict[str, Any] = {"access_log": False, "log_level": "warning", "lifespan": "on",
                                    "proxy_headers": False, "backlog": 4096}
        if kind == "director":
            from director import create_app

            app = create_app()
            settings.update(asgi.server_settings(app))
            target = asgi.build(app)
        else:
            from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

            class NoDelay(HttpToolsProtocol):   # each write sent at once, as the project's door does
                def connection_made(self, transport: Any) -> None:  # type: ignore[override]
                    asgi.no_delay(transport)
                    super().connection_made(transport)

            settings["http"] = NoDelay
            target = APPS[kind]()
        uvicorn.run(target, host="127.0.0.1", port=port, **settings)
    elif server == "hypercorn":
        from hypercorn.asyncio import serve
        from hypercorn.config import Config

        config = Config()
        config.bind = [f"127.0.0.1:{port}"]
        config.accesslog = None
        config.backlog = 4096
        config.keep_alive_timeout = 5
        asyncio.run(serve(APPS[kind](), config))  # type: ignore[arg-type]
    elif server == "granian":
        from granian import Granian
        from granian.constants import Interfaces

        Granian(f"servers:{kind}_target", address="127.0.0.1", port=port,
                interface=Interfaces.ASGI, workers=1, factory=True, log_access=False,
                backlog=4096).serve()
    else:
        raise SystemExit(f"unknown server {server}")


def director_target() -> Any:
    return director_app()


def insert_target() -> Any:
    return flask_floor("insert")


def json_target() -> Any:
    return flask_floor("json")


def broadcast_target() -> Any:
    return broadcast_floor()


if __name__ == "__main__":
    main()
