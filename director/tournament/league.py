"""League points: a season's ranking over several events, by a formula the director picks.

Each event gives every player who finished in it points for his place; a
player's league total is the sum over the league's events.  The formulas are
the ones card rooms and home leagues commonly publish:

* ``linear`` ("participation + place"): ``points = entrants - place + 1``.
  The winner of a 20-entry event gets 20, the first out 1: every player
  scores for turning up and for each player he outlasts.
* ``square-root``: ``points = 10 * sqrt(entrants / place)``, rounded to two
  decimals.  The field's size counts, and the top places are worth much
  more than the middle (the shape of the well-known "sqrt(n/p)" league
  formulas; scaled by 10 so a one-player event gives 10).
* ``top-eight``: a fixed table, 10, 8, 6, 5, 4, 3, 2, 1 for places 1 to 8 and
  nothing below (the Formula One table of 2003-2009, which many pub leagues
  copy).  The field's size does not count.

Ties (RULES.md §9.6: players out in the same hand-for-hand hand share their
places) share the points too: each tied player gets the average of the
points of the places they occupy, as tied players share the combined prize.
Players level on points in the standings share their rank (1, 2, 2, 4).

Points are numbers with at most two decimals (``float``): they are no money.

>>> event_points("linear", 10, [Finish("ann", 1), Finish("bo", 2), Finish("cy", 10)])
{'ann': 10.0, 'bo': 9.0, 'cy': 1.0}
>>> points("square-root", 16, 4)
20.0
>>> event_points("top-eight", 9, [Finish("ann", 1, 2), Finish("bo", 1, 2)])
{'ann': 9.0, 'bo': 9.0}
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "FIXED_TABLE",
    "Finish",
    "Formula",
    "LeagueEvent",
    "Standing",
    "event_points",
    "points",
    "standings",
]


class Formula(StrEnum):
    LINEAR = "linear"
    SQUARE_ROOT = "square-root"
    TOP_EIGHT = "top-eight"


FIXED_TABLE = (10, 8, 6, 5, 4, 3, 2, 1)
SQUARE_ROOT_SCALE = 10


def points(formula: str, entrants: int, place: int) -> float:
    """The points of one place in an event of ``entrants`` entries (exact: a league
    rounds once, to 0.01, where it shows a figure; see :func:`standings`).

    >>> points("linear", 20, 1), points("linear", 20, 20)
    (20.0, 1.0)
    >>> points("top-eight", 50, 3), points("top-eight", 50, 9)
    (6.0, 0.0)
    """
    kind = Formula(formula)
    if entrants < 1 or place < 1:
        raise ValueError(f"place {place} of {entrants} entrants")
    entrants = max(entrants, place)      # a late place never scores below the last one
    if kind is Formula.LINEAR:
        return float(entrants - place + 1)
    if kind is Formula.SQUARE_ROOT:
        return SQUARE_ROOT_SCALE * math.sqrt(entrants / place)
    return float(FIXED_TABLE[place - 1]) if place <= len(FIXED_TABLE) else 0.0


@dataclass(frozen=True)
class Finish:
    """One player's finish in an event: ``place``, or places ``place``..``place_last``
    shared with others (a tie)."""

    who: Hashable
    place: int
    place_last: int | None = None


def event_points(formula: str, entrants: int, finishes: Iterable[Finish]) -> dict[Hashable, float]:
    """Each finisher's points, exact; tied players share the average of their places' points.

    >>> event_points("linear", 5, [Finish("a", 4, 5), Finish("b", 4, 5)])
    {'a': 1.5, 'b': 1.5}
    """
    result: dict[Hashable, float] = {}
    for finish in finishes:
        last = max(finish.place_last or finish.place, finish.place)
        shared = [points(formula, entrants, place) for place in range(finish.place, last + 1)]
        result[finish.who] = sum(shared) / len(shared)
    return result


@dataclass(frozen=True)
class LeagueEvent:
    """One event of a league: how many entries it had, and who finished where."""

    entrants: int
    finishes: tuple[Finish, ...]


@dataclass(frozen=True)
class Standing:
    """A player's line in the league: ``rank`` (shared when level on points), the total,
    the events he scored in, his best place, and his points event by event (None: he
    did not finish in it)."""

    who: Hashable
    rank: int
    points: float
    events: int
    best: int
    by_event: tuple[float | None, ...]


def standings(formula: str, events: Sequence[LeagueEvent]) -> list[Standing]:
    """The league table: most points first; level players share the rank and are
    listed by their best place, then as given.

    >>> table = standings("top-eight", [
    ...     LeagueEvent(3, (Finish("ann", 1), Finish("bo", 2), Finish("cy", 3))),
    ...     LeagueEvent(3, (Finish("bo", 1), Finish("ann", 2), Finish("cy", 3)))])
    >>> [(s.who, s.rank, s.points) for s in table]
    [('ann', 1, 18.0), ('bo', 1, 18.0), ('cy', 3, 12.0)]
    """
    Formula(formula)                     # an unknown formula fails before any sum
    totals: dict[Hashable, list[float | None]] = {}      # exact: rounded once, below
    best: dict[Hashable, int] = {}
    for index, event in enumerate(events):
        for who, value in event_points(formula, event.entrants, event.finishes).items():
            totals.setdefault(who, [None] * len(events))[index] = value
        for finish in event.finishes:
            best[finish.who] = min(best.get(finish.who, finish.place), finish.place)
    lines = sorted(totals.items(), key=lambda item: (
        -round(sum(v or 0.0 for v in item[1]), 2), best[item[0]]))
    table: list[Standing] = []
    for position, (who, by_event) in enumerate(lines, start=1):
        total = round(sum(v or 0.0 for v in by_event), 2)     # the formula's sum, then 0.01
        rank = table[-1].rank if table and table[-1].points == total else position
        table.append(Standing(who, rank, total, sum(v is not None for v in by_event),
                              best[who], tuple(None if v is None else round(v, 2)
                                               for v in by_event)))
    return table
