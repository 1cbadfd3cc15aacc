"""How a change of a hand is written.

The tablets' taps go straight through the driver (``write_known``, ``write_new_hand``):
the conditional version bump, the events with the answer kept for a retry of the
idempotency key, the log lines, grouped with the other tablets' writes into one
commit (``db.group_commit``: one sync for a burst of writes).  The write that finishes
a hand runs the same statements in the session's transaction instead
(``write_finish``), so that the eliminations join it (``finish.finish_hand``).  The
ORM path (``bump``: the same optimistic lock) serves undo, notes and corrections.
What a change means beyond its rows is recorded on the unit of work (``uow``) and
told after the commit: the tablets (``tell_tablets``), the seating screens
(``chips_moved``), a log line's forgetting (``log_now``)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select, union_all, update
from sqlalchemy.orm.attributes import set_committed_value

from director.db import DriverInsert, db, driver_sql, group_commit
from director.faults import crash_point
from director.i18n import gettext as _
from director.models.hands import DealerHand, HandEvent, HandLogEntry, HandRequest
from director.models.seating import Seat
from director.poker.events import Event, event_to_json
from director.poker.state import Hand
from director.services import Invalid, NotFound, audit, uow
from director.services.dealer.answers import Answer, Conflict
from director.services.dealer.log import stored_text
from director.services.dealer.memory import (
    AnyRow,
    HandRow,
    forget_hand_log,
    keep_latest,
)
from director.services.dealer.rows import latest_hand, table_tournament
from director.services.dealer.tablet import hand_json
from director.services.once import request_digest


def stored_answer(key: str | None, table_id: int) -> Answer | None:
    """The answer a write with this idempotency key got (one query over both tables).
    The key of another table, or kept with another request than this one (a tablet
    reusing its key for another tap), is refused naming ``idempotency_key``: answered
    as the first, the other tap would be lost unseen."""
    if key is None:
        return None
    events = select(HandEvent.response.label("response"), HandEvent.digest.label("digest"),
                    DealerHand.table_id.label("table_id")) \
        .join(DealerHand, DealerHand.id == HandEvent.hand_id).where(HandEvent.idempotency_key == key)
    others = select(HandRequest.response.label("response"), HandRequest.digest.label("digest"),
                    DealerHand.table_id.label("table_id")) \
        .join(DealerHand, DealerHand.id == HandRequest.hand_id).where(HandRequest.idempotency_key == key)
    stored: Any = db.session.execute(union_all(events, others)).first()
    if stored is None:
        return None
    response, digest, owner = stored
    if owner != table_id:
        raise Invalid({"idempotency_key": _("This idempotency_key was used at another table")})
    asked = request_digest()
    if digest is not None and asked is not None and digest != asked:
        raise Invalid({"idempotency_key": _(
            "This tap's key was sent before with another tap: nothing was done, tap again")})
    if response is None:
        return None
    return Answer(json.loads(response), text=response)


def open_hand(table_id: int, version: int | None) -> DealerHand:
    row = latest_hand(table_id)
    if row is None:
        table_tournament(table_id)          # 404 for an unknown table
        raise NotFound(_("No hand has been dealt at this table yet"))
    if version is not None and version != row.version:
        raise Conflict(hand_json(row), _("The hand changed on another screen: here it is as it stands"))
    return row


def bump(row: DealerHand, events: int = 0) -> int:
    """The optimistic lock: exactly one writer moves the hand from its version.
    Reserves ``events`` sequence numbers; returns the first one."""
    result = db.session.execute(update(DealerHand).where(
        DealerHand.id == row.id, DealerHand.version == row.version)
        .values(version=row.version + 1, last_seq=DealerHand.last_seq + events)
        .returning(DealerHand.last_seq).execution_options(synchronize_session=False)).first()
    if result is None:
        db.session.rollback()
        raise Lost()
    set_committed_value(row, "version", row.version + 1)
    set_committed_value(row, "last_seq", int(result[0]))
    return int(result[0]) - events + 1


class Lost(Exception):
    """Another writer moved the hand first."""


def lost_race(key: str | None, table_id: int, row: AnyRow) -> Answer:
    """Another write got there first: a retry of an applied request gets its stored
    answer; anything else is a 409 carrying the hand as it stands."""
    stored = stored_answer(key, table_id)
    if stored is not None:
        return stored
    raise Conflict(hand_json(latest_hand(table_id) or row),
                   _("The hand changed on another screen: here it is as it stands"))


class _FastSQL:
    """The fast path's statements in the driver's own parameter style."""

    def __init__(self, dialect: Any) -> None:
        self.bump = driver_sql(dialect, "UPDATE dealer_hand SET version = ?, last_seq = last_seq + ? "
                                        "WHERE id = ? AND version = ? RETURNING last_seq")
        self.event = DriverInsert(HandEvent.__table__, dialect, [
            "hand_id", "seq", "event", "idempotency_key", "response", "digest", "undone", "created_at"])
        self.request = DriverInsert(HandRequest.__table__, dialect, [
            "idempotency_key", "hand_id", "response", "digest", "created_at"])
        self.log = DriverInsert(HandLogEntry.__table__, dialect, ["hand_id", "at", "who", "text"])
        hands = DealerHand.__table__
        applied, self.applied = DriverInsert.value(hands, dialect, "chips_applied")
        self.finished_at = DriverInsert.value(hands, dialect, "finished_at")[1]
        self.bump_finish = driver_sql(dialect, (
            "UPDATE dealer_hand SET version = ?, last_seq = last_seq + ?, status = ?, finished_at = ?, "
            f"clock_call = NULL, chips_applied = {applied} WHERE id = ? AND version = ? RETURNING last_seq"))
        self.chips = driver_sql(dialect, "UPDATE player SET chips = CASE WHEN chips + ? < 0 THEN 0 "
                                         "ELSE chips + ? END WHERE id = ?")
        self.mark = driver_sql(dialect, "?")
        self.hand = DriverInsert(hands, dialect, [
            "tournament_id", "table_id", "table_number", "number", "game", "config", "players", "level",
            "positions", "status", "version", "last_seq", "chips_applied", "clock_call", "started_at",
            "finished_at"])
        self.positions = driver_sql(dialect, "UPDATE seating_table SET button_seat = ?, sb_seat = ?, "
                                             "bb_seat = ? WHERE id = ?")
        self.waiting = driver_sql(dialect, "UPDATE seat SET waiting = ? WHERE table_id = ? AND seat = ?")
        self.boolean = DriverInsert.value(Seat.__table__, dialect, "waiting")[1]

    def busted(self, count: int) -> str:
        """The players of the hand left with no chips who are still in."""
        return (f"SELECT id FROM player WHERE chips = 0 AND status = 'active' "
                f"AND id IN ({', '.join([self.mark] * count)})")


_fast_sql: dict[str, _FastSQL] = {}


def _statements() -> _FastSQL:
    """This database's fast-path statements (built once per dialect)."""
    dialect = db.engine.dialect
    found = _fast_sql.get(dialect.name)
    if found is None:
        found = _fast_sql[dialect.name] = _FastSQL(dialect)
    return found


class BustsFound(Exception):
    """The grouped write of a finishing hand found players it leaves with no chips: it
    is taken back (its savepoint), and the finish is written with their eliminations
    in one transaction instead (``finish.finish_hand``)."""


def _write_work(row: HandRow, events: list[Event], key: str | None, text: str,
                entries: list[tuple[str, str]], now: datetime, finish: Finish | None,
                grouped: bool) -> Callable[[Any], tuple[int, list[int]] | None]:
    """The statements of one accepted change of the hand ``row``, as ``work(cursor)``:
    the conditional version bump (with the status and the chips applied when the hand
    finishes), the events (the last one carrying the idempotency key and the answer),
    the log lines, the players' chips.  ``work`` returns the first sequence number and
    the ids of the players left with no chips who are still in, or None when another
    writer moved the hand first; ``grouped``, it raises :class:`BustsFound` instead of
    finding any."""
    sql = _statements()
    values: list[dict[str, Any]] = [
        {"hand_id": row.id, "seq": 0, "event": event_to_json(event), "idempotency_key": None,
         "response": None, "digest": None, "undone": False, "created_at": now} for event in events]
    digest = request_digest() if key is not None else None
    if key is not None and values:
        values[-1].update(idempotency_key=key, response=text, digest=digest)
    rows = [list(sql.event.params(one)) for one in values]
    request = sql.request.params({"idempotency_key": key, "hand_id": row.id, "response": text,
                                  "digest": digest, "created_at": now}) if key is not None and not rows else None
    logs = [sql.log.params({"hand_id": row.id, "at": now, "who": who, "text": stored_text(line)})
            for who, line in entries]

    def work(cursor: Any) -> tuple[int, list[int]] | None:
        if finish is None:
            cursor.execute(sql.bump, (row.version + 1, len(events), row.id, row.version))
        else:
            cursor.execute(sql.bump_finish, (
                row.version + 1, len(events), finish.status, sql.finished_at(now),
                sql.applied(finish.applied()), row.id, row.version))
        found = cursor.fetchone()
        if found is None:
            return None
        first = int(found[0]) - len(events) + 1
        if rows:
            for i, params in enumerate(rows):
                params[1] = first + i            # the column "seq"
            cursor.executemany(sql.event.sql, rows)
        if request is not None:
            cursor.execute(sql.request.sql, request)
        if logs:
            cursor.executemany(sql.log.sql, logs)
        busted: list[int] = []
        if finish is not None:
            if not grouped:
                crash_point("after-hand-rows")
            if finish.chips:
                cursor.executemany(sql.chips, [(delta, delta, pid) for pid, delta in finish.chips.items()])
            if not grouped:
                crash_point("after-chips")
            cursor.execute(sql.busted(len(finish.players)), finish.players)
            busted = sorted(int(found[0]) for found in cursor.fetchall())
            if busted and grouped:
                raise BustsFound()
        return first, busted

    return work


def _committed(row: HandRow, events: list[Event], first: int, finish: Finish | None) -> HandRow:
    committed = replace(row, version=row.version + 1, last_seq=first + len(events) - 1)
    if finish is not None:
        committed = replace(committed, status=finish.status, clock_call=None)
    return committed


def write_known(row: HandRow, events: list[Event], key: str | None, text: str,
                entries: list[tuple[str, str]], now: datetime,
                finish: Finish | None = None) -> HandRow | None:
    """Write one accepted change of the hand ``row`` (as read or last written at
    ``row.version``) straight through the driver, grouped with the other tablets'
    writes into one commit (``db.group_commit``).  Returns the row as committed, or
    None when another writer moved the hand first (or the key was used already):
    nothing is written then.  A finishing change (``finish``) that leaves a player
    with no chips raises :class:`BustsFound`, nothing written."""
    work = _write_work(row, events, key, text, entries, now, finish, True)
    line = audit.joined_line()      # the request's log line, in the same commit

    def with_line(cursor: Any) -> tuple[int, list[int]] | None:
        done = work(cursor)
        if done is not None and line is not None:
            line(cursor)
        return done

    written = group_commit().submit(with_line)
    if written is None:
        return None
    if line is not None:
        audit.line_joined()
    committed = _committed(row, events, written[0], finish)
    keep_latest(committed)
    return committed


def write_finish(row: HandRow, events: list[Event], key: str | None, text: str,
                 entries: list[tuple[str, str]], now: datetime,
                 finish: Finish) -> tuple[HandRow, list[int]] | None:
    """Write the change that finishes the hand ``row`` with the same statements, in the
    session's transaction and NOT committed: the eliminations it causes join it
    (``finish.finish_hand`` commits them together).  Returns the row as it will be
    committed and the ids of the players left with no chips who are still in, or None
    (the session rolled back) when another writer moved the hand first or the key was
    used already."""
    cursor = db.session.connection().connection.cursor()
    try:
        written = _write_work(row, events, key, text, entries, now, finish, False)(cursor)
    except db.engine.dialect.loaded_dbapi.IntegrityError:
        written = None
    finally:
        cursor.close()
    if written is None:
        db.session.rollback()
        return None
    db.session.expire_all()         # rows this session read before are read again (the chips)
    first, busted = written
    return _committed(row, events, first, finish), busted


def write_new_hand(row: HandRow, moves: tuple[tuple[int, int, int], list[tuple[bool, int]]] | None,
                    who: str, text: str, now: datetime) -> HandRow | None:
    """Write a hand just dealt (``row`` without its id) straight through the driver:
    the table's button and blinds and the seats that stop or start waiting for the
    button (``moves``), the hand, its first log line, one commit.  Returns the row
    as committed, or None when another tablet dealt this hand number first."""
    sql = _statements()
    values = sql.hand.params({**asdict(row), "started_at": now, "finished_at": None, "chips_applied": None})

    def work(cursor: Any) -> int:
        if moves is not None:
            cursor.execute(sql.positions, (*moves[0], row.table_id))
            if moves[1]:
                cursor.executemany(sql.waiting, [(sql.boolean(w), row.table_id, seat) for w, seat in moves[1]])
        cursor.execute(sql.hand.sql + " RETURNING id", values)
        hand_id = int(cursor.fetchone()[0])
        cursor.execute(sql.log.sql, sql.log.params({"hand_id": hand_id, "at": now, "who": who, "text": stored_text(text)}))
        return hand_id

    hand_id = group_commit().submit(work)
    if hand_id is None:
        return None
    committed = replace(row, id=hand_id)
    keep_latest(committed)
    return committed


def chip_changes(players: Sequence[dict[str, Any]], hand: Hand) -> dict[int, int]:
    """Player id -> the chips the finished hand moved (won: positive), non-zero only."""
    start, final = hand.config.starting_stacks, hand.stacks
    return {int(p["player_id"]): final[i] - start[i] for i, p in enumerate(players) if final[i] != start[i]}


@dataclass(frozen=True)
class Finish:
    """What a hand that finishes writes besides its events: its status, the chips
    it moved (a stack never goes below 0), and who played it (the ones left with
    no chips are eliminated in the same transaction)."""

    status: str
    chips: dict[int, int]
    players: list[int]

    def applied(self) -> dict[str, int]:
        """``DealerHand.chips_applied``: what an undo takes back."""
        return {str(pid): delta for pid, delta in self.chips.items()}


def chips_moved(tournament_id: int, *, clock: bool = False) -> None:
    """Record that the chip counts changed: the seating screens hear of it after the
    commit (and the projector, with ``clock``, when the players left changed too)."""
    uow.screens(tournament_id, "hands", clock=clock)


def log_line_only(row: AnyRow, who: str, text: str) -> None:
    """A log line with no change to the hand (its version stays), in the caller's unit
    of work: after its commit the log and the tablet states kept for that version are
    forgotten, here and (the "hands" change with ``log``: ``memory.forget_log``) in the
    other server processes, and the tablets read the hand again."""
    db.session.add(HandLogEntry(hand_id=row.id, who=who, text=stored_text(text)))
    uow.after_commit(functools.partial(forget_hand_log, row.id))
    uow.event(row.tournament_id, "dealer", {"table_id": row.table_id, "hand_id": row.id,
                                            "version": row.version, "log": True})


def log_now(row: AnyRow, who: str, text: str) -> None:
    """:func:`log_line_only`, committed."""
    log_line_only(row, who, text)
    uow.commit()


def tell_tablets(row: AnyRow) -> None:
    """Record that the hand has a new version: every tablet of the table reads it after
    the commit (the "dealer" event; the other processes hear a "hands" change)."""
    uow.event(row.tournament_id, "dealer",
              {"table_id": row.table_id, "hand_id": row.id, "version": row.version})
