"""The log of every state change: who, what, when.

Every accepted write request (POST/PUT/PATCH/DELETE answered below 400) is
recorded by an ``after_request`` hook: the actor (``director``,
``dealer:table 3``, ``public``), the endpoint, the path, the answer's status
and the body with secrets removed.  Services may add their own lines with
``record(action, target, details=...)`` (logins, password changes, backups,
the scheduler's work with ``actor="system"``).

Each entry also goes to the ``director.audit`` logger as one JSON line.

The changes in the director's words: a service that changes the event records
``uow.log(sentence, tournament_id, **params)`` before its commit, naming one of
``SENTENCES``, and the dispatcher writes it after the commit (:func:`write_change`) ("Rebuy: Ann Berg, €200.00, 25,000 chips", "Table 3 broken: 7
players moved", "Level 5 started").  The line keeps its kind (money,
seating, clock, structure, house rules, dealer, event), the English msgid and
the parameters, and is put into words when it is read (``sentence``), in the
reader's language: a Swedish director reads Swedish lines written under
English.  Inside a request the change is written with the request's own line
(who, the endpoint, the path, the body), so a request that changed something
is one line; a request that changed nothing in those words (a dealer's tap,
a login) keeps its plain line, of the ``technical`` kind.  Outside a request
(the scheduler starting a level) the line is written at once, by ``system``.

Redaction: values under keys that look like secrets (password, PIN, token,
secret, csrf) are never stored; cards (``cards``, ``hole_cards``, ``hole``)
are stored only for a showdown endpoint (before it they would give away a
live hand).

A write request's lines are written before its answer, through the group
committer (``director.db.GroupCommit``: under load they share the commit of
the tablets' writes): a write that cannot be logged is not acknowledged.  If
the database refuses them (locked, gone), the answer is 503 with a sentence
saying the change was made but not yet logged, and the lines are kept by the
background writer, which writes them as soon as the database takes them.
The other lines (the scheduler's, a login's ``record``) are buffered and
written by one background thread per process in batches (one transaction
every half second at most); ``recent()`` writes the buffer first.
"""

from __future__ import annotations

import json
import logging
import queue
import re
import threading
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import Any

from flask import Flask, current_app, g, has_app_context, has_request_context, request
from flask_babel import ngettext
from sqlalchemy import String, cast
from werkzeug.exceptions import ServiceUnavailable
from werkzeug.wrappers import Response

from director.db import DriverInsert, db, group_commit, utcnow
from director.i18n import N_, gettext, money_filter, number_filter, seating_text, stakes_label
from director.models.audit import AuditEntry
from director.models.tournament import Tournament
from director.poker.house_flags import say as say_house_rule
from director.services import uow

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


COLUMNS = ("at", "actor", "action", "target", "status", "details",    # one entry's keys
           "kind", "message", "params")


# ---------------------------------------------------------------- the director's words

class Kind(StrEnum):
    """What a line of the log is about (the filter on the log page)."""

    MONEY = "money"
    SEATING = "seating"
    CLOCK = "clock"
    STRUCTURE = "structure"
    HOUSE_RULES = "house_rules"
    DEALER = "dealer"
    EVENT = "event"
    PLAYERS = "players"         # the room's player list and leagues, across events
    TECHNICAL = "technical"     # a request, a login, a backup: no sentence of its own


KIND_LABELS: dict[Kind, str] = {
    Kind.MONEY: N_("Money"), Kind.SEATING: N_("Seating"), Kind.CLOCK: N_("Clock"),
    Kind.STRUCTURE: N_("Structure"), Kind.HOUSE_RULES: N_("House rules"),
    Kind.DEALER: N_("Dealer tablets"), Kind.EVENT: N_("Event"), Kind.PLAYERS: N_("Player list"),
    Kind.TECHNICAL: N_("Technical (requests)"),
}

# Every change a director reads in the log: key -> (kind, msgid).  The parameters
# are plain values or the typed values :func:`_param` puts into words when read.
SENTENCES: dict[str, tuple[Kind, str]] = {
    "buy-in": (Kind.MONEY, N_("Buy-in: %(name)s, %(amount)s, %(chips)s chips")),
    "re-entry": (Kind.MONEY, N_("Re-entry: %(name)s, %(amount)s, %(chips)s chips")),
    "rebuy": (Kind.MONEY, N_("Rebuy: %(name)s, %(amount)s, %(chips)s chips")),
    "add-on": (Kind.MONEY, N_("Add-on: %(name)s, %(amount)s, %(chips)s chips")),
    # An entry of a bounty event: the buy-in and fee, and the bounty paid with them.
    "buy-in with bounty": (Kind.MONEY, N_("Buy-in: %(name)s, %(amount)s + %(bounty)s bounty, "
                                          "%(chips)s chips")),
    "re-entry with bounty": (Kind.MONEY, N_("Re-entry: %(name)s, %(amount)s + %(bounty)s "
                                            "bounty, %(chips)s chips")),
    "knockout": (Kind.SEATING, N_("%(by)s knocked out %(name)s")),
    "bounty paid": (Kind.MONEY, N_("%(by)s knocked out %(name)s: bounty %(paid)s paid to "
                                   "%(winner)s")),
    "pko bounty paid": (Kind.MONEY, N_("%(by)s knocked out %(name)s: bounty %(paid)s paid to "
                                       "%(winner)s, %(head)s onto %(winner)s's own bounty")),
    "own bounty": (Kind.MONEY, N_("%(name)s is still in at the end and collects his own bounty, "
                                  "%(amount)s")),
    "chip race": (Kind.SEATING, N_("Chip race: T%(removed)s coloured up to T%(new)s, "
                                   "%(players)s won a chip in the race")),
    "payment undone": (Kind.MONEY, N_("Payment undone: %(what)s of %(name)s, %(amount)s")),
    "prize paid": (Kind.MONEY, N_("Prize paid: %(name)s, place %(place)s, %(amount)s")),
    "deal saved": (Kind.MONEY, N_("Deal saved (%(method)s): %(players)s share %(amount)s")),
    "eliminated": (Kind.SEATING, N_("%(name)s eliminated in place %(place)s")),
    "elimination undone": (Kind.SEATING, N_("Elimination undone: %(name)s is back in play")),
    "seats drawn": (Kind.SEATING, N_("Seats drawn: %(players)s at %(tables)s")),
    "table broken": (Kind.SEATING, N_("Table %(table)s broken: %(players)s moved")),
    "tables balanced": (Kind.SEATING, N_("Tables balanced: %(players)s moved")),
    "redraw": (Kind.SEATING, N_("Redraw for seats: %(players)s at %(tables)s")),
    "final table": (Kind.SEATING, N_("Final table: table %(table)s broken, %(players)s redrawn "
                                     "for seats")),
    "seating undone": (Kind.SEATING, N_("Seating change undone: the seats are as before it")),
    "seat chosen": (Kind.SEATING, N_("Seat chosen by the director: %(name)s, table %(table)s "
                                     "seat %(seat)s (%(reason)s)")),
    "waiting list added": (Kind.SEATING, N_("Waiting list: %(name)s added as number "
                                            "%(position)s")),
    "waiting list removed": (Kind.SEATING, N_("Waiting list: %(name)s taken off the list")),
    "waiting list moved": (Kind.SEATING, N_("Waiting list: %(name)s moved to number "
                                            "%(position)s")),
    "seated from the waiting list": (Kind.SEATING, N_("Seated from the waiting list: "
                                                      "%(name)s")),
    "alternate seated": (Kind.SEATING, N_("Alternate: %(name)s takes the place of %(no_show)s, "
                                          "who did not show up (%(buy_in)s)")),
    "hand-for-hand announced": (Kind.SEATING, N_("Hand-for-hand announced")),
    "hand-for-hand started": (Kind.SEATING, N_("Hand-for-hand started")),
    "hand-for-hand stopped": (Kind.SEATING, N_("Hand-for-hand stopped")),
    "clock started": (Kind.CLOCK, N_("Clock started: %(level)s")),
    "clock paused": (Kind.CLOCK, N_("Clock paused: %(level)s, %(left)s left")),
    "clock resumed": (Kind.CLOCK, N_("Clock resumed: %(level)s, %(left)s left")),
    "level started": (Kind.CLOCK, N_("%(level)s started")),
    "level back": (Kind.CLOCK, N_("Back to %(level)s")),
    "time added": (Kind.CLOCK, N_("%(time)s added to %(level)s: %(left)s left")),
    "time removed": (Kind.CLOCK, N_("%(time)s taken off %(level)s: %(left)s left")),
    "structure saved": (Kind.STRUCTURE, N_("Structure saved: %(levels)s, %(breaks)s")),
    "structure imported": (Kind.STRUCTURE, N_("Structure imported: %(levels)s, %(breaks)s")),
    "house rule changed": (Kind.HOUSE_RULES, N_("House rules: %(flag)s: %(new)s (was %(old)s)")),
    "tablet paired": (Kind.DEALER, N_("Tablet paired with table %(table)s")),
    "tablets unpaired": (Kind.DEALER, N_("Tablets of table %(table)s unpaired: a new code is "
                                         "drawn")),
    "tablet pairing reset": (Kind.DEALER, N_("Pairing of table %(table)s reset after wrong "
                                             "codes: a new code is drawn")),
    "event created": (Kind.EVENT, N_("Event created: %(name)s")),
    "event finished": (Kind.EVENT, N_("Event finished: the clock is stopped")),
    "event reopened": (Kind.EVENT, N_("Event reopened")),
    "event cancelled": (Kind.EVENT, N_("Event cancelled")),
    "event archived": (Kind.EVENT, N_("Event archived: hidden from the list")),
    "event unarchived": (Kind.EVENT, N_("Event listed again")),
    "event duplicated": (Kind.EVENT, N_("Event created from %(source)s: %(name)s")),
    "event deleted": (Kind.EVENT, N_("Event deleted: %(name)s (kept in the backup %(backup)s)")),
    "player added": (Kind.PLAYERS, N_("Player added to the list: %(name)s")),
    "player changed": (Kind.PLAYERS, N_("Player record changed: %(name)s")),
    "players imported": (Kind.PLAYERS, N_("Player list imported: %(created)s new, %(updated)s "
                                          "updated")),
    "league saved": (Kind.PLAYERS, N_("League saved: %(name)s (%(formula)s)")),
}

# Counted words (their msgids are in the catalogue already): {"players": 7} -> "7 players".
_COUNTED = {
    "players": lambda n: ngettext("%(num)s player", "%(num)s players", n),
    "tables": lambda n: ngettext("%(num)s table", "%(num)s tables", n),
    "levels": lambda n: ngettext("%(num)d level", "%(num)d levels", n),
    "breaks": lambda n: ngettext("%(num)d break", "%(num)d breaks", n),
}


def money_param(amount: Any, currency: str) -> dict[str, str]:
    """An amount of money as a parameter: ``money_param("200", "EUR")`` ("€200.00" in en)."""
    return {"money": str(amount), "currency": currency}


def level_param(structure: Any, index: int) -> dict[str, int]:
    """Entry ``index`` of a structure as a parameter: "Level 5", or "Break 2" (levels and
    breaks are counted apart, as a director counts them)."""
    entries = structure.levels[: index + 1]
    if entries and entries[-1].is_break:
        return {"break": sum(1 for entry in entries if entry.is_break)}
    return {"level": sum(1 for entry in entries if not entry.is_break)}


def duration_text(seconds: int) -> str:
    """12:04, 1:05:00 (as the clock shows time)."""
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _param(value: Any) -> Any:
    """One parameter in the reader's words (see ``SENTENCES``)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return number_filter(value)
    if not isinstance(value, dict):
        return value
    if "money" in value:
        try:
            return money_filter(Decimal(str(value["money"])), value.get("currency") or None)
        except (InvalidOperation, ValueError):
            return str(value["money"])
    if "level" in value:
        return gettext("Level %(number)s", number=value["level"])
    if "break" in value:
        return gettext("Break %(number)s", number=value["break"]) if value["break"] \
            else gettext("Break")
    if "seconds" in value:
        return duration_text(value["seconds"])
    if "msgid" in value:
        return gettext(str(value["msgid"]))
    if "house_rule" in value:
        try:
            return say_house_rule(str(value["house_rule"]), value.get("value"), gettext)
        except (KeyError, ValueError):
            return str(value.get("value"))
    for word, counted in _COUNTED.items():
        if word in value and isinstance(value[word], int):
            return counted(value[word])
    return json.dumps(value, default=str)


class Said(str):
    """A log's sentence, said now in the reader's language, that keeps its English msgid
    and its parameters: a log stores it language-neutral (:meth:`stored`) and says it
    again in each reader's own language when read (:func:`said_again`), as the log of
    changes does.  It is a ``str``, so the callers that show it now are unchanged.

    The parameters are those :func:`_param` puts into words (a number, money, a counted
    word), a nested ``Said``, ``{"seating": <an engine sentence>}`` (``seating_text``),
    ``{"stakes": <a level's stakes>}`` (``stakes_label``), or plain text (a name), kept
    as it is.

    >>> Said("%(name)s eliminated in place %(place)s", name="Ann", place=5).stored()
    '{"said": "%(name)s eliminated in place %(place)s", "params": {"name": "Ann", "place": 5}}'
    """

    msgid: str
    params: dict[str, Any]
    _stored: str

    def __new__(cls, msgid: str, **params: Any) -> Said:
        said = super().__new__(cls, _say(msgid, params))
        said.msgid, said.params = msgid, params
        return said

    def to_json(self) -> dict[str, Any]:
        return {"said": self.msgid, "params": {name: _stored(value)
                                               for name, value in self.params.items()}}

    def stored(self) -> str:
        """The sentence as stored (its JSON), made once: a dealer's log line is stored
        and answered at once (``log_line`` and the write's rows both ask for it)."""
        text: str | None = self.__dict__.get("_stored")
        if text is None:
            text = self._stored = json.dumps(self.to_json(), ensure_ascii=False, default=str)
        return text


def _stored(value: Any) -> Any:
    if isinstance(value, Said):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_stored(item) for item in value]
    return value


def _say(msgid: str, params: dict[str, Any]) -> str:
    values = {}
    for name, value in params.items():
        if isinstance(value, list | tuple):       # several, joined: "Ann €25.00, Bo €25.00"
            value = ", ".join(_say("%(item)s", {"item": item}) for item in value)
        elif isinstance(value, dict) and "said" in value:
            value = _say(str(value["said"]), dict(value.get("params") or {}))
        elif isinstance(value, dict) and "seating" in value:
            value = seating_text(value["seating"])
        elif isinstance(value, dict) and "stakes" in value:   # a level's stakes, in words
            value = stakes_label(value["stakes"])
        values[name] = value if isinstance(value, Said) else _param(value)
    for template in (gettext(msgid), msgid):
        try:
            return template % values
        except (KeyError, TypeError, ValueError):
            continue
    return msgid


def said_again(text: str) -> str:
    """A stored log line in the reader's language: a :class:`Said` stored by
    :meth:`Said.stored` is said again; any other line (older, or plain) as it is."""
    if not text.startswith('{"said"'):
        return text
    try:
        data = json.loads(text)
        return _say(str(data["said"]), dict(data.get("params") or {}))
    except (ValueError, KeyError, TypeError):
        return text


def sentence(message: str | None, params: dict[str, Any] | None) -> str:
    """A logged change in the reader's language (``""`` for a line without one).

    A parameter missing from a translation never breaks the page: the English
    sentence is shown instead.
    """
    if not message:
        return ""
    values = {name: _param(value) for name, value in (params or {}).items()}
    for template in (gettext(message), message):
        try:
            return template % values
        except (KeyError, TypeError, ValueError):
            continue
    return message


def write_change(line: uow.LogLine, *, app: Flask | None = None) -> None:
    """Write a committed change's line: in a request it goes on the request's own
    line (written before the answer, only if the request succeeded); elsewhere it
    is written now, by ``system``."""
    kind, message = SENTENCES[line.key]
    entry = {"kind": kind.value, "message": message, "params": redact(line.params),
             "details": {"tournament_id": line.tournament_id, **(line.details or {})}}
    if has_request_context():
        g.setdefault("audit_changes", []).append(entry)
        return
    record(line.key, f"tournament {line.tournament_id}" if line.tournament_id else "", app=app,
           details=entry["details"], change=entry)


class AuditWriter:
    """One queue and one writer thread per app (started on demand, ends when idle)."""

    IDLE_SECONDS = 2.0
    BATCH_SECONDS = 0.5
    # After the first entry of a batch arrives, wait this long for the others, so
    # that a busy room costs one synced commit per window instead of one per
    # request (each commit holds SQLite's single writer; dealers' actions queue
    # behind it).  Well inside the half second the log promises.
    GATHER_SECONDS = 0.2
    TRIES_TOGETHER = 20     # refusals of a batch before its entries are tried one by one

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.queue: queue.Queue[dict[str, Any]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self._write = threading.Lock()
        self._closing = threading.Event()   # wakes the thread at once on ``close``
        self._insert: dict[str, DriverInsert] = {}
        self._unwritten: list[dict[str, Any]] = []   # refused by the database: next flush
        self._failures = 0

    def write_now(self, entries: list[dict[str, Any]]) -> None:
        """Write ``entries`` before returning (a write request's lines, in its own
        thread: the group committer joins them to the commits of other requests).
        Refused: they go to the background writer, which keeps trying; the error is
        raised for the request to say so."""
        try:
            self._write_rows(entries)
        except Exception:
            for entry in entries:
                self.put(entry)
            raise

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
        while (idle < self.IDLE_SECONDS or self._unwritten) and not self._closing.is_set():
            self._closing.wait(self.GATHER_SECONDS)
            idle = 0.0 if self.flush() else idle + self.GATHER_SECONDS

    def close(self) -> None:
        """Write what is buffered and wait for the thread (tests, shutdown)."""
        self.flush()
        thread = self._thread
        if thread is not None and thread.is_alive():
            self._closing.set()
            thread.join(timeout=2 * self.BATCH_SECONDS + 1)
            self._closing.clear()       # a later entry starts a new thread
        self.flush()

    def flush(self, taken: list[dict[str, Any]] | None = None) -> int:
        """Write what is buffered now (after ``taken``, already off the queue), in one
        transaction, in order; returns how many entries.

        A batch the database refuses (``database is locked`` while a backup reads the
        file, a connection lost) is kept, first in line, and written by the next
        flush: a line was lost under a backup once.  Only an entry the database
        refuses on its own (tried alone) is given up, to the ``director.audit``
        logger that already holds it."""
        with self._write:
            batch: list[dict[str, Any]] = self._unwritten + list(taken or [])
            self._unwritten = []
            while True:
                try:
                    batch.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            if not batch:
                return 0
            try:
                self._write_rows(batch)
            except Exception:  # noqa: BLE001 - the log must never break the app
                logger.warning("could not write %d audit entries now; they are kept for the "
                               "next try", len(batch), exc_info=True)
                self._unwritten = batch
                self._failures += 1
                if self._failures >= self.TRIES_TOGETHER:
                    self._give_up_bad_entries()
                return 0
            self._failures = 0
            return len(batch)

    def prepared(self, batch: list[dict[str, Any]]) -> tuple[str, list[tuple[Any, ...]]]:
        """The driver's INSERT of log lines and the rows of ``batch`` for it."""
        if not self._in_own_app():
            with self.app.app_context():
                return self.prepared(batch)
        engine = db.engine
        statement = self._insert.get(engine.dialect.name)
        if statement is None:
            statement = self._insert[engine.dialect.name] = DriverInsert(
                AuditEntry.__table__, engine.dialect, list(COLUMNS))
        return statement.sql, [statement.params(entry) for entry in batch]

    def _in_own_app(self) -> bool:
        """Whether this thread is in this writer's app already (a request of it): then
        no app context is pushed for it (pushing one cost a dealer's tap ~20 us)."""
        return has_app_context() and current_app._get_current_object() is self.app  # type: ignore[attr-defined]

    def _write_rows(self, batch: list[dict[str, Any]]) -> None:
        sql, rows = self.prepared(batch)
        with self.app.app_context():
            # one executemany, committed with whatever the tablets write meanwhile
            group_commit().submit(lambda cursor: cursor.executemany(sql, rows))

    def _give_up_bad_entries(self) -> None:
        """After ``TRIES_TOGETHER`` refusals in a row, write the kept entries one by one:
        those written are done, one refused on its own is given up (logged); if every
        one is refused (the database is still locked), all are kept."""
        refused, written = [], 0
        for entry in self._unwritten:
            try:
                self._write_rows([entry])
                written += 1
            except Exception:  # noqa: BLE001 - see flush
                refused.append(entry)
        if written:
            for entry in refused:
                logger.error("audit entry given up: %s", json.dumps(entry, default=str))
            refused = []
        self._unwritten, self._failures = refused, 0


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
           app: Flask | None = None, change: dict[str, Any] | None = None) -> None:
    """Add one line to the log (written within half a second); ``change``: its
    kind, msgid and parameters (see :func:`change`)."""
    writer(app).put(_entry(action, target, actor=actor, details=details, status=status,
                           change=change))


def _entry(action: str, target: str, *, actor: str | None = None,
           details: dict[str, Any] | None = None, status: int | None = None,
           change: dict[str, Any] | None = None) -> dict[str, Any]:
    """One line of the log, also given to the ``director.audit`` logger."""
    entry = {
        "at": utcnow(),
        "actor": (actor or _actor())[:40],
        "action": action[:120],
        "target": target[:300],
        "status": status,
        "details": redact(details or {}),
        "kind": (change or {}).get("kind"),
        "message": (change or {}).get("message"),
        "params": (change or {}).get("params"),
    }
    if logger.isEnabledFor(logging.INFO):
        logger.info(json.dumps({**entry, "at": entry["at"].isoformat()}, default=str))
    return entry


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
    if not request.is_json and request.files:     # a JSON body has no files (not parsed as a form)
        data = {**data, "files": [f.filename for f in request.files.values()]}
    result = redact(data, show_cards=show_cards)
    return result if isinstance(result, dict) else {"body": result}


NOT_LOGGED = N_("The change was made, but the log could not record it yet, so it is not "
                "confirmed: the log will be written as soon as the database allows. Check "
                "before doing it again.")


def after_request(response: Response) -> Response:
    """Record an accepted write request (the app's ``after_request`` hook): one line
    per change it made in the director's words (``change``), or its plain line,
    written before the answer; refused, the answer is 503 (``NOT_LOGGED``)."""
    changes = g.pop("audit_changes", None) or [None]
    if not _logged_request() or response.status_code >= 400:
        return response
    if g.pop("audit_line_joined", False):      # written with the request's own write
        changes = [made for made in changes if made is not None]
        if not changes:
            return response
    entries = _request_entries(response.status_code, changes)
    try:
        writer().write_now(entries)
    except Exception:  # noqa: BLE001 - whatever the database said: not acknowledged
        logger.warning("%s %s was not logged: answered 503, its lines are kept",
                       request.method, request.path, exc_info=True)
        return _not_logged()
    return response


def _logged_request() -> bool:
    """Whether this request gets a line: a write, but not a static file or a login."""
    return request.method in UNSAFE and request.endpoint not in (None, "static", "auth.login")


def _request_entries(status: int, changes: list[dict[str, Any] | None]) -> list[dict[str, Any]]:
    """The request's lines: one per change it made, or its plain line (``None``)."""
    try:
        body = _body()
        return [_entry(f"{request.method} {request.endpoint}", request.path,
                       details=body if made is None else {**body, **made["details"]},
                       status=status, change=made) for made in changes]
    except Exception:  # noqa: BLE001 - a body it cannot read: the line without it
        logger.exception("could not read the body of %s %s", request.method, request.path)
        return [_entry(f"{request.method} {request.endpoint}", request.path,
                       status=status, change=made) for made in changes]


def joined_line() -> Callable[[Any], None] | None:
    """This request's plain line, as :func:`after_request` would write it for an answer
    of 200, as ``work(cursor)`` for the request's own group-commit write (a dealer's
    tap): written in that write's transaction, so the change and its line are
    committed together and the tablet waits for one commit, not two.  Once that
    write is committed, :func:`line_joined` says so and :func:`after_request` writes
    no plain line (only the lines of changes made later in the request, if any).
    None outside a write request."""
    if not has_request_context() or not _logged_request():
        return None
    sql, rows = writer().prepared(_request_entries(200, [None]))
    return lambda cursor: cursor.executemany(sql, rows)


def line_joined() -> None:
    """The request's plain line was committed with its write (:func:`joined_line`)."""
    g.audit_line_joined = True


def _not_logged() -> Response:
    """503 with ``NOT_LOGGED``, drawn by the app's own error answer (JSON or a page)."""
    app = current_app._get_current_object()    # type: ignore[attr-defined]
    refused = ServiceUnavailable(description=gettext(NOT_LOGGED))
    answer = app.make_response(app.handle_user_exception(refused))
    answer.headers["Retry-After"] = "2"
    return answer


_PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]")
MAX_WORDS = 8           # words of the log's filter


def sentences_with(word: str) -> list[str]:
    """The msgids of the sentences that contain ``word`` in the reader's language: the log
    keeps the English msgid and translates it when read, so a Swedish director's
    "utslagen" finds "%(name)s eliminated in place %(place)s" (a parameter's word, a
    name, is found in the parameters themselves)."""
    wanted = word.casefold()
    return [message for _kind, message in SENTENCES.values()
            if wanted and wanted in _PLACEHOLDER.sub(" ", gettext(message)).casefold()]


def recent(limit: int = 200, actor: str | None = None, text: str | None = None,
           before_id: int | None = None, kind: str | None = None) -> list[Any]:
    """The newest entries first (after writing the buffer).

    ``kind``: one of ``Kind`` (``technical``: the lines without a sentence),
    ``"changes"`` for every line with one, None for all.  Each word of ``text`` is
    looked for in the action, the path, the sentence's parameters (a player's name)
    and the sentence's own words in the reader's language (:func:`sentences_with`).
    """
    writer().flush()
    query = db.select(AuditEntry).order_by(AuditEntry.at.desc(), AuditEntry.id.desc()).limit(limit)
    if actor:
        query = query.where(AuditEntry.actor.startswith(actor))
    if kind == Kind.TECHNICAL:
        query = query.where(AuditEntry.kind.is_(None) | (AuditEntry.kind == kind))
    elif kind == "changes":
        query = query.where(AuditEntry.kind.is_not(None) & (AuditEntry.kind != Kind.TECHNICAL))
    elif kind:
        query = query.where(AuditEntry.kind == kind)
    for word in (text or "").split()[:MAX_WORDS]:   # every word, each found somewhere
        like = f"%{word}%"
        query = query.where(AuditEntry.action.ilike(like) | AuditEntry.target.ilike(like)
                            | cast(AuditEntry.params, String).ilike(like)
                            | AuditEntry.message.in_(sentences_with(word)))
    if before_id:
        query = query.where(AuditEntry.id < before_id)
    return list(db.session.scalars(query))


def events_of(entries: list[Any]) -> dict[int, Any]:
    """The events the entries are about (``details.tournament_id``): id -> a row with its
    ``name`` and ``time_zone`` (a deleted event is not there)."""
    ids = {entry.details.get("tournament_id") for entry in entries
           if isinstance(entry.details, dict)}
    ids = {i for i in ids if isinstance(i, int) and not isinstance(i, bool)}
    if not ids:
        return {}
    rows = db.session.execute(db.select(Tournament.id, Tournament.name, Tournament.time_zone)
                              .where(Tournament.id.in_(ids)))
    return {row.id: row for row in rows}


def init_app(app: Flask, actor: Callable[[], str] | None = None) -> None:
    """The writer and the ``after_request`` hook; ``actor`` names who makes a request
    (the app factory passes ``director.security.actor``: the log asks the web layer
    without importing it)."""
    writer(app)
    if actor is not None:
        app.extensions[ACTOR] = actor
    app.after_request(after_request)
