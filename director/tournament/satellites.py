"""Satellites: the prize is a seat in a bigger event, every seat worth the same.

All amounts are integers in the currency's minor unit (cents), never floats.

Conventions (house practice, as card rooms run their satellites):

* A seat is worth the target event's buy-in (the money setting "satellite seat
  value").  The prize pool pays as many **whole seats** as it holds:
  ``seats = prize pool // seat value``.
* The **remainder** (what is left below one seat) is paid in cash to the
  **next place**, the first player out of the seats.  That is what most
  directors do: nobody at the seat places wants part of a seat as cash, and
  the bubble player leaves with something.  With no next place (every player
  won a seat), first place takes it.
* **Places paid = seats**: the bubble is the last seat (the banners' bubble
  and in-the-money use it); the cash remainder is a consolation.
* **A deal keeps the seats equal**: once no more players are left than
  seats, everyone left gets a seat and play stops (``verify_seat_deal``).
  Seats are never split into cash by ICM or chip count.

>>> payout = satellite_payout(prize_pool=230_000, seat_value=50_000, entries=23)
>>> payout.seats, payout.remainder, payout.amounts()
(4, 30000, (50000, 50000, 50000, 50000, 30000))
"""

from __future__ import annotations

from dataclasses import dataclass

from director.tournament.money import MoneyError

__all__ = [
    "SatelliteError",
    "SatellitePayout",
    "can_seat_deal",
    "satellite_payout",
    "seats_won",
    "verify_seat_deal",
]


class SatelliteError(MoneyError):
    """A satellite setting or deal that cannot be."""


@dataclass(frozen=True)
class SatellitePayout:
    """``seats`` equal seats of ``seat_value`` each, and the cash ``remainder`` for the
    next place (``remainder_place``; 1 when there is no next place: no seat yet, or
    every one of the ``entries`` won a seat)."""

    seat_value: int
    seats: int
    remainder: int
    entries: int = 0

    @property
    def remainder_place(self) -> int:
        if not self.seats or (self.entries and self.seats >= self.entries):
            return 1
        return self.seats + 1

    @property
    def places_paid(self) -> int:
        """The places that win something: the seats, and the next place when the cash
        left below a seat is paid to it (the payouts list it), so the bubble is the
        player out with nothing; the last seat is the *seat bubble* after it.

        >>> SatellitePayout(250, 4, 100, 11).places_paid, SatellitePayout(250, 4, 0, 10).places_paid
        (5, 4)
        """
        return self.seats + (1 if self.remainder and self.remainder_place > self.seats else 0)

    def amounts(self) -> tuple[int, ...]:
        """The prize of each place, first place first: the seats, then the remainder.

        >>> SatellitePayout(500, 2, 0).amounts(), SatellitePayout(500, 0, 320).amounts()
        ((500, 500), (320,))
        """
        out = [self.seat_value] * self.seats
        if self.remainder:
            if self.remainder_place > self.seats:
                out.append(self.remainder)
            else:
                out[0] += self.remainder
        return tuple(out)


def satellite_payout(*, prize_pool: int, seat_value: int, entries: int) -> SatellitePayout:
    """The seats and the cash remainder that a prize pool pays.

    At most one seat per entry; what the seats leave goes to the next place.

    >>> satellite_payout(prize_pool=100_000, seat_value=50_000, entries=10)
    SatellitePayout(seat_value=50000, seats=2, remainder=0, entries=10)
    >>> satellite_payout(prize_pool=49_000, seat_value=50_000, entries=7).amounts()
    (49000,)
    >>> satellite_payout(prize_pool=100_000, seat_value=0, entries=10)
    Traceback (most recent call last):
      ...
    director.tournament.satellites.SatelliteError: A satellite seat must be worth more than 0
    """
    if isinstance(seat_value, bool) or not isinstance(seat_value, int) or seat_value <= 0:
        raise SatelliteError("A satellite seat must be worth more than {zero}", zero=0)
    if prize_pool < 0 or entries < 0:
        raise SatelliteError("The prize pool and the entries cannot be negative")
    seats = min(prize_pool // seat_value, entries)
    return SatellitePayout(seat_value, seats, prize_pool - seats * seat_value, entries)


def can_seat_deal(players_left: int, seats: int) -> bool:
    """Everyone left gets a seat when no more players are left than seats (at least 1).

    >>> can_seat_deal(4, 4), can_seat_deal(5, 4), can_seat_deal(1, 4)
    (True, False, True)
    """
    return 1 <= players_left <= seats


def verify_seat_deal(players_left: int, seats: int) -> None:
    """``can_seat_deal`` with the reason.

    >>> verify_seat_deal(5, 4)
    Traceback (most recent call last):
      ...
    director.tournament.satellites.SatelliteError: 5 players are left for 4 seats: a satellite deal gives everyone left a seat, so play on until 4 are left
    """
    if can_seat_deal(players_left, seats):
        return
    if seats < 1:
        raise SatelliteError("The prize pool does not pay a whole seat yet")
    raise SatelliteError("{left} players are left for {seats} seats: a satellite deal gives "
                         "everyone left a seat, so play on until {seats} are left",
                         left=players_left, seats=seats)


def seats_won(places: list[tuple[str, int | None]], seats: int,
              in_deal: frozenset[str] | set[str] = frozenset()) -> list[str]:
    """The seat winners by name: everyone who finished at a seat place, then everyone
    in a seat deal (``in_deal``), best place first, each once.

    ``places``: (name, place or None while still in), best first.

    >>> seats_won([("Ann", 1), ("Bo", 2), ("Cy", 3)], 2)
    ['Ann', 'Bo']
    >>> seats_won([("Ann", None), ("Bo", None), ("Cy", 3), ("Di", 4)], 3, {"Ann", "Bo"})
    ['Ann', 'Bo', 'Cy']
    """
    out = []
    for name, place in places:
        if ((place is not None and place <= seats) or name in in_deal) and name not in out:
            out.append(name)
    return out
