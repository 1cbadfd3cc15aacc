"""Payout tables: how many places are paid, what share each gets, and the amounts.

Conventions (RULES.md §9.8; they are conventions, not TDA rules):

* about **10–15 %** of the entries are paid, sometimes rounded to whole
  tables ([PAY-1]: 180 entries at 15 % pay 27 places, at 10 % 18);
* the **min-cash** is about 1.5–2 × the buy-in, the **winner** gets about
  15–25 % of the prize pool in a large field (more in a small one).

A table stores each place's share as an integer number of **basis points**
(1/100 of a percent); the shares of a table add up to exactly 10000 and never
rise from one place to the next.  Amounts are the prize pool × share,
rounded **down** to the event's rounding unit, and the whole rounding
remainder goes to **first place**, so the amounts add up to exactly the prize
pool and still never rise from one place to the next.

>>> table = PayoutTable.from_percentages(["50", "30", "20"])
>>> table.shares
(5000, 3000, 2000)
>>> table.amounts(123_456, unit=100)
(61856, 37000, 24600)
>>> PayoutTable.from_percentages(["50", "30", "19.5"])
Traceback (most recent call last):
  ...
director.tournament.money.MoneyError: The payout table adds up to 99.5 %, not 100 %
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache

from director.tournament.money import MoneyError, apportion, round_down

__all__ = [
    "BASIS_POINTS",
    "MAX_TEMPLATE_PLACES",
    "SMALL_FIELD_SHARES",
    "TEMPLATES",
    "Band",
    "PayoutTable",
    "Template",
    "place_for_next_bust",
    "places_for_busts",
    "places_paid",
    "prize_for_place",
    "split_tied_places",
]

BASIS_POINTS = 10_000
"""100 % in basis points."""


def _percent(basis_points: int) -> str:
    """10000 -> '100', 9950 -> '99.5', 1234 -> '12.34'."""
    text = f"{Decimal(basis_points) / 100:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


@dataclass(frozen=True)
class PayoutTable:
    """The share of the prize pool for each paid place, first place first, in basis points.

    A table is refused unless every place pays something, no place pays more
    than the place above it, and the shares add up to exactly 100 %.

    >>> PayoutTable((6000, 4000)).percentages()
    ('60', '40')
    >>> PayoutTable((3000, 4000, 3000))
    Traceback (most recent call last):
      ...
    director.tournament.money.MoneyError: Place 2 (40 %) pays more than place 1 (30 %)
    """

    shares: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.shares:
            raise MoneyError("A payout table needs at least one paid place")
        for place, share in enumerate(self.shares, start=1):
            if isinstance(share, bool) or not isinstance(share, int):
                raise MoneyError("The share of place {place} must be whole basis points, not {share!r}",
                                 place=place, share=share)
            if share <= 0:
                raise MoneyError("Place {place} pays nothing: remove the place or give it a share",
                                 place=place)
        for place in range(2, len(self.shares) + 1):
            above, share = self.shares[place - 2], self.shares[place - 1]
            if share > above:
                raise MoneyError("Place {place} ({share} %) pays more than place {above_place} ({above} %)",
                                 place=place, share=_percent(share), above_place=place - 1,
                                 above=_percent(above))
        total = sum(self.shares)
        if total != BASIS_POINTS:
            raise MoneyError("The payout table adds up to {total} %, not 100 %", total=_percent(total))

    @classmethod
    def from_percentages(cls, percentages: Iterable[str | int | Decimal]) -> PayoutTable:
        """A custom table typed by the director as percentages ("25", "12.5", "0.75").

        At most two decimals: a basis point is the smallest share.

        >>> PayoutTable.from_percentages(["62.5", "37.5"]).shares
        (6250, 3750)
        >>> PayoutTable.from_percentages(["60", "forty"])
        Traceback (most recent call last):
          ...
        director.tournament.money.MoneyError: The share of place 2 is not a number: 'forty'
        """
        shares = []
        for place, value in enumerate(percentages, start=1):
            try:
                number = Decimal(str(value).strip().rstrip("%").strip())
            except InvalidOperation:
                raise MoneyError("The share of place {place} is not a number: {value!r}",
                                 place=place, value=value) from None
            if not number.is_finite():
                raise MoneyError("The share of place {place} is not a number: {value!r}",
                                 place=place, value=value)
            basis_points = number * 100
            if basis_points != basis_points.to_integral_value():
                raise MoneyError("The share of place {place} has more than two decimals: {value}",
                                 place=place, value=value)
            shares.append(int(basis_points))
        return cls(tuple(shares))

    @property
    def places(self) -> int:
        return len(self.shares)

    def percentages(self) -> tuple[str, ...]:
        """The shares as the percentages a director reads ("22.84")."""
        return tuple(_percent(share) for share in self.shares)

    def amounts(self, prize_pool: int, *, unit: int = 1) -> tuple[int, ...]:
        """The prize for each place, in minor units, adding up to exactly ``prize_pool``.

        Each place gets ``prize_pool × share / 10000`` rounded down to a
        multiple of ``unit``; the whole remainder goes to first place.  With a
        tiny prize pool and a large unit the last places can round to 0.

        >>> PayoutTable((5000, 3000, 2000)).amounts(1_001)
        (501, 300, 200)
        >>> PayoutTable((5000, 3000, 2000)).amounts(99_900, unit=500)
        (50900, 29500, 19500)
        """
        if isinstance(prize_pool, bool) or not isinstance(prize_pool, int) or prize_pool < 0:
            raise MoneyError("The prize pool must be a whole, non-negative amount, not {pool!r}",
                             pool=prize_pool)
        lower = [round_down(prize_pool * share // BASIS_POINTS, unit) for share in self.shares[1:]]
        return (prize_pool - sum(lower), *lower)


# ---------------------------------------------------------------------------
# Shipped templates

SMALL_FIELD_SHARES: dict[int, tuple[int, ...]] = {
    1: (10_000,),
    2: (6_500, 3_500),
    3: (5_000, 3_000, 2_000),
    4: (4_000, 2_700, 1_900, 1_400),
    5: (3_700, 2_500, 1_700, 1_200, 900),
    6: (3_400, 2_300, 1_600, 1_200, 850, 650),
    7: (3_200, 2_200, 1_500, 1_100, 850, 650, 500),
    8: (3_000, 2_050, 1_450, 1_050, 800, 650, 550, 450),
    9: (2_900, 1_950, 1_350, 1_000, 800, 650, 500, 450, 400),
}
"""Tables for 1 to 9 paid places, as on common card-room payout charts."""

SMALL_FIELD_PLACES: tuple[tuple[int, int], ...] = ((11, 3), (6, 2), (2, 1))
"""(entries from, at least this many places): a small field pays 1, 2 or 3 places
even where 10-15 % would round lower."""

MAX_TEMPLATE_PLACES = 500
"""Beyond this the smallest shares are too fine for basis points: use a custom table."""


def _winner_share(places: int) -> float:
    """25 % with 10 places paid, 20 % with 100, 15 % with 1000 or more (RULES.md §9.8)."""
    return max(0.15, min(0.25, 0.25 - 0.05 * math.log10(places / 10)))


def _curve(place: int, places: int, power: float) -> float:
    """1 at first place, 0 at the last, falling like place^-power."""
    if abs(power) < 1e-12:
        return math.log(places / place) / math.log(places)
    last = math.pow(places, -power)
    return (math.pow(place, -power) - last) / (1 - last)


@lru_cache(maxsize=1024)
def _large_field_shares(places: int, min_share: Fraction) -> tuple[int, ...]:
    """Shares for 10 or more places: winner ``_winner_share``, last place ``min_share``.

    In between the shares fall along ``min + (winner - min) × curve(place)``;
    the curve's power is found by bisection so the shares add up to 100 %,
    and the basis points are then apportioned by largest remainder (which
    keeps them falling).
    """
    winner, last = _winner_share(places), float(min_share)
    every = range(1, places + 1)

    def total(power: float) -> float:
        if abs(power) < 1e-12:
            curve = sum(_curve(place, places, power) for place in every)
        else:       # _curve's own arithmetic, its two constants worked out once
            lowest = math.pow(places, -power)
            span = 1 - lowest
            curve = sum([(math.pow(place, -power) - lowest) / span for place in every])
        return places * last + (winner - last) * curve

    low, high = -5.0, 20.0  # total() falls as the power rises
    for _ in range(100):
        middle = (low + high) / 2
        bounds = (middle, high) if total(middle) > 1 else (low, middle)
        if bounds == (low, high):   # nothing moves again: the hundred steps would end here
            break
        low, high = bounds
    power = (low + high) / 2
    exact = [last + (winner - last) * _curve(place, places, power) for place in range(1, places + 1)]
    scale = BASIS_POINTS / sum(exact)
    return apportion(BASIS_POINTS, [share * scale for share in exact])


def places_paid(entries: int, paid_basis_points: int, *, table_size: int | None = None) -> int:
    """How many places a field of ``entries`` pays at ``paid_basis_points`` of the field.

    The count is rounded to the nearest place (halves up), raised to the small
    field minimum (``SMALL_FIELD_PLACES``), and, with a ``table_size``, rounded
    to the nearest whole number of tables once it is more than one table.

    [PAY-1] 180 entries × 15 % = 27 places; at 10 %, 18.

    >>> places_paid(180, 1_500), places_paid(180, 1_000), places_paid(100, 1_500, table_size=9)
    (27, 18, 18)
    """
    if isinstance(entries, bool) or not isinstance(entries, int) or entries < 0:
        raise MoneyError("The number of entries must be a whole number of at least 0, not {entries!r}",
                         entries=entries)
    if entries < 2:
        return 1 if entries else 0
    places = (2 * entries * paid_basis_points + BASIS_POINTS) // (2 * BASIS_POINTS)
    for smallest_field, minimum in SMALL_FIELD_PLACES:
        if entries >= smallest_field:
            places = max(places, minimum)
            break
    if table_size and places > table_size:
        places = max(1, (2 * places + table_size) // (2 * table_size)) * table_size
    return min(places, entries - 1)


@dataclass(frozen=True)
class Band:
    """Field sizes ``first``..``last`` (inclusive) all pay ``places`` places."""

    first: int
    last: int
    places: int


@dataclass(frozen=True)
class Template:
    """A shipped payout template: the share of the field paid and the min-cash aimed at.

    The field-size bands come from ``places_paid``; the table depends only on
    the number of places, so it changes only when the field crosses a band.
    Up to 9 places the common card-room tables (``SMALL_FIELD_SHARES``) are
    used; from 10 places the winner gets 25 % (10 places) falling to 15 %
    (1000 places), and the last place about ``min_cash`` buy-ins when the
    field is exactly the size that pays that many places.
    """

    name: str
    paid_basis_points: int
    min_cash: Fraction
    table_size: int | None = None

    def places_for(self, entries: int) -> int:
        return places_paid(entries, self.paid_basis_points, table_size=self.table_size)

    def table_for(self, entries: int) -> PayoutTable:
        """The payout table for a field of ``entries`` (at least 1).

        >>> TEMPLATES["standard"].table_for(30).percentages()
        ('50', '30', '20')
        """
        places = self.places_for(entries)
        if places < 1:
            raise MoneyError("There are no entries yet, so there is no payout table")
        if places > MAX_TEMPLATE_PLACES:
            raise MoneyError("The shipped payout templates go up to {maximum} places, this field pays "
                             "{places}: enter a custom table", maximum=MAX_TEMPLATE_PLACES, places=places)
        if places in SMALL_FIELD_SHARES:
            return PayoutTable(SMALL_FIELD_SHARES[places])
        min_share = self.min_cash * self.paid_basis_points / BASIS_POINTS / places
        return PayoutTable(_large_field_shares(places, min_share))

    def bands(self, largest_field: int, limit: int | None = None) -> tuple[Band, ...]:
        """The field-size bands from 2 entries to ``largest_field``, for the settings page;
        ``limit``: only the first ``limit`` bands (the field sizes after them are not
        worked out: the page shows 12, and 7,200 field sizes were).

        >>> TEMPLATES["standard"].bands(25)
        (Band(first=2, last=5, places=1), Band(first=6, last=10, places=2), Band(first=11, last=25, places=3))
        >>> TEMPLATES["standard"].bands(10_000, limit=2)
        (Band(first=2, last=5, places=1), Band(first=6, last=10, places=2))
        """
        bands: list[Band] = []
        for entries in range(2, largest_field + 1):
            places = self.places_for(entries)
            if bands and bands[-1].places == places:
                bands[-1] = Band(bands[-1].first, entries, places)
            elif limit is not None and len(bands) == limit:
                break
            else:
                bands.append(Band(entries, entries, places))
        return tuple(bands)


TEMPLATES: dict[str, Template] = {
    "standard": Template("standard", paid_basis_points=1_000, min_cash=Fraction(2)),
    "wide": Template("wide", paid_basis_points=1_500, min_cash=Fraction(3, 2)),
    "wide-tables": Template("wide-tables", paid_basis_points=1_500, min_cash=Fraction(3, 2),
                            table_size=9),
}
"""``standard``: 10 % paid, min-cash about 2 buy-ins.  ``wide``: 15 % paid, min-cash
about 1.5 buy-ins.  ``wide-tables``: as ``wide``, rounded to whole 9-handed tables."""


# ---------------------------------------------------------------------------
# Eliminations and places


def place_for_next_bust(players_left: int) -> int:
    """The place of the next player out: with 10 players left he finishes 10th.

    >>> place_for_next_bust(10)
    10
    """
    if isinstance(players_left, bool) or not isinstance(players_left, int) or players_left < 2:
        raise MoneyError("Nobody can be eliminated with {players_left} player(s) left",
                         players_left=players_left)
    return players_left


def places_for_busts(players_left: int, busted: int) -> tuple[int, ...]:
    """The places taken by ``busted`` players eliminated in one hand, worst first.

    [H4H-1] 52 left, 3 bust in the same hand: places 52, 51 and 50.

    >>> places_for_busts(52, 3)
    (52, 51, 50)
    """
    if isinstance(busted, bool) or not isinstance(busted, int) or not 1 <= busted < players_left:
        raise MoneyError("{busted} of {players_left} players cannot bust in one hand: at least one "
                         "must be left", busted=busted, players_left=players_left)
    return tuple(range(players_left, players_left - busted, -1))


def deal_places(stacks: Sequence[int],
                agreed: Sequence[int | None] | None = None) -> tuple[tuple[int, int | None], ...]:
    """The places a deal that finishes the event gives its players, ``(place, last)`` each
    in the order of ``stacks`` (``last`` is set for a shared place, else None).

    A deal ends the event with the players in it still holding chips, so their places are
    decided by the deal: as the players agreed (``agreed``, numbered as a ranking: players
    who share a place get the same number and the places they cover are skipped after
    them, 1, 1, 3), else in chip order, equal stacks sharing their places (RULES.md §9.6,
    as players busted in the same hand with the same stack).

    >>> deal_places([400_000, 600_000, 250_000])
    ((2, None), (1, None), (3, None))
    >>> deal_places([500, 500, 250])
    ((1, 2), (1, 2), (3, None))
    >>> deal_places([500, 500, 250], [3, 1, 2])
    ((3, None), (1, None), (2, None))
    >>> deal_places([500, 500, 250], [1, 1, 3])
    ((1, 2), (1, 2), (3, None))
    """
    count = len(stacks)
    if agreed is not None and any(place is not None for place in agreed):
        for index, place in enumerate(agreed):
            if place is None or not 1 <= place <= count:
                raise DealPlacesError(index, count)
        given = [int(place) for place in agreed if place is not None]
        for index, place in enumerate(given):
            if sum(1 for other in given if other < place) != place - 1:
                raise DealPlacesError(index, count)
        return tuple((place, place + given.count(place) - 1 if given.count(place) > 1 else None)
                     for place in given)
    out: list[tuple[int, int | None]] = []
    for stack in stacks:
        above = sum(1 for other in stacks if other > stack)
        equal = sum(1 for other in stacks if other == stack)
        out.append((above + 1, above + equal if equal > 1 else None))
    return tuple(out)


class DealPlacesError(MoneyError):
    """A deal's places that are not each place from 1 to the number of players once;
    ``index`` is the first player whose place is missing, out of range or repeated."""

    def __init__(self, index: int, count: int) -> None:
        super().__init__("Give each player in the deal a place from 1 to {count}; players "
                         "who share a place get the same number and the next is skipped "
                         "(1, 1, 3)", count=count)
        self.index = index


def prize_for_place(amounts: Sequence[int], place: int) -> int:
    """The prize for ``place`` (1 = winner) from a table's amounts; 0 outside the money."""
    if isinstance(place, bool) or not isinstance(place, int) or place < 1:
        raise MoneyError("There is no place {place}", place=place)
    return amounts[place - 1] if place <= len(amounts) else 0


def split_tied_places(amounts: Sequence[int], places: Sequence[int], *, unit: int = 1) -> tuple[int, ...]:
    """Each tied player's share of the combined prize of the tied ``places``.

    RULES.md §9.6 (TDA RP-8; WSOP-T 126): players busted in the same
    hand-for-hand hand at different tables tie and share the combined prize of
    the places they occupy.  (At the same table the one who began the hand
    with more chips finishes higher: that is a placing, not a tie, and is
    decided in seating.)

    Remainder rule: each share is rounded down to the rounding ``unit``; the
    leftover units go one each to the tied players in the order ``places`` is
    given (the caller lists them in table-number order), and any amount below
    one unit to the first listed.  The shares always add up to the combined
    prize.

    >>> split_tied_places((500, 300, 200), (2, 3))
    (250, 250)
    >>> split_tied_places((500, 301, 200), (3, 2))
    (251, 250)
    """
    ordered = sorted(places)
    if not ordered:
        raise MoneyError("A tie needs at least one place")
    if ordered != list(range(ordered[0], ordered[0] + len(ordered))):
        raise MoneyError("Tied places must follow one another, not {places}",
                         places=", ".join(str(place) for place in ordered))
    combined = sum(prize_for_place(amounts, place) for place in ordered)
    return apportion(combined, [Fraction(combined, len(ordered))] * len(ordered), unit=unit)
