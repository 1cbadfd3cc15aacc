"""Tournament money: buy-ins, the house fee, the prize pool and the guarantee.

All amounts are integers in the currency's minor unit (cents), never floats.

Conventions (RULES.md §9.8; issue 6):

* A buy-in has two parts: the **prize** part goes into the prize pool, the
  **fee** is kept by the house and is never part of the prize pool.  A
  €110 event with a €10 fee is ``BuyIn(prize=10_000, fee=1_000)``.
* Prize pool = entries × prize part of the buy-in + rebuys + add-ons (each
  with its own prize part; re-entries count as entries).
* A **guarantee**: when the money collected falls short, the house adds the
  shortfall (the *overlay*) so the prize pool is the guarantee.
* Amounts paid out are rounded **down** to the event's rounding unit (e.g.
  100 = whole euros); what rounding leaves over goes to first place
  (see ``payouts.py``).

>>> pool = prize_pool(entries=40, buy_in=BuyIn(prize=10_000, fee=1_000),
...                   rebuys=5, rebuy=BuyIn(10_000), guarantee=500_000)
>>> pool.collected, pool.fees, pool.overlay, pool.total
(450000, 40000, 50000, 500000)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from director.poker.errors import RuleViolation

__all__ = [
    "BuyIn",
    "MoneyError",
    "PrizePool",
    "apportion",
    "pool_from_payments",
    "prize_pool",
    "round_down",
    "take_off_the_top",
]


class MoneyError(RuleViolation):
    """A negative amount, a bad rounding unit or a payout table that does not add up."""


def _check_amount(amount: int, what: str) -> None:
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise MoneyError("The {what} must be a whole number of the smallest unit, not {amount!r}",
                         what=what, amount=amount)
    if amount < 0:
        raise MoneyError("The {what} cannot be negative ({amount})", what=what, amount=amount)


@dataclass(frozen=True)
class BuyIn:
    """One payment: the ``prize`` part (into the prize pool) and the house ``fee``.

    Used for the buy-in, a re-entry, a rebuy or an add-on.

    >>> BuyIn.from_total(11_000, fee=1_000)
    BuyIn(prize=10000, fee=1000)
    >>> BuyIn(prize=10_000, fee=1_000).total
    11000
    >>> BuyIn(prize=-1)
    Traceback (most recent call last):
      ...
    director.tournament.money.MoneyError: The prize part of the buy-in cannot be negative (-1)
    """

    prize: int
    fee: int = 0

    def __post_init__(self) -> None:
        _check_amount(self.prize, "prize part of the buy-in")
        _check_amount(self.fee, "fee")

    @property
    def total(self) -> int:
        """What the player pays at the desk."""
        return self.prize + self.fee

    @classmethod
    def from_total(cls, total: int, *, fee: int = 0) -> BuyIn:
        """A buy-in as it is advertised: the total price, of which ``fee`` goes to the house."""
        _check_amount(total, "buy-in")
        _check_amount(fee, "fee")
        if fee > total:
            raise MoneyError("The fee ({fee}) cannot be more than the buy-in ({total})",
                             fee=fee, total=total)
        return cls(prize=total - fee, fee=fee)


@dataclass(frozen=True)
class PrizePool:
    """The money of an event: what players paid, what the house keeps and what is paid out.

    ``collected`` is the prize part of every payment; ``fees`` the house's
    part; ``overlay`` what the house adds to reach the ``guarantee``;
    ``total`` the prize pool to pay out.
    """

    collected: int
    fees: int = 0
    guarantee: int = 0

    def __post_init__(self) -> None:
        _check_amount(self.collected, "money collected")
        _check_amount(self.fees, "fee total")
        _check_amount(self.guarantee, "guarantee")

    @property
    def overlay(self) -> int:
        """The shortfall the house adds: the guarantee less the money collected, or 0."""
        return max(0, self.guarantee - self.collected)

    @property
    def total(self) -> int:
        """The prize pool: the money collected, or the guarantee if that is larger."""
        return self.collected + self.overlay

    @property
    def house_result(self) -> int:
        """Fees kept less overlay paid: what the event earned (or cost, if negative) the house."""
        return self.fees - self.overlay


def prize_pool(*, entries: int, buy_in: BuyIn, rebuys: int = 0, rebuy: BuyIn | None = None,
               add_ons: int = 0, add_on: BuyIn | None = None, guarantee: int = 0) -> PrizePool:
    """The prize pool of ``entries`` buy-ins (re-entries included), rebuys and add-ons.

    RULES.md §9.8: prize pool = entries × prize part of the buy-in (fees
    excluded), plus rebuys and add-ons; a guarantee is topped up by the house.

    >>> prize_pool(entries=10, buy_in=BuyIn(5_000, 500)).total
    50000
    >>> prize_pool(entries=10, buy_in=BuyIn(5_000, 500), rebuys=1)
    Traceback (most recent call last):
      ...
    director.tournament.money.MoneyError: The event has no rebuy price, yet rebuys were counted (1)
    """
    for count, what in ((entries, "number of entries"), (rebuys, "number of rebuys"),
                        (add_ons, "number of add-ons")):
        _check_amount(count, what)
    payments: list[tuple[int, BuyIn]] = [(entries, buy_in)]
    for count, price, what in ((rebuys, rebuy, "rebuys"), (add_ons, add_on, "add-ons")):
        if price is None:
            if count:
                raise MoneyError("The event has no {kind} price, yet {what} were counted ({count})",
                                 count=count, what=what, kind=what[:-1])
            continue
        payments.append((count, price))
    collected = sum(count * price.prize for count, price in payments)
    fees = sum(count * price.fee for count, price in payments)
    return PrizePool(collected=collected, fees=fees, guarantee=guarantee)


def pool_from_payments(payments: Iterable[BuyIn], *, guarantee: int = 0) -> PrizePool:
    """The prize pool from a ledger of payments (each a ``BuyIn``; undone ones left out).

    >>> pool_from_payments([BuyIn(100, 10)] * 3 + [BuyIn(100)], guarantee=300).overlay
    0
    """
    collected = fees = 0
    for payment in payments:
        collected += payment.prize
        fees += payment.fee
    return PrizePool(collected=collected, fees=fees, guarantee=guarantee)


def round_down(amount: int, unit: int) -> int:
    """``amount`` rounded down to a multiple of the rounding ``unit`` (both in minor units).

    >>> round_down(12_345, 100), round_down(12_345, 500), round_down(12_345, 1)
    (12300, 12000, 12345)
    """
    _check_amount(amount, "amount")
    _check_unit(unit)
    return amount - amount % unit


def _check_unit(unit: int) -> None:
    if isinstance(unit, bool) or not isinstance(unit, int) or unit < 1:
        raise MoneyError("The rounding unit must be a whole number of at least 1, not {unit!r}",
                         unit=unit)


def apportion(total: int, quotas: Sequence[Fraction | float], *, unit: int = 1,
              priority: Sequence[int] | None = None) -> tuple[int, ...]:
    """Share the integer ``total`` by ``quotas`` (exact or float shares that sum to ``total``).

    Largest-remainder method in whole ``unit``\\ s: everyone first gets their
    quota rounded down to the unit; the units left over go one each to the
    largest remainders (ties: the lower ``priority`` value first, by default
    the earlier position).  What is left below one unit (``total`` not a
    multiple of ``unit``) goes to the first position in ``priority`` order.
    The result always sums exactly to ``total``, and a larger quota never gets
    less than a smaller one (except through that last part below one unit,
    so put the largest quota first in ``priority``).

    >>> apportion(100, [Fraction(100, 3)] * 3)
    (34, 33, 33)
    >>> apportion(1_050, [525.0, 315.0, 210.0], unit=100)
    (550, 300, 200)
    """
    _check_amount(total, "amount to share")
    _check_unit(unit)
    n = len(quotas)
    if n == 0:
        raise MoneyError("There is nobody to share {total} between", total=total)
    order = list(priority) if priority is not None else list(range(n))
    if sorted(order) != list(range(n)):
        raise MoneyError("The priority order must list every share exactly once")
    rank = {position: i for i, position in enumerate(order)}
    units_total = total // unit
    in_units = [Fraction(q) / unit if isinstance(q, Fraction) else q / unit for q in quotas]
    if any(q < 0 for q in in_units):
        raise MoneyError("A share cannot be negative")
    base = [min(int(q), units_total) for q in in_units]
    left = units_total - sum(base)
    if left < 0:  # float noise on quotas that add up to a little more than total
        for i in sorted(range(n), key=lambda i: (in_units[i] - base[i], -rank[i]))[: -left]:
            base[i] -= 1
        left = 0
    by_remainder = sorted(range(n), key=lambda i: (-(in_units[i] - base[i]), rank[i]))
    for i in by_remainder[:left]:
        base[i] += 1
    amounts = [b * unit for b in base]
    extra = total - sum(amounts)
    if extra:
        # Units still unplaced when float quotas fell short by more than n units,
        # plus the part below one unit: both to the first by priority.
        amounts[order[0]] += extra
    return tuple(amounts)


def take_off_the_top(prizes: Sequence[int], amount: int) -> tuple[int, ...]:
    """The prizes left to deal when ``amount`` is left to play for.

    A deal may leave part of the money in play: it goes to whoever wins the
    rest, so it is taken off the top prizes, first place first, and never
    puts a place above the one before it: first place comes down to second
    place's prize, then both come down together, and so on.  An odd unit
    comes off the lower of the equal places.  The rest (what is dealt) adds
    up to ``sum(prizes) - amount``; some money must be dealt.

    >>> take_off_the_top([5_000, 3_000, 2_000], 1_000)
    (4000, 3000, 2000)
    >>> take_off_the_top([5_000, 3_000, 2_000], 3_001)
    (2500, 2499, 2000)
    >>> take_off_the_top([5_000, 3_000, 2_000], 10_000)
    Traceback (most recent call last):
      ...
    director.tournament.money.MoneyError: The amount left to play for (10000) must be less than the money left (10000)
    """
    _check_amount(amount, "amount left to play for")
    out = list(prizes)
    for prize in out:
        _check_amount(prize, "prize")
    if amount and amount >= sum(out):
        raise MoneyError("The amount left to play for ({amount}) must be less than the money "
                         "left ({left})", amount=amount, left=sum(out))
    left, top = amount, 1
    while left > 0:
        below = out[top] if top < len(out) else 0
        room = (out[0] - below) * top
        if room >= left:
            cut, odd = divmod(left, top)
            for i in range(top):
                out[i] -= cut + (1 if i >= top - odd else 0)
            left = 0
        else:
            for i in range(top):
                out[i] = below
            left -= room
            top += 1
    return tuple(out)
