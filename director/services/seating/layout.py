"""The seating's rows and the pure ``Layout``: read it, write only what changed."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlalchemy import Text, cast, delete, func, select, update

from director.db import db, driver_rows
from director.models.seating import (
    Player,
    Seat,
    SeatingTable,
)
from director.tournament.seating import (
    Layout,
    SeatedPlayer,
    TableState,
)


@dataclass(frozen=True)
class StoredRoom:
    """The room as its rows hold it in this transaction (:func:`load_stored`), and the
    row id of each table (number -> id): a write that seats a player at a table whose
    own row does not change needs no more of it (:func:`store_layout`)."""

    layout: Layout
    table_ids: Mapping[int, int]


def load_layout(tournament_id: int, numbers: Iterable[int] | None = None) -> Layout:
    """The pure ``Layout`` of the tournament, from its table and seat rows
    (``numbers``: only these tables)."""
    return _load(tournament_id, numbers).layout


def tables_in_play(tournament_id: int) -> int:
    """How many tables the room has (``len(load_layout(...).tables)``), counted by the
    database: a write that needs only the number does not read every seat."""
    return int(db.session.scalar(select(func.count(SeatingTable.id)).where(
        SeatingTable.tournament_id == tournament_id)) or 0)


def load_stored(tournament_id: int) -> StoredRoom:
    """The whole room and its tables' row ids, for a write that stores a changed room
    over it (``store_layout(..., stored=room)``)."""
    return _load(tournament_id, None)


def _load(tournament_id: int, numbers: Iterable[int] | None) -> StoredRoom:
    # Plain rows, not ORM objects: read for every hand dealt, 300 tables at a big event.
    query = select(
        SeatingTable.id, SeatingTable.number, SeatingTable.size, SeatingTable.button_seat,
        SeatingTable.sb_seat, SeatingTable.bb_seat, SeatingTable.game_is_stud,
        # As text, on every database: parsed only for a table built again (``_room``), where
        # PostgreSQL's driver parsed it for each of 300 tables on each read.
        cast(SeatingTable.vacated, Text)).where(SeatingTable.tournament_id == tournament_id)
    seat_query = select(Seat.table_id, Seat.seat, Seat.waiting, Player.id, Player.name) \
        .join(Player, Player.id == Seat.player_id).where(Seat.tournament_id == tournament_id)
    if numbers is not None:
        wanted = list(numbers)
        query = query.where(SeatingTable.number.in_(wanted))
        seat_query = seat_query.join(SeatingTable, SeatingTable.id == Seat.table_id).where(
            SeatingTable.number.in_(wanted))
    # On the session's connection, past the ORM's row handling (a quarter of the time at
    # 1,000 seats); the session's changes are flushed first, as its own queries would.
    db.session.flush()
    connection = db.session.connection()
    tables = driver_rows(connection.execute(query.order_by(SeatingTable.number)))
    rows = driver_rows(connection.execute(
        seat_query.order_by(Seat.table_id, Seat.seat)))  # seat order, on every database
    known = _rooms.get(tournament_id)
    before = known[2] if known is not None else {}
    if numbers is not None:
        return _room(tables, rows, before)[0]
    # The whole room is read by every seating page and API answer and by every write
    # that seats someone; built again from the same rows it is the same room.  The last
    # room built of each event is kept with its rows, and given again for equal rows:
    # at 120 tables that saves building 1,080 seats (and its digest, which is kept with
    # the ``Layout`` object, see ``proposals.layout_digest``).  From rows that changed
    # (a late entry, a bust), each table whose rows did not is the same object as
    # before: its text for the digest is kept with it, and at 300 tables a late entry
    # builds one table, not 300.  A ``Layout`` is never changed in place.
    key = (tables, rows)
    if known is not None and known[0] == key:
        return known[1]
    room, by_table = _room(tables, rows, before)
    _rooms.put(tournament_id, (key, room, by_table))
    return room


K = TypeVar("K")
V = TypeVar("V")


class Kept(Generic[K, V]):
    """The last ``size`` values put, by key, shared by the process's threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: dict[K, V] = {}
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            return self._items.get(key)

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items.pop(key, None)
            self._items[key] = value
            while len(self._items) > self.size:
                del self._items[next(iter(self._items))]


Rows = list[tuple[Any, ...]]
TableRows = dict[int, tuple[tuple[Any, ...], tuple[tuple[Any, ...], ...], TableState]]
"""Each table of a room built (by row id): its row, its seats' rows, its ``TableState``."""

_rooms: Kept[int, tuple[tuple[Rows, Rows], StoredRoom, TableRows]] = \
    Kept(8)                                     # the last room read of each of 8 events


def _room(tables: Rows, rows: Rows, before: TableRows) -> tuple[StoredRoom, TableRows]:
    """The room of these table and seat rows (the columns ``_load`` reads), and its
    tables' rows; a table whose rows are those of a table ``before`` is that object."""
    seats: dict[int, list[tuple[Any, ...]]] = {t[0]: [] for t in tables}
    for row in rows:
        seats[row[0]].append(row)
    built: TableRows = {}
    for table in tables:
        table_id, number, size, button, sb, bb, stud, vacated = table
        held = tuple(seats[table_id])
        same = before.get(table_id)
        if same is not None and same[0] == table and same[1] == held:
            built[table_id] = same
            continue
        open_seats = json.loads(vacated) if vacated else None    # the JSON's text (``_load``)
        state = TableState(number=number, size=size, button_seat=button, sb_seat=sb,
                           bb_seat=bb, game_is_stud=bool(stud),
                           vacated=tuple(int(s) for s in (open_seats or ())),
                           seats={seat: SeatedPlayer(player_id, name, bool(waiting))
                                  for _table, seat, waiting, player_id, name in held})
        built[table_id] = (table, held, state)
    return (StoredRoom(Layout(tuple(built[t[0]][2] for t in tables)),
                       {t[1]: t[0] for t in tables}), built)


def store_layout(tournament_id: int, layout: Layout, *,
                 stored: Layout | StoredRoom | None = None) -> None:
    """Write ``layout`` over the stored one, changing only the rows that differ.

    Seats that change are deleted and flushed before the new ones are
    inserted, so the unique (table, seat) and (player) constraints hold at
    every statement, whatever order the players move in.

    ``stored``: what the rows hold now (``load_layout`` in this transaction).
    Given it, only the tables that differ from it are read and written: a hand
    dealt or a late entry at a 300-table event touches one table, not 1,800
    seats.  Given it with its tables' row ids (a ``StoredRoom``), a table whose
    own row does not change (a player seated or gone) is not read either.
    """
    if isinstance(stored, StoredRoom):
        _store_changes(tournament_id, stored.layout, layout, stored.table_ids)
        return
    if stored is not None:
        _store_changes(tournament_id, stored, layout, {})
        return
    rows = {t.number: t for t in db.session.scalars(select(SeatingTable).where(
        SeatingTable.tournament_id == tournament_id))}
    by_id = {t.id: t.number for t in rows.values()}
    wanted = {p.player_id: (t.number, s, p.waiting)
              for t in layout.tables for s, p in t.seats.items()}
    # Plain rows, not ORM objects: a late entry at a 300-table event reads 1,800
    # seats and changes one; loading each as an object took most of its request.
    db.session.flush()
    existing = db.session.execute(select(Seat.id, Seat.player_id, Seat.table_id, Seat.seat,
                                         Seat.waiting).where(
        Seat.tournament_id == tournament_id)).all()
    keep: set[int] = set()
    gone: list[int] = []
    waiting_now: dict[bool, list[int]] = {True: [], False: []}
    for seat_id, player_id, table_id, seat_number, waiting in existing:
        target = wanted.get(player_id)
        if target is not None and target[:2] == (by_id[table_id], seat_number):
            if bool(waiting) != target[2]:
                waiting_now[target[2]].append(seat_id)
            keep.add(player_id)
        else:
            gone.append(seat_id)
    for chunk in _in_chunks(gone):
        db.session.execute(delete(Seat).where(Seat.id.in_(chunk)),
                           execution_options={"synchronize_session": "fetch"})
    for waiting, seat_ids in waiting_now.items():
        for chunk in _in_chunks(seat_ids):
            db.session.execute(update(Seat).where(Seat.id.in_(chunk)).values(waiting=waiting),
                               execution_options={"synchronize_session": "fetch"})
    for table in layout.tables:
        row = rows.pop(table.number, None)
        if row is None:
            row = SeatingTable(tournament_id=tournament_id, number=table.number)
            db.session.add(row)
        _write_table_row(row, table)
    for row in rows.values():                      # closed tables (their seats are gone)
        db.session.delete(row)
    db.session.flush()
    ids = {t.number: t.id for t in db.session.scalars(select(SeatingTable).where(
        SeatingTable.tournament_id == tournament_id))}
    for player_id, (number, seat_number, waiting) in wanted.items():
        if player_id not in keep:
            db.session.add(Seat(tournament_id=tournament_id, table_id=ids[number],
                                seat=seat_number, player_id=player_id, waiting=waiting))


def _write_table_row(row: SeatingTable, table: TableState) -> None:
    row.size = table.size
    row.button_seat, row.sb_seat, row.bb_seat = table.button_seat, table.sb_seat, table.bb_seat
    row.game_is_stud = table.game_is_stud
    row.vacated = list(table.vacated)


def _in_chunks(ids: list[int]) -> Iterable[list[int]]:
    """``ids`` 500 at a time: one ``IN (...)`` list stays under every database's limit."""
    return (ids[start:start + 500] for start in range(0, len(ids), 500))


def _same_row(before: TableState, after: TableState) -> bool:
    """Whether a table's own row (all but its seats) is the same."""
    return (before.size, before.button_seat, before.sb_seat, before.bb_seat,
            before.game_is_stud, before.vacated) == (
        after.size, after.button_seat, after.sb_seat, after.bb_seat, after.game_is_stud,
        after.vacated)


def _store_changes(tournament_id: int, stored: Layout, layout: Layout,
                   table_ids: Mapping[int, int]) -> None:
    """``store_layout`` given what is stored: the rows of the tables that differ
    (``table_ids``: the known row ids of the stored tables)."""
    before = {t.number: t for t in stored.tables}
    after = {t.number: t for t in layout.tables}
    changed = {n for n in before.keys() | after.keys() if before.get(n) != after.get(n)}
    if not changed:
        return

    def places(tables: dict[int, TableState]) -> dict[int, tuple[int, int, bool]]:
        return {p.player_id: (n, s, p.waiting) for n in changed if n in tables
                for s, p in tables[n].seats.items()}

    old, new = places(before), places(after)
    db.session.flush()
    # A player who left a table that did not change cannot be: it would have changed.
    gone = [pid for pid, where in old.items() if new.get(pid, (0, 0, False))[:2] != where[:2]]
    for chunk in _in_chunks(gone):
        db.session.execute(delete(Seat).where(Seat.tournament_id == tournament_id,
                                              Seat.player_id.in_(chunk)),
                           execution_options={"synchronize_session": "fetch"})
    waiting_now: dict[bool, list[int]] = {True: [], False: []}
    for pid, where in old.items():
        if pid in new and new[pid][:2] == where[:2] and new[pid][2] != where[2]:
            waiting_now[new[pid][2]].append(pid)
    for waiting, player_ids in waiting_now.items():
        for chunk in _in_chunks(player_ids):
            db.session.execute(update(Seat).where(Seat.tournament_id == tournament_id,
                                                  Seat.player_id.in_(chunk))
                               .values(waiting=waiting),
                               execution_options={"synchronize_session": "fetch"})
    # A table whose own row is as it was, and whose id is known, is not read.
    kept = {n: table_ids[n] for n in changed
            if n in table_ids and n in before and n in after and _same_row(before[n], after[n])}
    written = sorted(changed - kept.keys())
    rows = {t.number: t for t in db.session.scalars(select(SeatingTable).where(
        SeatingTable.tournament_id == tournament_id,
        SeatingTable.number.in_(written)))} if written else {}
    for number in written:
        row = rows.get(number)
        if number not in after:
            if row is not None:
                db.session.delete(row)          # a closed table (its seats are gone)
            continue
        if row is None:
            row = rows[number] = SeatingTable(tournament_id=tournament_id, number=number)
            db.session.add(row)
        _write_table_row(row, after[number])
    db.session.flush()
    ids = {**kept, **{n: row.id for n, row in rows.items()}}
    for pid, (number, seat_number, waiting) in new.items():
        if pid not in old or old[pid][:2] != (number, seat_number):
            db.session.add(Seat(tournament_id=tournament_id, table_id=ids[number],
                                seat=seat_number, player_id=pid, waiting=waiting))
