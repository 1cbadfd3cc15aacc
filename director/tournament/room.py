"""The room at registration: is it full, a seat the director chooses, the waiting list.

* **The room** (:func:`room_of`): the seating settings say how many tables the
  room has for the event (``SeatingPolicy.room_tables``; None: as many as the
  field needs) and how many players a table seats.  The room is full when every
  seat at every table it has is taken; before the seat draw, when the registered
  players fill those seats.  A buy-in in a full room does not fail: the player
  waits on the waiting list until a seat opens (a bust, or a table added).
* **A seat the director chooses** (:func:`choose_seat`): TDA 7 assigns seats at
  random (RULES.md §1.6, §9.3); a director may place a player by hand, e.g. for
  a disability or an accessibility need.  The event's setting
  (``SeatingPolicy.seat_choice``) says whether he may: ``never``, ``reason``
  (the TDA default here: only with the reason, which is logged) or ``free``.
  A chosen seat is refused when the table is not in play, the seat does not
  exist or is taken.  Like any new player he is dealt in at once, except
  between the small blind and the button (TDA 8-A, [SEAT-1..3]).
* **Alternates**: RULES.md §9.3 seats alternates like late registrants, "full
  stacks and a random seat from the same pool".  An alternate is the first
  player on the waiting list; when a registered player does not show up, his
  seat is freed (his buy-in refunded or kept, the director's choice) and the
  alternate buys in and is seated at random from the open seats, which in a
  full room is the no-show's seat.

>>> policy = SeatingPolicy(table_size=6, room_tables=2)
>>> room_of(Layout(()), policy, registered=12).full
True
>>> room = room_of(Layout(()), policy, registered=7)
>>> room.full, room.open_seats
(False, 5)
"""

from __future__ import annotations

from dataclasses import dataclass

from director.poker.errors import RuleViolation
from director.tournament.button import SeatStatus, seat_status
from director.tournament.seating import Layout, Move, PlanKind, SeatingPlan, SeatingPolicy

__all__ = ["REASON_MAX", "Room", "SeatChoiceRefused", "can_choose_seat", "choose_seat",
           "room_counted", "room_of", "verify_seat_choice"]

REASON_MAX = 200


@dataclass(frozen=True)
class Room:
    """The room's seats for the event: ``tables`` None means no limit (never full)."""

    tables: int | None
    table_size: int
    seated: int
    open_seats: int | None      # None: no limit

    @property
    def full(self) -> bool:
        return self.open_seats is not None and self.open_seats <= 0

    @property
    def capacity(self) -> int | None:
        return None if self.open_seats is None else self.seated + self.open_seats


def room_of(layout: Layout, policy: SeatingPolicy, *, registered: int) -> Room:
    """The room now: before the draw the ``registered`` players fill ``tables × table
    size`` seats (one table: the final table's size, as the draw makes it); after it, the open seats of the tables in play plus every seat of the
    tables the room still has (a broken table can be opened again).

    >>> policy = SeatingPolicy(table_size=6, room_tables=2)
    >>> from director.tournament.seating import TableState, SeatedPlayer
    >>> table = TableState(1, 6, {s: SeatedPlayer(s, f"P{s}") for s in range(1, 7)})
    >>> room_of(Layout((table,)), policy, registered=6).open_seats   # table 2 is free
    6
    >>> room_of(Layout((table,)), SeatingPolicy(table_size=6, room_tables=1),
    ...         registered=6).full
    True
    """
    return room_counted(policy, tables=len(layout.tables), seated=layout.player_count,
                        open_seats=sum(len(t.open_seats) for t in layout.tables),
                        registered=registered)


def room_counted(policy: SeatingPolicy, *, tables: int, seated: int, open_seats: int,
                 registered: int) -> Room:
    """:func:`room_of` from what a database counts: the ``tables`` in play, the players
    ``seated`` at them and their ``open_seats`` (``registered`` counts only before the
    draw), so a reader of the room need not load every seat.

    >>> room_counted(SeatingPolicy(table_size=6, room_tables=2), tables=1, seated=6,
    ...              open_seats=0, registered=6).open_seats   # table 2 is free
    6
    >>> room_counted(SeatingPolicy(table_size=9), tables=0, seated=0, open_seats=0,
    ...              registered=40).seated     # no limit: never full
    40
    """
    if policy.room_tables is None:
        return Room(None, policy.table_size, seated if tables else registered, None)
    if not tables:      # one table is drawn at the final table's size (TDA RP-9)
        seats = policy.final_size if policy.room_tables == 1 \
            else policy.room_tables * policy.table_size
        return Room(policy.room_tables, policy.table_size, registered, seats - registered)
    spare = max(0, policy.room_tables - tables) * policy.table_size
    return Room(policy.room_tables, policy.table_size, seated, open_seats + spare)


class SeatChoiceRefused(RuleViolation):
    """Why a chosen seat is refused, with the request ``field`` it is about
    (``table``, ``seat`` or ``reason``)."""

    def __init__(self, field: str, template: str, **params: object) -> None:
        super().__init__(template, rule="TDA 7", **params)
        self.field = field


def verify_seat_choice(layout: Layout, policy: SeatingPolicy, table: int, seat: int,
                       reason: str) -> None:
    """Raise :class:`SeatChoiceRefused` when the director may not put a new player in
    ``table``/``seat`` now (see the module's docstring)."""
    if policy.seat_choice == "never":
        raise SeatChoiceRefused("table", "This event's seating settings do not let the director "
                                "choose a seat: seats are drawn at random (TDA 7)")
    if policy.seat_choice == "reason" and not reason.strip():
        raise SeatChoiceRefused("reason", "Give the reason for choosing the seat (for example an "
                                "accessibility need): seats are otherwise drawn at random "
                                "(TDA 7)")
    if len(reason) > REASON_MAX:
        raise SeatChoiceRefused("reason", "The reason may be at most {max} characters long",
                                max=REASON_MAX)
    if not layout.tables:
        raise SeatChoiceRefused("table", "Seats are not drawn yet: register the player now and "
                                "reseat him by hand after the draw")
    if table not in layout.numbers:
        raise SeatChoiceRefused("table", "There is no table {table} in play", table=table)
    chosen = layout.table(table)
    if not 1 <= seat <= chosen.size:
        raise SeatChoiceRefused("seat", "Table {table} has seats 1 to {size}", table=table,
                                size=chosen.size)
    here = chosen.seats.get(seat)
    if here is not None:
        raise SeatChoiceRefused("seat", "Table {table} seat {seat} is taken by {name}",
                                table=table, seat=seat, name=here.name)


def can_choose_seat(layout: Layout, policy: SeatingPolicy, table: int, seat: int,
                    reason: str) -> bool:
    try:
        verify_seat_choice(layout, policy, table, seat, reason)
    except RuleViolation:
        return False
    return True


def choose_seat(layout: Layout, player_id: int, name: str, table: int, seat: int,
                policy: SeatingPolicy, reason: str) -> SeatingPlan:
    """A new player put in the seat the director chose (checked by
    :func:`verify_seat_choice`); dealt in now, except between the small blind and the
    button (TDA 8-A).  The reason is the caller's to log.

    >>> from director.tournament.seating import TableState, SeatedPlayer
    >>> t = TableState(1, 6, {1: SeatedPlayer(1, "Ann"), 4: SeatedPlayer(2, "Bo")})
    >>> plan = choose_seat(Layout((t,)), 3, "Cy", 1, 2, SeatingPolicy(), "wheelchair")
    >>> plan.moves[0].describe()
    'Cy: table 1 seat 2 (dealt in now)'
    """
    verify_seat_choice(layout, policy, table, seat, reason)
    if any(p.player_id == player_id for t in layout.tables for p in t.seats.values()):
        raise RuleViolation("{name} already has a seat", name=name)
    chosen = layout.table(table)
    status = seat_status(seat, chosen.last_hand, chosen.seats, chosen.size,
                         game_is_stud=chosen.game_is_stud) if chosen.seats \
        else SeatStatus.DEALT_IN
    move = Move(player_id, name, None, None, table, seat, status.value, status)
    return SeatingPlan(PlanKind.NEW_PLAYER, (move,))
