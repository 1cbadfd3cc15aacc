"""The log of every state change: who, what, when.

Every accepted write request (POST/PUT/PATCH/DELETE answered below 400) is
recorded by an ``after_request`` hook: the actor (``director``,
``dealer:table 3``, ``public``), the endpoint, the path, the answer's status
and the body with secrets removed.  Services may add their own lines with
``record(action, target, details=...)`` (logins, password changes, backups,
the scheduler's work with ``actor="system"``).

Each entry also goes to the ``director.audit`` logger as one JSON line.

Redaction: values under keys that look like secrets (password, PIN, token,
secret, csrf) are never stored; cards (``cards``, ``hole_cards``, ``hole``)
are stored only for a showdown endpoint (before it they would give away a
live hand).

Entries are buffered and written by one background thread per process in
batches (one transaction every half second at most), so the log never adds a
database commit to a dealer's action; ``recent()`` writes the buffer first.
On a ``kill -9`` the last half second of log lines may be lost, never the
state changes themselves (those are committed before their answer).
"""

from __future__ import annotations

import json
import logging
import queue
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, has_request_context, request
from werkzeug.wrappers import Response

from director.db import DriverInsert, db, group_commit, utcnow
from director.models.audit import AuditEntry

logger = logging.getLogger("director.audit")

SECRET_KEY = re.compile(r"pass|pin$|^pin|token|secret|csrf|confirm|code$|key$", re.IGNORECASE)
CARD_KEY = re.compile(r"^(hole_?cards?|cards|hole|hand_cards|down_cards)$", re.IGNORECASE)
KEEP_KEYS = frozenset({"idempotency_key"})
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
MAX_TEXT = 200
MAX_ITEMS = 30
HIDDEN = "(hidden)"
ACTOR = "director.audit.actor"   # app.extensions key: who is acting in a request


def redact(value: Any, *, show_cards: bool = False, depth: int = 0) -> Any:
    """``value`` with secrets and (unless ``show_cards``) cards removed, and cut to size.

    >>> redact({"password": "x", "seat": 3, "cards": ["As", "Kd"], "note": "ok"})
    {'password': '(hidden)', 'seat': 3, 'cards': '(hidden)', 'note': 'ok'}
    """
    if depth > 4:
        return "…"
    if isinstance(value, dict):
        result: dict[str, Any] = {}
        for index, (key, item) in enumerate(value.items()):
            if index >= MAX_ITEMS:
                result["…"] = f"{len(value) - MAX_ITEMS} more"
                break
            name = str(key)[:60]
            if name not in KEEP_KEYS and (SECRET_KEY.search(name)
                                          or (CARD_KEY.match(name) and not show_cards)):
                result[name] = HIDDEN
            else:
                result[name] = redact(item, show_cards=show_cards, depth=depth + 1)
        return result
    if isinstance(value, list | tuple):
        items = [redact(item, show_cards=show_cards, depth=depth + 1) for item in value[:MAX_ITEMS]]
        return items + (["…"] if len(value) > MAX_ITEMS else [])
    if isinstance(value, str):
        return value if len(value) <= MAX_TEXT else value[:MAX_TEXT] + "…"
    if value is None or isinstance(value, bool | int | float):
        return value
    return str(value)[:MAX_TEXT]


COLUMNS = ("at", "actor", "action", "target", "status", "details")   # one entry's keys


class AuditWriter:
    """One queue and one writer thread per app (started on demand, ends when idle)."""

    IDLE_SECONDS = 2.0
    BATCH_SECONDS = 0.5
    # After the first entry of a batch arrives, wait this long for the others, so
    # that a busy room costs one synced commit per window instead of one per
    # request (each commit holds SQLite's single writer; dealers' actions queue
    # behind it).  Well inside the half second the log promises.
    GATHER_SECONDS = 0.2

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.queue: queue.Queue[dict[str, Any]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self._write = threading.Lock()
        self._insert: dict[str, DriverInsert] = {}

    def put(self, entry: dict[str, Any]) -> None:
        self.queue.put(entry)
        with self._start:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="audit-writer",
                                                daemon=True)
                self._thread.start()

    def _run(self) -> None:
        """Every GATHER_SECONDS write whatever has queued up, in one transaction;
        stop after IDLE_SECONDS without entries.  Entries stay in the queue until
        written, so a reader that flushes first (``recent``) sees them in order."""
        idle = 0.0
        while idle < self.IDLE_SECONDS:
            time.sleep(self.GATHER_SECONDS)
            idle = 0.0 if self.flush() else idle + self.GATHER_SECONDS

    def close(self) -> None:
        """Write what is buffered and wait for the thread (tests, shutdown)."""
        self.flush()
        thread = self._thread
        if thread is not None and thread.is_alive():
            self.IDLE_SECONDS = 0.0
            thread.join(timeout=2 * self.BATCH_SECONDS + 1)
        self.flush()

    def flush(self, taken: list[dict[str, Any]] | None = None) -> int:
        """Write what is buffered now (after ``taken``, already off the queue), in one
        transaction, in order; returns how many entries."""
        with self._write:
            batch: list[dict[str, Any]] = list(taken or [])
            while True:
                try:
                    batch.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            if not batch:
                return 0
            try:
                with self.app.app_context():
                    engine = db.engine
                    statement = self._insert.get(engine.dialect.name)
                    if statement is None:
                        statement = self._insert[engine.dialect.name] = DriverInsert(
                            AuditEntry.__table__, engine.dialect, list(COLUMNS))
                    rows = [statement.params(entry) for entry in batch]
                    # one executemany, committed with whatever the tablets write meanwhile
                    group_commit().submit(lambda cursor: cursor.executemany(statement.sql, rows))
            except Exception:  # noqa: BLE001 - the log must never break the app
                logger.exception("could not write %d audit entries", len(batch))
                return 0
            return len(batch)


def writer(app: Flask | None = None) -> AuditWriter:
    app = app or current_app
    found = app.extensions.get("director.audit")
    if found is None:
        found = app.extensions["director.audit"] = AuditWriter(app)
    return found  # type: ignore[no-any-return]


def _actor() -> str:
    """Who makes this request, as the web layer told ``init_app`` to ask (``security.actor``)."""
    if not has_request_context():
        return "system"
    actor: Callable[[], str] | None = current_app.extensions.get(ACTOR)
    if actor is None:
        return "unknown"
    try:
        return actor()
    except Exception:  # noqa: BLE001 - e.g. the DB is gone during a dealer-token lookup
        return "unknown"


def record(action: str, target: str, *, actor: str | None = None,
           details: dict[str, Any] | None = None, status: int | None = None,
           app: Flask | None = None) -> None:
    """Add one line to the log (written within half a second)."""
    entry = {
        "at": utcnow(),
        "actor": (actor or _actor())[:40],
        "action": action[:120],
        "target": target[:300],
        "status": status,
        "details": redact(details or {}),
    }
    if logger.isEnabledFor(logging.INFO):
        logger.info(json.dumps({**entry, "at": entry["at"].isoformat()}, default=str))
    writer(app).put(entry)


def _body() -> dict[str, Any]:
    show_cards = "showdown" in (request.endpoint or "") or "showdown" in request.path
    data: Any = request.get_json(silent=True) if request.is_json else None
    if data is None and request.form:
        data = {key: (values if len(values) > 1 else values[0])
                for key, values in request.form.lists()}
    if data is None:
        return {}
    if not isinstance(data, dict):
        data = {"body": data}
    if request.files:
        data = {**data, "files": [f.filename for f in request.files.values()]}
    result = redact(data, show_cards=show_cards)
    return result if isinstance(result, dict) else {"body": result}


def after_request(response: Response) -> Response:
    """Record an accepted write request (the app's ``after_request`` hook)."""
    if request.method not in UNSAFE or response.status_code >= 400 \
            or request.endpoint in (None, "static", "auth.login"):
        return response
    try:
        record(f"{request.method} {request.endpoint}", request.path,
               details=_body(), status=response.status_code)
    except Exception:  # noqa: BLE001 - the log must never break an answer
        logger.exception("could not record %s %s", request.method, request.path)
    return response


def recent(limit: int = 200, actor: str | None = None, text: str | None = None,
           before_id: int | None = None) -> list[Any]:
    """The newest entries first (after writing the buffer)."""
    writer().flush()
    query = db.select(AuditEntry).order_by(AuditEntry.at.desc(), AuditEntry.id.desc()).limit(limit)
    if actor:
        query = query.where(AuditEntry.actor.startswith(actor))
    if text:
        like = f"%{text}%"
        query = query.where(AuditEntry.action.ilike(like) | AuditEntry.target.ilike(like))
    if before_id:
        query = query.where(AuditEntry.id < before_id)
    return list(db.session.scalars(query))


def init_app(app: Flask, actor: Callable[[], str] | None = None) -> None:
    """The writer and the ``after_request`` hook; ``actor`` names who makes a request
    (the app factory passes ``director.security.actor``: the log asks the web layer
    without importing it)."""
    writer(app)
    if actor is not None:
        app.extensions[ACTOR] = actor
    app.after_request(after_request)
