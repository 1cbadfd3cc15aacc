"""The public screens: the list of clocks, the projector page and its live stream.

The stream (``/clock/<id>/events``) follows CTFd's events module: the DB
session is closed before streaming, a comment ping goes out at once and then
every ``SSE_PING_SECONDS``, and every event carries the full clock state with
absolute ``ends_at`` and ``server_time``, so a screen that reconnects recovers
everything from its first event.
"""

from __future__ import annotations

import queue
import urllib.parse
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, render_template, request, url_for

from director.db import db
from director.services import read_model
from director.services import tournaments as tournament_service
from director.services.events import (
    CLOSE,
    Subscription,
    TooManyStreams,
    TournamentEvents,
    encode,
    events,
)

bp = Blueprint("clock", __name__)


def table_asked(query: bytes) -> int | None | str:
    """The table a stream asks for (``?table=12``): its id, None when it names none,
    or what is wrong with it (the 400's sentence).

    >>> table_asked(b"table=12"), table_asked(b""), table_asked(b"table=x")
    (12, None, 'table: a table is named by its id, a whole number (not x)')
    """
    values = urllib.parse.parse_qs(query.decode("latin-1")).get("table")
    if not values:
        return None
    value = values[-1]
    if not value.isascii() or not value.isdigit() or len(value) > 18:
        shown = "".join(ch if ch.isprintable() else "?" for ch in value[:40])
        return f"table: a table is named by its id, a whole number (not {shown})"
    return int(value)


@bp.get("/")
def index() -> str:
    return render_template("clock/index.html", tournaments=tournament_service.list_events())


@bp.app_template_global()
def stream_url(tournament_id: int, table: int | None = None) -> str:
    """The URL a page opens its live stream at: on the page's own origin, where the
    server answers it without a thread (``director.streams``; ``stream`` below is the
    same stream through Flask, for its test client).  ``table``: a tablet's, which is
    also sent its table's hand events."""
    return url_for("clock.stream", tournament_id=tournament_id, table=table)  # None: left out


@bp.get("/clock/<int:tournament_id>")
def projector(tournament_id: int) -> str:
    state = read_model.clock_state(tournament_id)
    return render_template("clock/projector.html", state=state, tournament_id=tournament_id)


@bp.get("/clock/<int:tournament_id>/events")
def stream(tournament_id: int) -> Response:
    broker = events()
    table = table_asked(request.query_string)
    if isinstance(table, str):
        return Response(f"{table}\n", status=400, mimetype="text/plain")
    try:
        subscription = broker.subscribe(tournament_id, table=table)
    except TooManyStreams as exc:
        response = Response(f"{exc}\n", status=503, mimetype="text/plain")
        response.headers["Retry-After"] = "10"
        return response
    try:
        state = read_model.clock_state(tournament_id)  # 404 for an unknown id
    except Exception:
        broker.unsubscribe(subscription)
        raise
    broker.seen(tournament_id, state["version"])
    first = encode("clock", state, state["version"])
    db.session.remove()  # hold no connection while streaming
    ping = float(current_app.config["SSE_PING_SECONDS"])
    response = Response(_events(broker, subscription, first, ping), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache, no-transform"
    response.headers["X-Accel-Buffering"] = "no"
    # Also when the stream is closed before its first chunk (the generator's
    # ``finally`` only runs once it has started).
    response.call_on_close(lambda: broker.unsubscribe(subscription))
    return response


def _events(broker: TournamentEvents, subscription: Subscription, first: bytes,
            ping: float) -> Iterator[bytes]:
    """Runs after the view has returned, outside the app context: it touches no DB."""
    try:
        yield b"retry: 2000\n: connected\n\n"
        yield first
        while True:
            try:
                payload = subscription.queue.get(timeout=ping)
            except queue.Empty:
                yield b": ping\n\n"
                continue
            if payload == CLOSE:
                return
            yield payload
    finally:
        broker.unsubscribe(subscription)
