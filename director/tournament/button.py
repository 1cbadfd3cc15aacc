"""The button and the blinds from hand to hand: the dead button (TDA 2024 rule 32).

Tournaments use a *dead button*: the big blind is posted by the player due
for it, and the small blind and the button are then placed accordingly,
even on an empty seat (RULES.md §1.5; RRP *Button and Blind Use*)::

    next.big_blind   = first OCCUPIED seat clockwise after last.big_blind
    next.small_blind = last.big_blind seat  (posts only if still occupied)
    next.button      = last.small_blind seat (may be empty: "dead button")

Heads-up (TDA 34-B): the button is the small blind and the big blind goes to
the player due for it, so nobody posts the big blind twice in a row.

Seats are numbered 1..size clockwise.  A :class:`Positions` always names the
*seats*, occupied or not; whether a small blind is posted follows from who
sits there (:meth:`Positions.posts_small_blind`).

[BTN-2] 6-max, button S1, SB S2, BB S3; the BB (S3) busts:

>>> hand1 = Positions(button=1, small_blind=2, big_blind=3)
>>> hand2 = next_positions(hand1, occupied={1, 2, 4, 5, 6}, size=6)
>>> hand2, hand2.posts_small_blind({1, 2, 4, 5, 6})
(Positions(button=2, small_blind=3, big_blind=4), False)
>>> next_positions(hand2, occupied={1, 2, 4, 5, 6}, size=6)
Positions(button=3, small_blind=4, big_blind=5)

Stud has no button: a table whose game is stud keeps its positions frozen
(TDA 11-B, see :func:`advance`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from enum import StrEnum

from director.poker.errors import RuleViolation

__all__ = [
    "Positions",
    "SeatStatus",
    "advance",
    "clockwise",
    "first_positions",
    "hands_until_big_blind",
    "is_between",
    "last_to_act",
    "next_occupied",
    "next_positions",
    "seat_status",
    "start_positions",
    "worst_position",
]


@dataclass(frozen=True, slots=True)
class Positions:
    """The seats of the button, the small blind and the big blind for one hand.

    In heads-up play ``button == small_blind``.  The button seat may be empty
    (dead button) and so may the small-blind seat (no small blind is posted);
    the big-blind seat is always occupied.
    """

    button: int
    small_blind: int
    big_blind: int

    @property
    def heads_up(self) -> bool:
        return self.button == self.small_blind

    def posts_small_blind(self, occupied: Collection[int]) -> bool:
        """Whether anybody posts the small blind (nobody when its seat is empty)."""
        return self.small_blind in occupied

    def dead_button(self, occupied: Collection[int]) -> bool:
        return self.button not in occupied

    def to_json(self) -> dict[str, int]:
        return {"button": self.button, "small_blind": self.small_blind,
                "big_blind": self.big_blind}

    @classmethod
    def from_json(cls, data: dict[str, int]) -> Positions:
        return cls(int(data["button"]), int(data["small_blind"]), int(data["big_blind"]))


class SeatStatus(StrEnum):
    """What happens to a player who takes an empty seat, on the next hand (TDA 8-A, 10-A)."""

    DEALT_IN = "dealt in now"
    WAITS = "waits for the button to pass"
    BIG_BLIND = "posts the big blind now"
    SMALL_BLIND = "posts the small blind now"


def _check_seat(seat: int, size: int) -> None:
    if not 1 <= seat <= size:
        raise RuleViolation("There is no seat {seat} at a {size}-seat table", seat=seat, size=size)


def clockwise(after: int, size: int) -> Iterator[int]:
    """The seats clockwise after ``after``, ending with ``after`` itself.

    >>> list(clockwise(4, 6))
    [5, 6, 1, 2, 3, 4]
    """
    for step in range(1, size + 1):
        yield (after - 1 + step) % size + 1


def next_occupied(after: int, occupied: Collection[int], size: int) -> int:
    """The first occupied seat clockwise after ``after`` (``after`` itself last)."""
    for seat in clockwise(after, size):
        if seat in occupied:
            return seat
    raise RuleViolation("Nobody is seated at this table")


def _previous_occupied(before: int, occupied: Collection[int], size: int) -> int:
    for step in range(1, size + 1):
        seat = (before - 1 - step) % size + 1
        if seat in occupied:
            return seat
    raise RuleViolation("Nobody is seated at this table")


def is_between(seat: int, start: int, end: int, size: int) -> bool:
    """Whether ``seat`` lies strictly clockwise after ``start`` and before ``end``.

    >>> is_between(5, 4, 6, 9), is_between(1, 8, 2, 9), is_between(4, 4, 6, 9)
    (True, True, False)
    """
    return 0 < (seat - start) % size < (end - start) % size


def _check_players(occupied: Collection[int]) -> None:
    if len(occupied) < 2:
        raise RuleViolation("A hand needs at least two players; this table has {count}",
                            count=len(occupied))


def next_positions(last: Positions, occupied: Collection[int], size: int) -> Positions:
    """Button and blinds for the next hand, given the last hand and who sits now.

    Dead button (TDA 32): the big blind goes to the first occupied seat after
    the last big blind, the small blind to the last big blind's seat and the
    button to the last small blind's seat.  Heads-up (TDA 34-B): the big
    blind still goes to the player due for it and the other player is button
    and small blind.

    [BTN-6] three left, button S1, SB S2, BB S3; S1 busts:

    >>> next_positions(Positions(1, 2, 3), occupied={2, 3}, size=9)
    Positions(button=3, small_blind=3, big_blind=2)
    """
    _check_players(occupied)
    for seat in occupied:
        _check_seat(seat, size)
    big_blind = next_occupied(last.big_blind, occupied, size)
    if len(occupied) == 2:
        other = next_occupied(big_blind, occupied, size)
        return Positions(button=other, small_blind=other, big_blind=big_blind)
    if last.heads_up:
        # Leaving heads-up (players joined): the button goes to the player
        # before the small blind, since the last button was also the SB.
        return Positions(button=_previous_occupied(last.big_blind, occupied, size),
                         small_blind=last.big_blind, big_blind=big_blind)
    return Positions(button=last.small_blind, small_blind=last.big_blind, big_blind=big_blind)


def first_positions(button: int, occupied: Collection[int], size: int) -> Positions:
    """The first hand's positions once the button has been placed on an occupied seat.

    RRP *Tournaments*: deal for high card to place the button; the blinds are
    the next occupied seats.  Heads-up the button is the small blind.

    >>> first_positions(9, occupied={2, 5, 9}, size=9)
    Positions(button=9, small_blind=2, big_blind=5)
    """
    _check_players(occupied)
    if button not in occupied:
        raise RuleViolation("The button starts on a player, and seat {seat} is empty", seat=button)
    small_blind = next_occupied(button, occupied, size)
    if len(occupied) == 2:
        return Positions(button=button, small_blind=button, big_blind=small_blind)
    return Positions(button, small_blind, next_occupied(small_blind, occupied, size))


def start_positions(button: int, occupied: Collection[int], size: int) -> Positions:
    """A virtual "last hand" whose successor has the button on ``button``.

    A table stores the positions of the hand last dealt; a table that has not
    dealt yet stores this, so that :func:`next_positions` gives the first
    hand (the same as :func:`first_positions`) and late arrivals are placed
    by the same rules as later on.

    >>> occupied = {2, 5, 9}
    >>> next_positions(start_positions(9, occupied, 9), occupied, 9)
    Positions(button=9, small_blind=2, big_blind=5)
    """
    first = first_positions(button, occupied, size)
    if first.heads_up:
        return Positions(button=first.big_blind, small_blind=first.big_blind, big_blind=button)
    return Positions(_previous_occupied(button, occupied, size), button, first.small_blind)


def advance(last: Positions | None, occupied: Collection[int], size: int, *,
            game_is_stud: bool) -> Positions | None:
    """Positions for the next hand at a table; stud keeps them frozen.

    Mixed games (TDA 11-B): when the game changes to stud the button freezes
    where it would be for the next flop hand, and the flop game resumes from
    there.  Keeping the last flop hand's positions unchanged through the stud
    round gives exactly that: ``next_positions`` then yields the button
    "where it would be".  A stud-only table has no positions at all (None).
    """
    if last is None or game_is_stud:
        return last
    return next_positions(last, occupied, size)


def last_to_act(positions: Positions, occupied: Collection[int], size: int) -> int:
    """The seat that acts last after the flop: the button, or with a dead button the
    first player counter-clockwise from it (RULES.md §1.2).

    [BTN-1] hand 2 has a dead button on S2, so S1 acts last again:

    >>> last_to_act(Positions(2, 3, 4), occupied={1, 3, 4, 5, 6}, size=6)
    1
    """
    if positions.button in occupied:
        return positions.button
    return _previous_occupied(positions.button, occupied, size)


def hands_until_big_blind(seat: int, last: Positions, occupied: Collection[int],
                          size: int) -> int:
    """How many hands before a player in ``seat`` posts the big blind (0 = next hand).

    Counts the occupied seats (other than ``seat``) that the big blind reaches
    first, going clockwise from the last big blind.  [SEAT-2]: last BB S6,
    players in S7 and S8, so a new player in S9 is big blind after two hands:

    >>> hands_until_big_blind(9, Positions(3, 4, 6), occupied={1, 2, 3, 4, 6, 7, 8}, size=9)
    2
    """
    _check_seat(seat, size)
    count = 0
    for other in clockwise(last.big_blind, size):
        if other == seat:
            return count
        if other in occupied:
            count += 1
    raise AssertionError("unreachable: clockwise() ends with the last big blind's seat")


def seat_status(seat: int, last: Positions | None, occupied: Collection[int], size: int, *,
                game_is_stud: bool = False) -> SeatStatus:
    """What a player placed in the empty ``seat`` does on the next hand (TDA 8-A, 10-A).

    New players, alternates, re-entries and players from a broken table are
    dealt in at once, in any seat, blinds and button included, except in a
    seat between the small blind and the button: there they wait until the
    button passes (RULES.md §1.6).  At a stud table everybody is dealt in.

    [SEAT-1] upcoming button S4, SB S6, BB S7 (S5 empty):

    >>> last = Positions(button=3, small_blind=4, big_blind=6)
    >>> seat_status(5, last, occupied={1, 2, 3, 4, 6, 7, 8}, size=9)
    <SeatStatus.WAITS: 'waits for the button to pass'>
    """
    _check_seat(seat, size)
    if seat in occupied:
        raise RuleViolation("Seat {seat} is taken", seat=seat)
    if last is None or game_is_stud or not occupied:
        return SeatStatus.DEALT_IN
    upcoming = next_positions(last, {*occupied, seat}, size)
    if seat == upcoming.big_blind:
        return SeatStatus.BIG_BLIND
    if seat == upcoming.small_blind:
        return SeatStatus.SMALL_BLIND
    if not upcoming.heads_up and is_between(seat, upcoming.button, upcoming.small_blind, size):
        return SeatStatus.WAITS
    return SeatStatus.DEALT_IN


def worst_position(open_seats: Collection[int], last: Positions, occupied: Collection[int],
                   size: int) -> int:
    """The open seat a player moved to balance takes (TDA 11-A).

    The worst position is the open seat that pays the big blind soonest,
    taking the big blind at once if that seat is open ("single big blind"),
    and is never the small blind (TDA 11-A); the small-blind seat is used
    only when it is the sole open seat.  Between open seats side by side
    (equally soon) the one furthest round from the last big blind is taken:
    the mover never gets a free hand on a dead button, he waits for the
    button instead.

    [BAL-2] upcoming button S7, SB S8, BB S9 with S9 empty: the mover takes S9.

    >>> worst_position({3, 5, 9}, Positions(6, 7, 8), occupied={1, 2, 4, 6, 7, 8}, size=9)
    9
    >>> worst_position({3, 5}, Positions(6, 7, 8), occupied={1, 2, 4, 6, 7, 8, 9}, size=9)
    3
    """
    if not open_seats:
        raise RuleViolation("There is no open seat at this table")
    candidates = [seat for seat in open_seats if seat != last.big_blind] or list(open_seats)
    return min(candidates, key=lambda seat: (hands_until_big_blind(seat, last, occupied, size),
                                             -((seat - last.big_blind) % size)))
