"""Seating a multi-table tournament: the draw, new players, balancing, breaking,
redraws, halting play and hand-for-hand (TDA 2024 rules 7-11, RP-8, RP-9).

Every function that *proposes* returns a :class:`SeatingPlan` (or a
:class:`Move`): data plus a sentence a person can follow, e.g.
"Anna Berg: table 4 seat 2 → table 1 seat 7 (takes the big blind)".
Nothing is applied until the director confirms; then :func:`apply_plan` (or
:func:`apply_moves`) returns the new :class:`Layout`.  All types are frozen
and round-trip through JSON (``to_json`` / ``from_json``) so that the
database layer can store them.

A table stores the button and blinds of the hand *last dealt* there (the
hand in progress, or the one just finished); :meth:`TableState.upcoming`
gives the next hand's, from who sits there now (the dead button,
:mod:`director.tournament.button`).  :func:`deal_hand` moves them on when
the next hand starts.

Typical service-layer use, after a hand at some table::

    layout = remove_players(layout, busted_ids)
    plan = plan_seating(layout, policy)          # break, redraw or balance
    ... show plan.describe() to the director; on confirm:
    layout = apply_plan(layout, plan)

>>> import random
>>> rng = random.Random(7)
>>> policy = SeatingPolicy(table_size=9)
>>> plan = draw_seats([(i, f"Player {i}") for i in range(1, 21)], policy, rng)
>>> layout = apply_plan(Layout(()), plan)
>>> [t.count for t in layout.tables]
[7, 7, 6]
>>> Layout.from_json(layout.to_json()) == layout
True
"""

from __future__ import annotations

import heapq
import math
import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from director.poker.errors import RuleViolation
from director.tournament.button import (
    Positions,
    SeatStatus,
    advance,
    hands_until_big_blind,
    is_between,
    next_occupied,
    seat_status,
    start_positions,
    worst_position,
)

__all__ = [
    "BIG_FIELD",
    "SEAT_CHOICES",
    "STUD_MAX_SEATS",
    "Bust",
    "Elimination",
    "Finish",
    "HandForHand",
    "Layout",
    "Move",
    "PlanKind",
    "SeatStatus",
    "SeatedPlayer",
    "SeatingPlan",
    "SeatingPolicy",
    "TableState",
    "announce_hand_for_hand",
    "apply_moves",
    "apply_plan",
    "balance_tables",
    "big_field_redraw_offered",
    "blinds_affected",
    "break_table",
    "deal_hand",
    "draw_seats",
    "end_hand_for_hand",
    "finish_hand_for_hand_hand",
    "halted_tables",
    "next_table_to_break",
    "place_busts",
    "places_after_reinstatement",
    "plan_seating",
    "redraw",
    "redraw_points",
    "reinstate_players",
    "remove_players",
    "seat_after_undone_bust",
    "seat_new_player",
    "seats_for_game",
    "share_prizes",
    "start_hand_for_hand",
    "stud_overrides",
    "switch_game",
    "table_counts",
    "table_size_allowed",
]

TABLE_SIZES = (6, 7, 8, 9, 10)
#: Seconds taken off the clock per hand-for-hand hand (TDA RP-8: 2 minutes, at most 3).
HAND_FOR_HAND_SECONDS = 120
HAND_FOR_HAND_MAX_SECONDS = 180
#: Whether the director may choose a new player's seat at registration (TDA 7 draws seats
#: at random; a director places a player by hand, e.g. for an accessibility need):
#: ``never``; ``reason`` (the default: only with the reason, which is logged); ``free``.
SEAT_CHOICES = ("never", "reason", "free")
ROOM_TABLES_MAX = 1000


def _default_rng() -> random.Random:
    """A cryptographic RNG: nobody can predict the draw (TDA 7)."""
    return secrets.SystemRandom()


# --------------------------------------------------------------------------- data


@dataclass(frozen=True, slots=True)
class SeatedPlayer:
    """A player in a seat.  ``waiting``: seated between the small blind and the
    button, dealt in once the button has passed (TDA 8-A, 10-A)."""

    player_id: int
    name: str
    waiting: bool = False


MOST_SEATS = 10   # the most players a table seats (``TableState``)


@dataclass(frozen=True)
class TableState:
    """One table: its seats and the positions of the hand last dealt there.

    ``button_seat``/``sb_seat``/``bb_seat`` are None at a stud-only table and
    at a flop table whose button has not been placed yet.  In a mixed game
    they stay frozen while the game is stud (TDA 11-B).  ``vacated`` lists
    the open seats in the order they opened (stud balancing fills the last
    one, TDA 11-A).  ``seats`` must not be mutated.
    """

    number: int
    size: int
    seats: Mapping[int, SeatedPlayer] = field(default_factory=dict)
    button_seat: int | None = None
    sb_seat: int | None = None
    bb_seat: int | None = None
    game_is_stud: bool = False
    vacated: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not 2 <= self.size <= MOST_SEATS:
            raise RuleViolation("A table seats 2 to 10 players, not {size}", size=self.size)
        for seat in self.seats:
            if not 1 <= seat <= self.size:
                raise RuleViolation("Table {table} has no seat {seat}", table=self.number, seat=seat)

    @property
    def last_hand(self) -> Positions | None:
        if self.button_seat is None or self.sb_seat is None or self.bb_seat is None:
            return None
        return Positions(self.button_seat, self.sb_seat, self.bb_seat)

    @property
    def count(self) -> int:
        return len(self.seats)

    @property
    def occupied(self) -> frozenset[int]:
        return frozenset(self.seats)

    @property
    def open_seats(self) -> list[int]:
        return [s for s in range(1, self.size + 1) if s not in self.seats]

    def upcoming(self) -> Positions | None:
        """Button and blinds of the next hand (None: stud, or button not placed yet)."""
        if self.count < 2:
            return None
        return advance(self.last_hand, self.seats, self.size, game_is_stud=self.game_is_stud)

    def next_big_blind(self) -> int | None:
        """The seat due the big blind next (with the button frozen during stud, TDA 11-B)."""
        last = self.last_hand
        if last is None or not self.seats:
            return None
        return next_occupied(last.big_blind, self.seats, self.size)

    def with_positions(self, positions: Positions | None) -> TableState:
        if positions is None:
            return replace(self, button_seat=None, sb_seat=None, bb_seat=None)
        return replace(self, button_seat=positions.button, sb_seat=positions.small_blind,
                       bb_seat=positions.big_blind)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number, "size": self.size,
            "seats": [{"seat": s, "player_id": p.player_id, "name": p.name, "waiting": p.waiting}
                      for s, p in sorted(self.seats.items())],
            "button_seat": self.button_seat, "sb_seat": self.sb_seat, "bb_seat": self.bb_seat,
            "game_is_stud": self.game_is_stud, "vacated": list(self.vacated),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableState:
        return cls(
            number=int(data["number"]), size=int(data["size"]),
            seats={int(s["seat"]): SeatedPlayer(int(s["player_id"]), str(s["name"]),
                                                bool(s.get("waiting", False)))
                   for s in data.get("seats", [])},
            button_seat=data.get("button_seat"), sb_seat=data.get("sb_seat"),
            bb_seat=data.get("bb_seat"), game_is_stud=bool(data.get("game_is_stud", False)),
            vacated=tuple(int(s) for s in data.get("vacated", [])),
        )


@dataclass(frozen=True)
class Layout:
    """Every table in play, in table-number order."""

    tables: tuple[TableState, ...]

    def __post_init__(self) -> None:
        numbers = [t.number for t in self.tables]
        if len(set(numbers)) != len(numbers):
            raise RuleViolation("Two tables have the same number")
        if numbers != sorted(numbers):
            object.__setattr__(self, "tables", tuple(sorted(self.tables, key=lambda t: t.number)))

    def table(self, number: int) -> TableState:
        for t in self.tables:
            if t.number == number:
                return t
        raise RuleViolation("There is no table {table}", table=number)

    @property
    def numbers(self) -> list[int]:
        return [t.number for t in self.tables]

    @property
    def player_count(self) -> int:
        return sum(t.count for t in self.tables)

    def where(self, player_id: int) -> tuple[int, int]:
        """(table, seat) of a player."""
        for t in self.tables:
            for seat, p in t.seats.items():
                if p.player_id == player_id:
                    return t.number, seat
        raise RuleViolation("Player {player} is not seated", player=player_id)

    def with_table(self, table: TableState) -> Layout:
        """The layout with ``table`` replacing the table of the same number."""
        self.table(table.number)
        return Layout(tuple(table if t.number == table.number else t for t in self.tables))

    def to_json(self) -> dict[str, Any]:
        return {"tables": [t.to_json() for t in self.tables]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Layout:
        return cls(tuple(TableState.from_json(t) for t in data["tables"]))


def table_counts(layout: Layout) -> dict[int, int]:
    return {t.number: t.count for t in layout.tables}


@dataclass(frozen=True, slots=True)
class Move:
    """One player going to a seat.  ``from_table`` is None for a new player."""

    player_id: int
    name: str
    from_table: int | None
    from_seat: int | None
    to_table: int
    to_seat: int
    note: str = ""
    status: SeatStatus = SeatStatus.DEALT_IN

    def describe(self) -> str:
        """The sentence the floor reads out.

        >>> Move(7, "Anna Berg", 4, 2, 1, 7, "takes the big blind").describe()
        'Anna Berg: table 4 seat 2 → table 1 seat 7 (takes the big blind)'
        >>> Move(8, "Bo Ek", None, None, 3, 5, "dealt in now").describe()
        'Bo Ek: table 3 seat 5 (dealt in now)'
        """
        to = f"table {self.to_table} seat {self.to_seat}"
        text = to if self.from_table is None else \
            f"table {self.from_table} seat {self.from_seat} → {to}"
        return f"{self.name}: {text}" + (f" ({self.note})" if self.note else "")

    def to_json(self) -> dict[str, Any]:
        return {"player_id": self.player_id, "name": self.name, "from_table": self.from_table,
                "from_seat": self.from_seat, "to_table": self.to_table, "to_seat": self.to_seat,
                "note": self.note, "status": self.status.value}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Move:
        return cls(int(data["player_id"]), str(data["name"]), data.get("from_table"),
                   data.get("from_seat"), int(data["to_table"]), int(data["to_seat"]),
                   str(data.get("note", "")), SeatStatus(data.get("status", "dealt in now")))


class PlanKind(StrEnum):
    NONE = "none"
    DRAW = "draw"
    NEW_PLAYER = "new player"
    BALANCE = "balance"
    BREAK = "break table"
    REDRAW = "redraw"
    FINAL_TABLE = "final table"


@dataclass(frozen=True)
class SeatingPlan:
    """A proposal: tables to open or resize, moves, tables to close, buttons to place.

    ``open_tables`` maps table number → size: a new table, or a new size for
    an existing one (the final table).  ``buttons`` maps table → seat where
    the button starts (a redraw, or a new draw).  ``floor_notes`` are
    questions the rules leave to the house (RULES.md §11.2): shown to the
    director, never ruled on silently.  ``stud``: the tables it opens deal
    stud (no button).
    """

    kind: PlanKind
    moves: tuple[Move, ...] = ()
    open_tables: Mapping[int, int] = field(default_factory=dict)
    close_tables: tuple[int, ...] = ()
    buttons: Mapping[int, int] = field(default_factory=dict)
    note: str = ""
    floor_notes: tuple[str, ...] = ()
    stud: bool = False

    def describe(self) -> list[str]:
        lines = [self.note] if self.note else []
        lines += [f"Floor: {text}" for text in self.floor_notes]
        lines += [f"Open table {n} ({size} seats)" for n, size in sorted(self.open_tables.items())]
        lines += [m.describe() for m in self.moves]
        lines += [f"Table {n}: button starts in seat {s}" for n, s in sorted(self.buttons.items())]
        lines += [f"Close table {n}" for n in self.close_tables]
        return lines

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind.value, "moves": [m.to_json() for m in self.moves],
                "open_tables": {str(k): v for k, v in self.open_tables.items()},
                "close_tables": list(self.close_tables),
                "buttons": {str(k): v for k, v in self.buttons.items()}, "note": self.note,
                "floor_notes": list(self.floor_notes), "stud": self.stud}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatingPlan:
        return cls(PlanKind(data["kind"]), tuple(Move.from_json(m) for m in data["moves"]),
                   {int(k): int(v) for k, v in data.get("open_tables", {}).items()},
                   tuple(int(n) for n in data.get("close_tables", [])),
                   {int(k): int(v) for k, v in data.get("buttons", {}).items()},
                   str(data.get("note", "")), tuple(data.get("floor_notes", ())),
                   bool(data.get("stud", False)))


@dataclass(frozen=True)
class SeatingPolicy:
    """The event's seating settings (RULES.md §11.1).

    * ``table_size``: players per table (6 to 10).
    * ``balance_threshold``: tables may differ by this many players (TDA 11;
      WSOP-T balances within one player late in the event).
    * ``halt_short_by``: halt play at a table this many players short of the
      fullest table once its blinds are affected (TDA 11-D: 3).
    * ``final_table_size``: None = TDA RP-9: 9 for 8- and 9-handed events, 7
      for 6- and 7-handed, 10 for 10-handed (WSOP-T 68: 10 for 9-handed).
    * ``redraw_at_tables``: table counts at which every seat is redrawn.
      Default: the final table only.  TDA 2024 has no redraw rule, so a
      small field breaks tables in the announced order (TDA 10-B) down to
      the final table; with 24 players at 4 tables the next table breaks.
    * ``redraw_big_field``: the house flag (off by default) for WSOP-T 67-c's
      redraws at 3 and 2 tables too, which WSOP makes only in fields of
      :data:`BIG_FIELD` or more entrants (:func:`redraw_points`).
    * ``breaking_order``: table numbers in the pre-announced breaking order
      (TDA 10-B).  Tables not listed break after those listed, the
      highest-numbered first (the default when the list is empty).
    * ``hand_for_hand_seconds``: clock time deducted per hand-for-hand hand
      (TDA RP-8: 2 minutes, at most 3).
    * ``stud_only``: a stud event; tables have no button.
    * ``smallest_chip``: the smallest chip in play, in which odd chips are
      counted (TDA 20; RULES.md §7.3); the director changes it at a colour-up
      (TDA 24).  0: the largest chip that every forced bet of the level and
      every stack at the table is made of (``hand_chip_unit``).
    * ``room_tables``: the tables the room has for this event (None: as many as the
      field needs, a new table opening when every seat is taken).  With a number, the
      room is full once every seat of that many tables is taken: a new entry then
      waits on the waiting list (``director.tournament.room``).
    * ``seat_choice``: whether the director may choose a new player's seat
      (:data:`SEAT_CHOICES`; TDA 7 assigns seats at random, so the default is
      ``reason``: only with a reason, which is logged).
    """

    table_size: int = 9
    balance_threshold: int = 1
    halt_short_by: int = 3
    final_table_size: int | None = None
    redraw_at_tables: tuple[int, ...] = (1,)
    breaking_order: tuple[int, ...] = ()
    hand_for_hand_seconds: int = HAND_FOR_HAND_SECONDS
    stud_only: bool = False
    smallest_chip: int = 0
    redraw_big_field: bool = False
    room_tables: int | None = None
    seat_choice: str = "reason"

    def __post_init__(self) -> None:
        if self.room_tables is not None and not 1 <= self.room_tables <= ROOM_TABLES_MAX:
            raise RuleViolation("The room has 1 to {max} tables, not {tables}",
                                max=ROOM_TABLES_MAX, tables=self.room_tables)
        if self.seat_choice not in SEAT_CHOICES:
            raise RuleViolation("The director's seat choice is one of: {choices}",
                                choices=", ".join(SEAT_CHOICES))
        if self.smallest_chip < 0:
            raise RuleViolation("The smallest chip cannot be {unit}", unit=self.smallest_chip)
        if self.table_size not in TABLE_SIZES:
            raise RuleViolation("Tables seat 6 to 10 players, not {size}", size=self.table_size)
        if self.balance_threshold < 1:
            raise RuleViolation("Tables can never be closer than one player apart")
        if self.final_table_size is not None and self.final_table_size not in TABLE_SIZES:
            raise RuleViolation("A final table seats 6 to 10 players, not {size}",
                                size=self.final_table_size)
        if not 0 < self.hand_for_hand_seconds <= HAND_FOR_HAND_MAX_SECONDS:
            raise RuleViolation("A hand-for-hand hand takes between 1 second and 3 minutes off "
                                "the clock, not {seconds}", rule="TDA RP-8",
                                seconds=self.hand_for_hand_seconds)

    @property
    def final_size(self) -> int:
        if self.final_table_size is not None:
            return self.final_table_size
        return {6: 7, 7: 7, 8: 9, 9: 9, 10: 10}[self.table_size]

    def tables_needed(self, players: int) -> int:
        """Fewest tables for ``players``: one final table once they fit on it (TDA RP-9).

        >>> p = SeatingPolicy(table_size=8)
        >>> p.tables_needed(300), p.tables_needed(10), p.tables_needed(9)
        (38, 2, 1)
        """
        if players <= self.final_size:
            return 1
        return max(2, math.ceil(players / self.table_size))

    def to_json(self) -> dict[str, Any]:
        return {"table_size": self.table_size, "balance_threshold": self.balance_threshold,
                "halt_short_by": self.halt_short_by, "final_table_size": self.final_table_size,
                "redraw_at_tables": list(self.redraw_at_tables),
                "breaking_order": list(self.breaking_order),
                "hand_for_hand_seconds": self.hand_for_hand_seconds, "stud_only": self.stud_only,
                "smallest_chip": self.smallest_chip, "redraw_big_field": self.redraw_big_field,
                "room_tables": self.room_tables, "seat_choice": self.seat_choice}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatingPolicy:
        """Settings from JSON; missing keys take the TDA defaults."""
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        for key in ("redraw_at_tables", "breaking_order"):
            if key in known:
                known[key] = tuple(int(n) for n in known[key])
        return cls(**known)

    def breaking_rank(self, number: int) -> tuple[int, int]:
        """Sort key: the table that breaks first has the smallest rank."""
        if number in self.breaking_order:
            return 0, self.breaking_order.index(number)
        return 1, -number


# --------------------------------------------------------------------------- helpers


def _check_rng(rng: random.Random | None) -> random.Random:
    return _default_rng() if rng is None else rng


def _even_counts(players: int, tables: int) -> list[int]:
    """Split players over tables, sizes differing by at most one, fuller tables first."""
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def _stud_table(table: TableState, policy: SeatingPolicy) -> bool:
    return policy.stud_only or (table.game_is_stud and table.last_hand is None)


class _Work:
    """A mutable scratch copy of the layout, for planning several moves at once."""

    def __init__(self, layout: Layout) -> None:
        self.tables: dict[int, TableState] = {t.number: t for t in layout.tables}
        self.seats: dict[int, dict[int, SeatedPlayer]] = {}

    def seats_of(self, number: int) -> dict[int, SeatedPlayer]:
        if number not in self.seats:
            self.seats[number] = dict(self.tables[number].seats)
        return self.seats[number]

    def table(self, number: int) -> TableState:
        """The table as it stands in the scratch copy (seats updated)."""
        t = self.tables[number]
        return replace(t, seats=self.seats[number]) if number in self.seats else t


def _arrival_moves(work: _Work, moves: list[Move]) -> tuple[Move, ...]:
    """Statuses for arrivals, computed on the finished scratch layout."""
    tables = {n: work.table(n) for n in {m.to_table for m in moves}}
    done = []
    for m in moves:
        t = tables[m.to_table]
        others = {s for s in t.seats if s != m.to_seat}
        status = seat_status(m.to_seat, t.last_hand, others, t.size,
                             game_is_stud=t.game_is_stud) if len(others) >= 1 else \
            SeatStatus.DEALT_IN
        done.append(replace(m, status=status, note=m.note or status.value))
    return tuple(done)


# --------------------------------------------------------------------------- applying


def _rebuild(table: TableState, seats: dict[int, SeatedPlayer]) -> TableState:
    """A table with new seats; keeps ``vacated`` in the order seats opened."""
    opened = [s for s in table.seats if s not in seats]
    vacated = [s for s in table.vacated if s not in seats and s not in opened] + sorted(opened)
    return replace(table, seats=seats, vacated=tuple(vacated))


def apply_moves(layout: Layout, moves: Iterable[Move]) -> Layout:
    """The layout after ``moves``, all made at once (the director has confirmed them).

    Checks that each player sits where the move says, that no seat gets two
    players and that no player moves twice; raises :class:`RuleViolation`
    otherwise.  A player who arrives in a seat between the small blind and
    the button is marked ``waiting``.
    """
    moves = list(moves)
    if not moves:
        return layout
    tables = {t.number: t for t in layout.tables}
    seats: dict[int, dict[int, SeatedPlayer]] = {}

    def seats_of(number: int | None) -> dict[int, SeatedPlayer]:
        if number not in tables:
            raise RuleViolation("There is no table {table}", table=number)
        assert number is not None
        if number not in seats:
            seats[number] = dict(tables[number].seats)
        return seats[number]

    movers = [m.player_id for m in moves]
    if len(set(movers)) != len(movers):
        raise RuleViolation("A player cannot be moved twice at once")
    if any(m.from_table is None for m in moves):
        seated = {p.player_id for t in layout.tables for p in t.seats.values()}
        for m in moves:
            if m.from_table is None and m.player_id in seated:
                raise RuleViolation("{name} already has a seat", name=m.name)
    for m in moves:                                   # everybody stands up ...
        if m.from_table is None:
            continue
        source = seats_of(m.from_table)
        here = source.get(m.from_seat) if m.from_seat is not None else None
        if here is None or here.player_id != m.player_id or m.from_seat is None:
            raise RuleViolation("{name} is not in table {table} seat {seat}", name=m.name,
                                table=m.from_table, seat=m.from_seat)
        del source[m.from_seat]
    for m in moves:                                   # ... and sits down again
        dest = seats_of(m.to_table)
        if not 1 <= m.to_seat <= tables[m.to_table].size:
            raise RuleViolation("Table {table} has no seat {seat}", table=m.to_table,
                                seat=m.to_seat)
        if m.to_seat in dest:
            raise RuleViolation("Table {table} seat {seat} is taken", table=m.to_table,
                                seat=m.to_seat)
        dest[m.to_seat] = SeatedPlayer(m.player_id, m.name, m.status is SeatStatus.WAITS)
    for number, new_seats in seats.items():
        tables[number] = _rebuild(tables[number], new_seats)
    return Layout(tuple(tables.values()))


def apply_plan(layout: Layout, plan: SeatingPlan) -> Layout:
    """The layout after a confirmed plan: open/resize tables, move, close, place buttons."""
    tables = {t.number: t for t in layout.tables}
    shrink = {}
    for number, size in plan.open_tables.items():
        if number not in tables:
            tables[number] = TableState(number, size, game_is_stud=plan.stud)
        elif size >= tables[number].size:
            tables[number] = replace(tables[number], size=size)
        else:
            shrink[number] = size                     # once its players have moved
    layout = apply_moves(Layout(tuple(tables.values())), plan.moves)
    tables = {t.number: t for t in layout.tables}
    for number, size in shrink.items():
        tables[number] = replace(tables[number], size=size)
    for number in plan.close_tables:
        if tables[number].seats:
            raise RuleViolation("Table {table} still has players and cannot close", table=number)
        del tables[number]
    for number, seat in plan.buttons.items():
        t = tables[number]
        if len(t.seats) >= 2:
            if any(p.waiting for p in t.seats.values()):
                t = replace(t, seats={s: replace(p, waiting=False) for s, p in t.seats.items()})
            t = replace(t, vacated=())
            tables[number] = t.with_positions(start_positions(seat, t.seats, t.size))
    return Layout(tuple(tables.values()))


def remove_players(layout: Layout, player_ids: Iterable[int]) -> Layout:
    """The layout without these players (busted, disqualified, or gone)."""
    gone = set(player_ids)
    tables = []
    for t in layout.tables:
        if any(p.player_id in gone for p in t.seats.values()):
            kept = {s: p for s, p in t.seats.items() if p.player_id not in gone}
            gone -= {p.player_id for p in t.seats.values()}
            t = _rebuild(t, kept)
        tables.append(t)
    if gone:
        raise RuleViolation("Player {player} is not seated", player=min(gone))
    return Layout(tuple(tables))


def deal_hand(table: TableState, *, button: int | None = None) -> TableState:
    """The table as the next hand is dealt: button and blinds moved on (TDA 32).

    At a flop table that has no button yet, the button starts on ``button``
    or, if None, on the first stack to the dealer's right, the highest
    occupied seat (WSOP-T; RRP deals for high card, see :func:`draw_seats`).
    Players waiting for the button are dealt in once it has passed them.
    Stud tables keep their (frozen) positions.
    """
    if table.count < 2:
        raise RuleViolation("Table {table} has {count} player(s) and cannot deal",
                            table=table.number, count=table.count)
    if table.game_is_stud:
        return replace(table, seats={s: replace(p, waiting=False) for s, p in table.seats.items()})
    last = table.last_hand
    if last is None:
        start = max(table.seats) if button is None else button
        last = start_positions(start, table.seats, table.size)
    hand = advance(last, table.seats, table.size, game_is_stud=False)
    assert hand is not None
    seats = {s: replace(p, waiting=p.waiting and not hand.heads_up
                        and is_between(s, hand.button, hand.small_blind, table.size))
             for s, p in table.seats.items()}
    return replace(table.with_positions(hand), seats=seats)


def switch_game(table: TableState, *, game_is_stud: bool) -> TableState:
    """Change a mixed game's table between flop and stud (TDA 11-B).

    The positions of the last flop hand are kept: during stud they are frozen,
    and the first flop hand afterwards puts the button where it would have been.
    """
    return replace(table, game_is_stud=game_is_stud)


# --------------------------------------------------------------------------- the draw


def _random_seats(rng: random.Random, size: int, count: int) -> list[int]:
    return sorted(rng.sample(range(1, size + 1), count))


def draw_seats(players: Iterable[tuple[int, str]], policy: SeatingPolicy,
               rng: random.Random | None = None, *, first_table: int = 1) -> SeatingPlan:
    """The random seat draw for the whole field (TDA 7).

    Fewest tables, their player counts differing by at most one; on each
    table the used seats are drawn at random, then the players are dealt the
    seat cards at random.  The button starts on a random player at each
    table (RRP *Tournaments*: deal for high card).  ``rng`` defaults to a
    cryptographic RNG; pass ``random.Random(seed)`` for a repeatable draw.
    Apply it to an empty layout: ``apply_plan(Layout(()), plan)``.
    """
    rng = _check_rng(rng)
    entrants = list(players)
    if len({p for p, _ in entrants}) != len(entrants):
        raise RuleViolation("A player appears twice in the draw")
    if len(entrants) < 2:
        raise RuleViolation("A tournament needs at least two players")
    count = policy.tables_needed(len(entrants))
    size = policy.final_size if count == 1 else policy.table_size
    numbers = range(first_table, first_table + count)
    cards = [(n, s) for n, k in zip(numbers, _even_counts(len(entrants), count), strict=True)
             for s in _random_seats(rng, size, k)]
    rng.shuffle(cards)
    moves = tuple(Move(pid, name, None, None, n, s)
                  for (pid, name), (n, s) in zip(entrants, cards, strict=True))
    buttons = {} if policy.stud_only else _draw_buttons(rng, moves)
    return SeatingPlan(PlanKind.DRAW, tuple(sorted(moves, key=lambda m: (m.to_table, m.to_seat))),
                       open_tables={n: size for n in numbers}, buttons=buttons,
                       note=f"Seat draw: {len(entrants)} players at {count} tables",
                       stud=policy.stud_only)


def _draw_buttons(rng: random.Random, moves: Iterable[Move]) -> dict[int, int]:
    by_table: dict[int, list[int]] = {}
    for m in moves:
        by_table.setdefault(m.to_table, []).append(m.to_seat)
    return {n: rng.choice(sorted(seats)) for n, seats in sorted(by_table.items())}


def seat_new_player(layout: Layout, player_id: int, name: str, policy: SeatingPolicy,
                    rng: random.Random | None = None) -> SeatingPlan:
    """A random open seat for a late registrant, re-entry or alternate (TDA 8-A).

    The seat is drawn from the open seats at the tables with the fewest
    players, so the field stays balanced.  He is dealt in at once, except
    in a seat between the small blind and the button (the move's ``status``
    says which, [SEAT-1] to [SEAT-3]).  When every seat is taken a new table
    is opened (numbered after the highest).
    """
    rng = _check_rng(rng)
    if any(p.player_id == player_id for t in layout.tables for p in t.seats.values()):
        raise RuleViolation("{name} already has a seat", name=name)
    open_tables = [t for t in layout.tables if t.open_seats]
    if not open_tables:
        if policy.room_tables is not None and len(layout.tables) >= policy.room_tables:
            raise RuleViolation("The room is full: every seat at the {tables} tables is taken",
                                tables=len(layout.tables))
        number = max(layout.numbers, default=0) + 1
        seat = rng.randint(1, policy.table_size)
        move = Move(player_id, name, None, None, number, seat, SeatStatus.DEALT_IN.value)
        return SeatingPlan(PlanKind.NEW_PLAYER, (move,), open_tables={number: policy.table_size},
                           note=f"Every seat is taken: open table {number}",
                           stud=policy.stud_only)
    fewest = min(t.count for t in open_tables)
    cards = [(t.number, s) for t in open_tables if t.count == fewest for s in t.open_seats]
    number, seat = rng.choice(cards)
    table = layout.table(number)
    status = seat_status(seat, table.last_hand, table.seats, table.size,
                         game_is_stud=table.game_is_stud) if table.seats else SeatStatus.DEALT_IN
    move = Move(player_id, name, None, None, number, seat, status.value, status)
    return SeatingPlan(PlanKind.NEW_PLAYER, (move,))


# --------------------------------------------------------------------------- balancing


def _mover_seat(source: TableState, dest_seat: int | None, policy: SeatingPolicy) -> int:
    """The seat at the source table whose player moves (TDA 11-A, 11-B)."""
    if not _stud_table(source, policy):
        due = source.next_big_blind()
        # No button placed yet: the first stack to the dealer's right moves.
        return max(source.seats) if due is None else due
    # Stud-only: by position - the player in the same seat number as the seat
    # to fill, or the next player clockwise from it.
    assert dest_seat is not None
    return dest_seat if dest_seat in source.seats else \
        next_occupied(dest_seat, source.seats, source.size)


def _destination_seat(dest: TableState, policy: SeatingPolicy) -> int:
    """The seat a player moved to balance takes (TDA 11-A)."""
    open_seats = dest.open_seats
    if _stud_table(dest, policy):
        # Stud-only: the last seat to open is the one filled.
        opened = [s for s in dest.vacated if s in open_seats]
        return opened[-1] if opened else max(open_seats)
    last = dest.last_hand
    if last is None:
        return min(open_seats)
    return worst_position(open_seats, last, dest.seats, dest.size)


def _balance_note(dest: TableState, seat: int, policy: SeatingPolicy) -> tuple[str, SeatStatus]:
    if _stud_table(dest, policy):
        return "fills the last open seat", SeatStatus.DEALT_IN
    last = dest.last_hand
    if last is None:
        return "dealt in now", SeatStatus.DEALT_IN
    others = {s for s in dest.seats if s != seat}
    hands = hands_until_big_blind(seat, last, others, dest.size)
    if hands == 0:
        return "takes the big blind", SeatStatus.BIG_BLIND
    status = seat_status(seat, last, others, dest.size, game_is_stud=dest.game_is_stud) \
        if len(others) >= 1 else SeatStatus.DEALT_IN
    note = f"big blind after {hands} hand{'s' if hands > 1 else ''}"
    return (f"{note}; {status.value}" if status is SeatStatus.WAITS else note), status


def balance_tables(layout: Layout, policy: SeatingPolicy) -> SeatingPlan:
    """Moves that bring every table within ``balance_threshold`` of the others (TDA 11).

    Each move takes a player from the fullest table, ties going to the table
    that breaks first (TDA 11-C: a predetermined procedure; WSOP-T: the next
    table in the breaking order), to the shortest table, ties going to the
    table that breaks last.  Flop and mixed games: the player due the big
    blind next moves to the worst position (:func:`~director.tournament.
    button.worst_position`).  Stud-only: by position - the last seat to open
    at the short table is filled, by the player in that seat number at the
    source table (or the next player clockwise from it).

    The seat that just posted the big blind, if open, is the next small
    blind under the dead button (§1.5), so it is not the worst position.
    TDA 11-A allows the mover to take it and post the big blind again ("even
    if that means the seat is the big blind twice"); where that would be the
    worse seat for him, the plan says so in ``floor_notes`` (RULES.md §11.2).
    """
    work = _Work(layout)
    floor_notes: list[str] = []
    counts = {t.number: t.count for t in layout.tables}
    if len(counts) < 2:
        return SeatingPlan(PlanKind.NONE)
    rank = policy.breaking_rank
    fullest = [(-c, rank(n), n) for n, c in counts.items()]
    shortest = [(c, tuple(-x for x in rank(n)), n) for n, c in counts.items()]
    heapq.heapify(fullest)
    heapq.heapify(shortest)
    moves: list[Move] = []
    dest_tables: dict[int, None] = {}
    while True:
        while -fullest[0][0] != counts[fullest[0][2]]:
            heapq.heappop(fullest)
        while shortest[0][0] != counts[shortest[0][2]]:
            heapq.heappop(shortest)
        high, low = -fullest[0][0], shortest[0][0]
        if high - low <= policy.balance_threshold:
            break
        source_no, dest_no = fullest[0][2], shortest[0][2]
        source, dest = work.table(source_no), work.table(dest_no)
        to_seat = _destination_seat(dest, policy)
        from_seat = _mover_seat(source, to_seat, policy)
        player = source.seats[from_seat]
        question = _big_blind_twice(dest, to_seat, player.name, policy)
        if question:
            floor_notes.append(question)
        work.seats_of(source_no).pop(from_seat)
        work.seats_of(dest_no)[to_seat] = SeatedPlayer(player.player_id, player.name)
        moves.append(Move(player.player_id, player.name, source_no, from_seat, dest_no, to_seat))
        dest_tables[dest_no] = None
        counts[source_no] -= 1
        counts[dest_no] += 1
        heapq.heappush(fullest, (-counts[source_no], rank(source_no), source_no))
        heapq.heappush(fullest, (-counts[dest_no], rank(dest_no), dest_no))
        heapq.heappush(shortest, (counts[source_no], tuple(-x for x in rank(source_no)),
                                  source_no))
        heapq.heappush(shortest, (counts[dest_no], tuple(-x for x in rank(dest_no)), dest_no))
    if not moves:
        return SeatingPlan(PlanKind.NONE)
    finished = {n: work.table(n) for n in dest_tables}
    noted = []
    for m in moves:
        note, status = _balance_note(finished[m.to_table], m.to_seat, policy)
        noted.append(replace(m, note=note, status=status))
    return SeatingPlan(PlanKind.BALANCE, tuple(noted),
                       note=f"Balance tables: {len(moves)} move{'s' if len(moves) > 1 else ''}",
                       floor_notes=tuple(floor_notes))


def _big_blind_twice(dest: TableState, to_seat: int, name: str,
                     policy: SeatingPolicy) -> str | None:
    """The TDA 11-A "big blind twice" question, when it changes the mover's seat."""
    last = dest.last_hand
    if last is None or _stud_table(dest, policy) or last.big_blind in dest.seats:
        return None
    if hands_until_big_blind(to_seat, last, dest.seats, dest.size) == 0:
        return None
    return (f"table {dest.number} seat {last.big_blind} posted the last big blind and is "
            f"open: TDA 11-A lets {name} take it and post the big blind again; these rules "
            f"make it the small blind and seat him in seat {to_seat} - confirm with the house")


def blinds_affected(table: TableState) -> bool:
    """Whether the next hand's blinds fall short: no small blind, or the big
    blind passing over an empty seat (TDA 11-D "once the blinds are impacted")."""
    last = table.last_hand
    if last is None or table.count < 2:
        return True
    due_seat = last.big_blind % table.size + 1
    return last.big_blind not in table.seats or due_seat not in table.seats


def halted_tables(layout: Layout, policy: SeatingPolicy) -> list[int]:
    """Tables where play halts until balanced (TDA 11-D; [BAL-1]).

    A table ``halt_short_by`` (3) or more players short of the fullest table
    halts once its blinds are affected (stud tables: at once).
    """
    if not layout.tables:
        return []
    most = max(t.count for t in layout.tables)
    return [t.number for t in layout.tables
            if most - t.count >= policy.halt_short_by
            and (_stud_table(t, policy) or blinds_affected(t))]


# --------------------------------------------------------------------------- breaking


def next_table_to_break(layout: Layout, policy: SeatingPolicy) -> int:
    """The next table in the pre-announced breaking order (TDA 10-B)."""
    if len(layout.tables) < 2:
        raise RuleViolation("The last table cannot break")
    return min(layout.numbers, key=policy.breaking_rank)


def break_table(layout: Layout, number: int, policy: SeatingPolicy,
                rng: random.Random | None = None, *, resize: Mapping[int, int] | None = None,
                ) -> SeatingPlan:
    """Reseat a broken table's players by the two-step random draw (TDA 10-B, 11-C).

    Seat cards are taken from the tables with the fewest players (ties at
    random), one open seat at random each time, so the field stays balanced;
    the players are put in a random order (a card dealt to each) and the
    shuffled seat cards handed out in that order.  They may land on any
    seat, blinds and button included, and are dealt in at once except
    between the small blind and the button.
    """
    rng = _check_rng(rng)
    broken = layout.table(number)
    work = _Work(layout)
    for n, size in (resize or {}).items():
        work.tables[n] = replace(work.tables[n], size=size)
    others = [work.table(n) for n in layout.numbers if n != number]
    if sum(t.size - t.count for t in others) < broken.count:
        raise RuleViolation("Table {table} cannot break: {count} players, fewer open seats "
                            "elsewhere", table=number, count=broken.count)
    counts = {t.number: t.count for t in others}
    free = {t.number: t.open_seats for t in others}
    cards: list[tuple[int, int]] = []
    for _ in range(broken.count):
        low = min(c for n, c in counts.items() if free[n])
        table_no = rng.choice([n for n, c in counts.items() if c == low and free[n]])
        seat = free[table_no].pop(rng.randrange(len(free[table_no])))
        counts[table_no] += 1
        cards.append((table_no, seat))
    rng.shuffle(cards)                                # step 1: the seat cards face down
    players = sorted(broken.seats.items())
    rng.shuffle(players)                              # step 2: a card dealt to each player
    moves = []
    for (seat, p), (to_table, to_seat) in zip(players, cards, strict=True):
        moves.append(Move(p.player_id, p.name, number, seat, to_table, to_seat))
        work.seats_of(to_table)[to_seat] = SeatedPlayer(p.player_id, p.name)
    noted = _arrival_moves(work, moves)
    return SeatingPlan(PlanKind.BREAK, tuple(sorted(noted, key=lambda m: (m.to_table, m.to_seat))),
                       open_tables=dict(resize or {}), close_tables=(number,),
                       note=f"Break table {number}")


def redraw(layout: Layout, tables: int, policy: SeatingPolicy,
           rng: random.Random | None = None) -> SeatingPlan:
    """Redraw every seat onto ``tables`` tables (RRP *Tournaments*; WSOP-T 67-c).

    The tables kept are the last ones in the breaking order; the others
    close.  One table left is the final table, ``policy.final_size`` seats
    (TDA RP-9).  The button is redrawn at each table (WSOP-T: at the final
    table).
    """
    rng = _check_rng(rng)
    players = [(t.number, s, p) for t in layout.tables for s, p in sorted(t.seats.items())]
    if tables < 1 or tables > len(layout.tables):
        raise RuleViolation("Cannot redraw {count} players onto {tables} tables",
                            count=len(players), tables=tables)
    size = policy.final_size if tables == 1 else policy.table_size
    kept = sorted(sorted(layout.numbers, key=policy.breaking_rank)[-tables:])
    if len(players) > size * tables:
        raise RuleViolation("{count} players do not fit at {tables} tables",
                            count=len(players), tables=tables)
    counts = _even_counts(len(players), tables)
    rng.shuffle(counts)
    cards = [(n, s) for n, k in zip(kept, counts, strict=True) for s in _random_seats(rng, size, k)]
    rng.shuffle(cards)
    rng.shuffle(players)
    final = tables == 1
    note = "final table redraw" if final else "redraw"
    moves = tuple(sorted((Move(p.player_id, p.name, n, s, tn, ts, note)
                          for (n, s, p), (tn, ts) in zip(players, cards, strict=True)),
                         key=lambda m: (m.to_table, m.to_seat)))
    buttons = {} if policy.stud_only else _draw_buttons(rng, moves)
    resize = {n: size for n in kept if layout.table(n).size != size}
    return SeatingPlan(PlanKind.FINAL_TABLE if final else PlanKind.REDRAW, moves,
                       open_tables=resize,
                       close_tables=tuple(n for n in layout.numbers if n not in kept),
                       buttons=buttons,
                       note="Final table: redraw for seats" if final else
                       f"Redraw for seats at {tables} tables")


def plan_seating(layout: Layout, policy: SeatingPolicy,
                 rng: random.Random | None = None) -> SeatingPlan:
    """The next seating step after busts: break or redraw if a table can go, else balance.

    * Fewer tables needed (:meth:`SeatingPolicy.tables_needed`) and that
      count is a redraw point: :func:`redraw` (the final table if one).
    * Fewer tables needed otherwise: :func:`break_table` on the next table
      in the breaking order (one table per plan; call again).
    * Otherwise :func:`balance_tables` (kind NONE when nothing to do).
    """
    players = layout.player_count
    if players < 2 or not layout.tables:
        return SeatingPlan(PlanKind.NONE)
    needed = policy.tables_needed(players)
    current = len(layout.tables)
    if needed < current:
        if needed in policy.redraw_at_tables:
            return redraw(layout, needed, policy, rng)
        number = next_table_to_break(layout, policy)
        resize = None
        if current - 1 == 1:
            last = next(n for n in layout.numbers if n != number)
            if layout.table(last).size != policy.final_size:
                resize = {last: policy.final_size}
        return break_table(layout, number, policy, rng, resize=resize)
    return balance_tables(layout, policy)


# --------------------------------------------------------------------------- hand-for-hand


def hand_chip_unit(policy: SeatingPolicy, forced_bets: Iterable[int], stacks: Iterable[int]) -> int:
    """The smallest chip in play for a hand (TDA 20; RULES.md §7.3 step 1): the
    director's setting, else the largest chip that every forced bet of the level
    and every stack at the table is made of.

    Blinds 25/50 and stacks of 10,000 and 9,875: T25.

    >>> hand_chip_unit(SeatingPolicy(), [25, 50], [10_000, 9_875])
    25
    >>> hand_chip_unit(SeatingPolicy(), [100, 200], [10_000, 12_000])
    100
    >>> hand_chip_unit(SeatingPolicy(smallest_chip=25), [100, 200], [10_000, 12_000])
    25
    """
    if policy.smallest_chip:
        return policy.smallest_chip
    return math.gcd(*(v for v in (*forced_bets, *stacks) if v > 0)) or 1


@dataclass(frozen=True)
class HandForHand:
    """Hand-for-hand play near the money (TDA RP-8; WSOP-T 126).

    ``announced``: "finish the current hand, then hold" has been called; busts
    in that hand share the places in play ([H4H-1]).  ``on``: every table
    deals one hand and waits.  ``hands_played`` counts hand-for-hand hands.
    ``since``: when the current round began (the announcement, the start, or
    the end of the last hand-for-hand hand): a table that has finished a hand
    dealt since then waits for the others.  ``busts``: the players eliminated
    in the current round so far, so that busts at different tables, recorded
    as each table finishes, are placed together ([H4H-1], [H4H-2]).
    ``paused_clock``: the start paused the running clock (TDA RP-8: the time
    comes off per hand instead), so the end restarts it; a clock the director
    had stopped before stays stopped.
    """

    on: bool = False
    announced: bool = False
    hands_played: int = 0
    since: datetime | None = None
    busts: tuple[Bust, ...] = ()
    paused_clock: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"on": self.on, "announced": self.announced, "hands_played": self.hands_played,
                "since": self.since.isoformat() if self.since is not None else None,
                "busts": [[b.player_id, b.table, b.starting_chips] for b in self.busts],
                "paused_clock": self.paused_clock}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandForHand:
        since = data.get("since")
        return cls(bool(data.get("on", False)), bool(data.get("announced", False)),
                   int(data.get("hands_played", 0)),
                   datetime.fromisoformat(since) if isinstance(since, str) else None,
                   tuple(Bust(int(p), int(t), int(c)) for p, t, c in data.get("busts") or ()),
                   bool(data.get("paused_clock", False)))


def announce_hand_for_hand(state: HandForHand, now: datetime | None = None) -> HandForHand:
    """"Finish the current hand, then hold": the announcement hand's round begins."""
    return replace(state, announced=True, since=now, busts=())


def start_hand_for_hand(state: HandForHand, now: datetime | None = None) -> HandForHand:
    """Every table has finished the announcement hand: hand-for-hand begins."""
    return replace(state, on=True, announced=False, since=now, busts=())


def finish_hand_for_hand_hand(state: HandForHand, policy: SeatingPolicy,
                              now: datetime | None = None) -> tuple[HandForHand, int]:
    """All tables have finished a hand-for-hand hand: the next round begins at ``now``.

    Returns the new state and the seconds to take off the clock (TDA RP-8:
    per hand, not in batches); the service passes them to
    ``clock.hand_for_hand_deduction``.
    """
    if not state.on:
        raise RuleViolation("Hand-for-hand is not on")
    return (replace(state, hands_played=state.hands_played + 1, since=now, busts=()),
            policy.hand_for_hand_seconds)


def end_hand_for_hand(state: HandForHand) -> HandForHand:
    return HandForHand()


@dataclass(frozen=True, slots=True)
class Bust:
    """A player eliminated in a hand, with the chips he had when it began."""

    player_id: int
    table: int
    starting_chips: int


@dataclass(frozen=True, slots=True)
class Finish:
    """Places ``first``..``last`` shared by ``player_ids`` (one player: no tie)."""

    first: int
    last: int
    player_ids: tuple[int, ...]

    @property
    def place(self) -> int:
        """The place every player of the group is listed at (the best of them)."""
        return self.first

    @property
    def tied(self) -> bool:
        return len(self.player_ids) > 1

    def to_json(self) -> dict[str, Any]:
        return {"first": self.first, "last": self.last, "player_ids": list(self.player_ids)}


def place_busts(busts: Sequence[Bust], players_left: int, *, hand_for_hand: bool = False,
                announcement_hand: bool = False) -> tuple[Finish, ...]:
    """Finishing places for the players eliminated in one hand (best place first).

    ``players_left`` counts the players before this hand's busts, so the
    busted players take places ``players_left - len(busts) + 1`` to
    ``players_left``.

    * The hand during which hand-for-hand was announced: they all share the
      places in play ([H4H-1]; TDA RP-8).
    * Hand-for-hand: players at different tables tie; at the same table the
      one who began the hand with more chips finishes higher (WSOP-T 126-b;
      not in TDA 2024 - surface it to the floor), equal stacks tie.  With
      several busts at several tables, each table's shortest stack goes out
      first: the shortest stacks of all tables tie for the lowest places,
      then the next shortest, and so on (our choice; the rules say nothing).
    * Otherwise the busts must come from one table and hand: the bigger
      starting stack finishes higher (common practice, RULES.md §9.8).

    [H4H-2] 51 left, X (table 1) and Y (table 4) bust hand-for-hand:

    >>> place_busts([Bust(1, 1, 12000), Bust(2, 4, 8000)], 51, hand_for_hand=True)
    (Finish(first=50, last=51, player_ids=(1, 2)),)
    """
    if not busts:
        return ()
    ids = [b.player_id for b in busts]
    if len(set(ids)) != len(ids):
        raise RuleViolation("A player cannot bust twice")
    if len(busts) >= players_left:
        raise RuleViolation("{count} busts leave nobody in the tournament of {left}",
                            count=len(busts), left=players_left)
    if any(b.starting_chips < 0 for b in busts):
        raise RuleViolation("A stack cannot be negative")
    order = sorted(busts, key=lambda b: (b.table, b.player_id))
    if announcement_hand:
        groups = [order]
    else:
        if not hand_for_hand and len({b.table for b in busts}) > 1:
            raise RuleViolation("Outside hand-for-hand, record each table's busts separately")
        # Rank from the bottom within each table: 0 = the shortest stack.
        levels: dict[int, list[Bust]] = {}
        for table in sorted({b.table for b in busts}):
            stacks = sorted({b.starting_chips for b in busts if b.table == table})
            for b in order:
                if b.table == table:
                    levels.setdefault(stacks.index(b.starting_chips), []).append(b)
        groups = [levels[k] for k in sorted(levels, reverse=True)]
    finishes = []
    place = players_left - len(busts) + 1
    for group in groups:
        group = sorted(group, key=lambda b: (b.table, b.player_id))
        finishes.append(Finish(place, place + len(group) - 1, tuple(b.player_id for b in group)))
        place += len(group)
    return tuple(finishes)


def share_prizes(finishes: Iterable[Finish], payouts: Sequence[int]) -> dict[int, int]:
    """Each player's prize (integer cents or chips) for finishes with ties.

    ``payouts[i]`` is the prize for place ``i + 1``; places beyond the list
    pay nothing.  Tied players share the sum of their places' prizes; what
    does not divide evenly goes one unit each to the tied players in the
    order of ``Finish.player_ids`` (table number, then player id): a fixed
    order nobody can choose, like the odd-chip rule.

    [H4H-1] three players share the 50th prize of 30001 and two unpaid places:

    >>> share_prizes([Finish(50, 52, (5, 6, 7))], [0] * 49 + [30001])
    {5: 10001, 6: 10000, 7: 10000}
    """
    shares: dict[int, int] = {}
    for f in finishes:
        total = sum(payouts[p - 1] for p in range(f.first, f.last + 1) if p <= len(payouts))
        base, extra = divmod(total, len(f.player_ids))
        for i, pid in enumerate(f.player_ids):
            shares[pid] = base + (1 if i < extra else 0)
    return shares


# --------------------------------------------------------------------------- undoing a bust


def reinstate_players(layout: Layout, table: int, seats: Mapping[int, SeatedPlayer]) -> Layout:
    """The layout with players whose bust was undone back in their own seats.

    The dealer may take back the last action of a hand until the next hand
    starts (issue 5); when that reopens a hand that eliminated players, they
    were never out: each goes back to the seat he played the hand from
    (``seats`` maps seat number -> player), dealt in (not waiting), and the
    seat is no longer counted as vacated.  The button and blinds stay those
    of the hand, which is being played again.  Refused (``RuleViolation``)
    when the table is gone, the seat no longer exists or is taken, or the
    player already has a seat.

    >>> t = TableState(1, 6, {1: SeatedPlayer(1, "Ann"), 4: SeatedPlayer(2, "Bo")},
    ...                button_seat=1, sb_seat=4, bb_seat=1, vacated=(2, 6))
    >>> back = reinstate_players(Layout((t,)), 1, {6: SeatedPlayer(3, "Cy")}).table(1)
    >>> sorted(back.seats), back.vacated, back.button_seat
    ([1, 4, 6], (2,), 1)
    """
    if table not in layout.numbers:
        raise RuleViolation("Table {table} is no longer in play", table=table)
    state = layout.table(table)
    seated = {p.player_id: (t.number, s) for t in layout.tables for s, p in t.seats.items()}
    new_seats = dict(state.seats)
    for seat, player in sorted(seats.items()):
        if player.player_id in seated:
            at_table, at_seat = seated[player.player_id]
            raise RuleViolation("{name} already has a seat (table {table} seat {seat})",
                                name=player.name, table=at_table, seat=at_seat)
        if not 1 <= seat <= state.size:
            raise RuleViolation("Table {table} has no seat {seat} any more", table=table,
                                seat=seat)
        here = new_seats.get(seat)
        if here is not None:
            raise RuleViolation("Table {table} seat {seat} is taken by {other}: {name} cannot "
                                "go back there", table=table, seat=seat, other=here.name,
                                name=player.name)
        new_seats[seat] = replace(player, waiting=False)
    back = replace(state, seats=new_seats,
                   vacated=tuple(s for s in state.vacated if s not in new_seats))
    return layout.with_table(back)


@dataclass(frozen=True, slots=True)
class Elimination:
    """A finished player: places ``first``..``last`` (``last == first`` unless
    shared) and ``hand``, the order of the busts (players eliminated in the
    same hand share it; a later hand has a bigger number)."""

    player_id: int
    first: int
    last: int
    hand: int


def places_after_reinstatement(eliminations: Iterable[Elimination],
                               reinstated: Iterable[int]) -> dict[int, tuple[int, int]]:
    """The places that change when the bust of ``reinstated`` players is undone.

    A place counts the players still in when a player went out (the busts of
    one hand take places ``left - busts + 1`` .. ``left``, :func:`place_busts`).
    A reinstated player never went out, so he was still in at every later bust:

    * a player who went out *after* him (a later hand, or the same hand
      finishing higher) finishes one place lower (the number goes up by 1)
      for each reinstated player;
    * a player who *shared* his places (a hand-for-hand tie, [H4H-2]) keeps
      the last place of the tie, and its first place goes up by 1 for each
      reinstated player who leaves the tie;
    * a player who went out *before* him keeps his place.

    Returns ``{player_id: (first, last)}`` for the players whose places change.

    10 players.  Ann busts (10th), then Bo at another table (9th), then Cy
    and Di tie hand-for-hand for 7th-8th.  Undo Ann's bust: Bo was out with
    10 players left, so he is 10th; Cy and Di share 8th-9th:

    >>> out = [Elimination(1, 10, 10, hand=1), Elimination(2, 9, 9, hand=2),
    ...        Elimination(3, 7, 8, hand=3), Elimination(4, 7, 8, hand=3)]
    >>> places_after_reinstatement(out, [1])
    {2: (10, 10), 3: (8, 9), 4: (8, 9)}

    [H4H-2] X and Y share 50th-51st; undo Y's bust and X alone is 51st:

    >>> places_after_reinstatement([Elimination(1, 50, 51, 1), Elimination(2, 50, 51, 1)], [2])
    {1: (51, 51)}
    """
    out = list(eliminations)
    ids = set(reinstated)
    back = [e for e in out if e.player_id in ids]
    changed: dict[int, tuple[int, int]] = {}
    for e in out:
        if e.player_id in ids:
            continue
        later = sum(1 for r in back if r.hand < e.hand or (r.hand == e.hand and r.first > e.last))
        shared = sum(1 for r in back if r.hand == e.hand and (r.first, r.last) == (e.first, e.last))
        if later or shared:
            changed[e.player_id] = (e.first + later + shared, e.last + later)
    return changed


def seat_after_undone_bust(layout: Layout, player_id: int, name: str, table: int | None,
                           seat: int | None, policy: SeatingPolicy,
                           rng: random.Random | None = None) -> SeatingPlan:
    """Where a player whose bust the director undid sits again.

    He never went out, so he goes back to the seat he went out from when it is
    still there and open; otherwise (the table broke, the seat was filled by a
    move or a late registrant) he gets the seat the rules give a player joining
    play: a random open seat at the shortest tables (TDA 8-A,
    :func:`seat_new_player`).  Either way he is dealt in at once, except in a
    seat between the small blind and the button (RULES.md §1.6).

    >>> t = TableState(1, 6, {1: SeatedPlayer(1, "Ann"), 4: SeatedPlayer(2, "Bo")})
    >>> seat_after_undone_bust(Layout((t,)), 3, "Cy", 1, 6, SeatingPolicy()).moves[0].to_seat
    6
    >>> seat_after_undone_bust(Layout((t,)), 3, "Cy", 1, 4, SeatingPolicy(),
    ...                        random.Random(1)).moves[0].to_seat in (2, 3, 5, 6)
    True
    """
    if table in layout.numbers and seat is not None:
        state = layout.table(table)
        if 1 <= seat <= state.size and seat not in state.seats:
            status = seat_status(seat, state.last_hand, state.seats, state.size,
                                 game_is_stud=state.game_is_stud) if state.seats \
                else SeatStatus.DEALT_IN
            move = Move(player_id, name, None, None, table, seat, status.value, status)
            return SeatingPlan(PlanKind.NEW_PLAYER, (move,))
    return seat_new_player(layout, player_id, name, policy, rng)


STUD_MAX_SEATS = 8
"""Seven-card stud seats at most 8 players (RULES.md §3.1, §3.7: 8 × 7 cards already
needs the common-card rule; TDA RP-10; no room deals stud 9- or 10-handed)."""


def seats_for_game(policy: SeatingPolicy, *, stud_levels: bool) -> SeatingPolicy:
    """The policy the draw, the balancing and the final table follow.

    When the structure has seven-card stud levels, tables and the final table
    seat at most :data:`STUD_MAX_SEATS` (``min(size, 8)``), whatever the stored
    settings say, so a table is never drawn that the stud levels cannot deal to.
    Otherwise the policy is unchanged.

    >>> p = seats_for_game(SeatingPolicy(table_size=9), stud_levels=True)
    >>> p.table_size, p.final_size
    (8, 8)
    >>> p = seats_for_game(SeatingPolicy(table_size=6), stud_levels=True)
    >>> p.table_size, p.final_size
    (6, 7)
    >>> seats_for_game(SeatingPolicy(table_size=10), stud_levels=False).final_size
    10
    """
    if not stud_levels:
        return policy
    final = min(policy.final_size, STUD_MAX_SEATS)
    return replace(policy, table_size=min(policy.table_size, STUD_MAX_SEATS),
                   final_table_size=final if final != policy.final_size
                   else policy.final_table_size)


def stud_overrides(stored: SeatingPolicy, *, stud_levels: bool) -> bool:
    """Do the saved settings ask for more than stud seats (a table or a set final table
    over :data:`STUD_MAX_SEATS`) while the structure has stud levels?  Then the stud cap
    (:func:`seats_for_game`) overrides them, and the director is told so.  A final table
    left to TDA RP-9 is not the settings' asking: it follows the table size.

    >>> stud_overrides(SeatingPolicy(table_size=9), stud_levels=True)
    True
    >>> stud_overrides(SeatingPolicy(table_size=8, final_table_size=9), stud_levels=True)
    True
    >>> stud_overrides(SeatingPolicy(table_size=8), stud_levels=True)
    False
    >>> stud_overrides(SeatingPolicy(table_size=10), stud_levels=False)
    False
    """
    return stud_levels and (stored.table_size > STUD_MAX_SEATS
                            or (stored.final_table_size or 0) > STUD_MAX_SEATS)


def table_size_allowed(size: int, *, stud_levels: bool) -> bool:
    """May tables seat ``size`` players?  Any of :data:`TABLE_SIZES`, but not more than
    :data:`STUD_MAX_SEATS` while the structure has stud levels.

    >>> table_size_allowed(9, stud_levels=True), table_size_allowed(9, stud_levels=False)
    (False, True)
    """
    return size in TABLE_SIZES and not (stud_levels and size > STUD_MAX_SEATS)


BIG_FIELD = 100
"""WSOP-T 67-c: seats are redrawn at 3 and 2 tables only in fields of 100 or more entrants."""
BIG_FIELD_REDRAWS = (3, 2)


def big_field_redraw_offered(stored: SeatingPolicy, entrants: int) -> bool:
    """Is the house flag for the 3- and 2-table redraws (WSOP-T 67-c) offered: once the
    field has reached :data:`BIG_FIELD`, or while the flag is on (so it can be turned off).

    >>> big_field_redraw_offered(SeatingPolicy(), 99), big_field_redraw_offered(SeatingPolicy(), 100)
    (False, True)
    >>> big_field_redraw_offered(SeatingPolicy(redraw_big_field=True), 12)
    True
    """
    return entrants >= BIG_FIELD or stored.redraw_big_field


def redraw_points(policy: SeatingPolicy, entrants: int) -> SeatingPolicy:
    """The redraw points the plan follows for a field of ``entrants``.

    The final table is redrawn by default.  TDA 2024 has no redraw rule and
    WSOP-T 67-c redraws at 3 and 2 tables only in fields of 100 or more, so
    those two redraws are the house flag ``redraw_big_field``, and even with
    it on they apply only once the field has reached :data:`BIG_FIELD`.

    >>> redraw_points(SeatingPolicy(redraw_big_field=True), 120).redraw_at_tables
    (3, 2, 1)
    >>> redraw_points(SeatingPolicy(redraw_big_field=True), 24).redraw_at_tables
    (1,)
    >>> redraw_points(SeatingPolicy(), 300).redraw_at_tables
    (1,)
    """
    if not policy.redraw_big_field or entrants < BIG_FIELD:
        return policy
    points = set(policy.redraw_at_tables) | set(BIG_FIELD_REDRAWS)
    return replace(policy, redraw_at_tables=tuple(sorted(points, reverse=True)))
