"""What this process remembers of the tables' hands: the tablets' read model.

Every tablet of a table shows the same hand, so what they show is computed once
per change, not once per tablet request:

* the engine hand of a row at a version (``cached_hand``: the replay of its live
  events, kept by ``(app, hand id, version)``);
* the hand's last log lines at a version (``known_log``), kept by the write that
  made that version;
* the table's latest row (``known_hand``): a write whose version matches reads
  nothing;
* the tablet's state (``tablet_state``: the hand JSON of a version in one
  language, less the shot clock, whose seconds are read at each request), kept by
  ``(app, table, hand id, version, language)``: the write's own answer is kept
  for its language, and the first GET of another language computes it once.

A version is immutable (every change to a hand moves its version), so what is
kept under a version stays true; what changes without a new version (a log line
only, ``writes.log_now``) is forgotten by the unit of work after its commit
(``uow.after_commit(forget_hand_log)``) and, in the other server processes, by
the change feed's "hands" changes (``forget_log``, installed by ``create_app``).
A deleted event's ids may be given again: ``forget_cached_hands``.

Nothing here writes to the database.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from director.db import db
from director.models.hands import DealerHand, HandEvent
from director.poker.events import event_from_json
from director.poker.state import Hand, HandConfig
from director.services import app_key

CACHE_SIZE = 512

# (app, hand id, version) -> the engine hand
_cache: OrderedDict[tuple[str, int, int], Hand] = OrderedDict()
_cache_lock = threading.Lock()


def cached_hand(row: AnyRow) -> Hand:
    """The engine hand of ``row`` at its version: the replay of its live events."""
    key = (app_key(), row.id, row.version)
    with _cache_lock:
        hand = _cache.get(key)
        if hand is not None:
            _cache.move_to_end(key)
            return hand
    events = db.session.scalars(select(HandEvent.event).where(
        HandEvent.hand_id == row.id, HandEvent.undone.is_(False)).order_by(HandEvent.seq)).all()
    hand = Hand.replay(HandConfig.from_json(row.config), [event_from_json(e) for e in events])
    remember(row.id, row.version, hand)
    return hand


def remember(hand_id: int, version: int, hand: Hand,
              log: list[dict[str, Any]] | None = None) -> None:
    with _cache_lock:
        key = (app_key(), hand_id, version)
        _cache[key] = hand
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
        if log is not None:
            _logs[key] = log
            while len(_logs) > CACHE_SIZE:
                _logs.popitem(last=False)


@dataclass(frozen=True)
class HandRow:
    """A ``DealerHand`` row as committed, detached from the session: what a write's
    fast path and ``hand_json`` read.  Every change to a hand bumps its version, so
    a copy taken at version v is the hand for as long as the row is at v; the
    conditional UPDATE of the write (``WHERE version = v``) proves that it still is."""

    id: int
    tournament_id: int
    table_id: int
    table_number: int
    number: int
    game: str
    config: dict[str, Any]
    players: list[dict[str, Any]]
    level: dict[str, Any]
    positions: dict[str, Any]
    status: str
    version: int
    last_seq: int
    clock_call: dict[str, Any] | None

    @classmethod
    def of(cls, row: DealerHand) -> HandRow:
        return cls(id=row.id, tournament_id=row.tournament_id, table_id=row.table_id,
                   table_number=row.table_number, number=row.number, game=row.game,
                   config=row.config, players=row.players, level=row.level,
                   positions=row.positions or {}, status=row.status, version=row.version,
                   last_seq=row.last_seq, clock_call=row.clock_call)


AnyRow = DealerHand | HandRow


# The latest hand of each table as this process last committed or read it.
_latest: dict[tuple[str, int], HandRow] = {}


def known_hand(table_id: int, version: int | None) -> HandRow | None:
    """The table's hand being played at ``version``, when this process knows it."""
    known = _latest.get((app_key(), table_id))
    if known is None or version is None or known.version != version or known.status != "playing":
        return None
    return known


def keep_latest(row: HandRow) -> None:
    with _cache_lock:
        if len(_latest) > CACHE_SIZE:
            _latest.clear()
        _latest[(app_key(), row.table_id)] = row


def forget_latest(table_id: int) -> None:
    """Drop what this process remembers of the table's latest hand (a change the fast path
    does not write, e.g. its ``positions``, was committed): the next write reads it."""
    with _cache_lock:
        _latest.pop((app_key(), table_id), None)


def forget_cached_hands() -> None:
    """Drop this app's cached hands: a deleted event's hand and table ids may be
    given again to new rows (``tournaments.delete_event``); they reload from the DB."""
    key = app_key()
    with _cache_lock:
        for store in (_cache, _logs, _latest, _states):
            for known in [k for k in store if k[0] == key]:
                del store[known]


def forget_all_hands() -> None:
    """Drop what every app of this process keeps (a test that reads the hands from the
    database, as a restarted server would)."""
    with _cache_lock:
        for store in (_cache, _logs, _latest, _states):
            store.clear()


_logs: OrderedDict[tuple[str, int, int], list[dict[str, Any]]] = OrderedDict()


def known_log(hand_id: int, version: int) -> list[dict[str, Any]] | None:
    """The hand's last log lines at ``version``, when a write of this process kept them."""
    with _cache_lock:
        return _logs.get((app_key(), hand_id, version))


def forget_hand_log(hand_id: int) -> None:
    """A log line was written with no new version: the lines and the tablet states kept
    for the hand are stale."""
    with _cache_lock:
        for store in (_logs, _states):
            for key in [k for k in store if k[1] == hand_id]:
                del store[key]


def forget_log(change: Any) -> None:
    """Another process wrote a log line with no change to the hand (the change feed's
    "hands" change with ``log``)."""
    if change.data and change.data.get("log"):
        forget_hand_log(int(change.data["hand_id"]))


# (app, hand id, version, language) -> the tablet's state, less its shot clock
_states: OrderedDict[tuple[str, int, int, str], dict[str, Any]] = OrderedDict()
STATES_COUNTED = {"computed": 0, "kept": 0}     # how often a GET computed / found it


def tablet_state(hand_id: int, version: int, language: str) -> dict[str, Any] | None:
    """The tablets' state of the hand at ``version`` in ``language``, when computed."""
    with _cache_lock:
        state = _states.get((app_key(), hand_id, version, language))
        if state is not None:
            STATES_COUNTED["kept"] += 1
        return state


def keep_tablet_state(hand_id: int, version: int, language: str, state: dict[str, Any]) -> None:
    with _cache_lock:
        _states[(app_key(), hand_id, version, language)] = state
        while len(_states) > CACHE_SIZE:
            _states.popitem(last=False)


def replay_together(rows: list[DealerHand]) -> None:
    """Put the engine hands of ``rows`` in the cache, reading the events of those not
    there yet in one query."""
    with _cache_lock:
        missing = {row.id: row for row in rows if (app_key(), row.id, row.version) not in _cache}
    if not missing:
        return
    events: dict[int, list[Any]] = {hand_id: [] for hand_id in missing}
    for hand_id, event in db.session.execute(select(HandEvent.hand_id, HandEvent.event).where(
            HandEvent.hand_id.in_(list(missing)), HandEvent.undone.is_(False))
            .order_by(HandEvent.hand_id, HandEvent.seq)):
        events[hand_id].append(event)
    for hand_id, row in missing.items():
        hand = Hand.replay(HandConfig.from_json(row.config),
                           [event_from_json(e) for e in events[hand_id]])
        remember(row.id, row.version, hand)
