"""Deals at the final table: ICM and chip-chop.

Both take the stacks of the players left (whole chips) and the prizes still
to be won (minor units, first place first), and return what each player
gets, in whole minor units that add up to exactly the money left.

**ICM** (the Malmuth-Harville model): a player finishes first with
probability stack / chips in play; given who has already finished above,
the next place goes the same way among those left.  A player's equity is
the sum over places of P(that place) × the prize for it.  The probabilities
are floats; the amounts are integers.

**Chip-chop**: the money left shared in proportion to the chips.  With
``guarantee_lowest`` everyone first gets the lowest prize still to be won
and only the rest is shared by chips (so no one gets less than he is sure
to win already).  A plain chip-chop can give a big chip leader more than
first prize; ICM never does.

The classic example: stacks 5000/3000/2000, prizes 50/30/20 → 38.39 %,
32.75 % and 28.86 % (not the 38.4/32.2/29.4 sometimes quoted).

>>> icm([5_000, 3_000, 2_000], [5_000, 3_000, 2_000])
(3839, 3275, 2886)
>>> chip_chop([5_000, 3_000, 2_000], [5_000, 3_000, 2_000])
(5000, 3000, 2000)
>>> chip_chop([5_000, 3_000, 2_000], [5_000, 3_000, 2_000], guarantee_lowest=True)
(4000, 3200, 2800)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from director.tournament.money import MoneyError, apportion

__all__ = ["MAX_ICM_PLAYERS", "chip_chop", "icm", "icm_equities"]

MAX_ICM_PLAYERS = 14
"""ICM works over every subset of the players left: 14 players is 16384 subsets."""


def _check(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[int, ...]:
    """Validate the inputs and return the prizes padded with 0 to one per player."""
    if len(stacks) < 2:
        raise MoneyError("A deal needs at least 2 players, not {players}", players=len(stacks))
    for seat, stack in enumerate(stacks, start=1):
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
            raise MoneyError("Every player in a deal needs chips: player {seat} has {stack!r}",
                             seat=seat, stack=stack)
    if len(prizes) > len(stacks):
        raise MoneyError("There are {prizes} prizes left for {players} players",
                         prizes=len(prizes), players=len(stacks))
    for place, prize in enumerate(prizes, start=1):
        if isinstance(prize, bool) or not isinstance(prize, int) or prize < 0:
            raise MoneyError("The prize for place {place} must be a whole, non-negative amount, "
                             "not {prize!r}", place=place, prize=prize)
    for place in range(2, len(prizes) + 1):
        if prizes[place - 1] > prizes[place - 2]:
            raise MoneyError("Place {place} pays more than place {above}", place=place,
                             above=place - 1)
    return (*prizes, *([0] * (len(stacks) - len(prizes))))


def _chip_leaders_first(stacks: Sequence[int]) -> list[int]:
    """Positions by stack, largest first; equal stacks in the order given."""
    return sorted(range(len(stacks)), key=lambda i: -stacks[i])


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[float, ...]:
    """Each player's ICM equity (Malmuth-Harville), in minor units, as floats.

    Dynamic programming over the subsets of players who have finished in the
    top places: ``reach[mask]`` is the probability that exactly the players
    in ``mask`` take the top ``len(mask)`` places; from there player ``i``
    takes the next place with probability stack_i / chips of those left.
    Subsets as large as the number of paid places are not expanded.

    >>> [round(e, 2) for e in icm_equities([5_000, 3_000, 2_000], [50, 30, 20])]
    [38.39, 32.75, 28.86]
    """
    padded = _check(stacks, prizes)
    n = len(stacks)
    if n > MAX_ICM_PLAYERS:
        raise MoneyError("ICM handles at most {maximum} players; {players} are left",
                         maximum=MAX_ICM_PLAYERS, players=n)
    paid = max((place + 1 for place, prize in enumerate(padded) if prize), default=0)
    total = sum(stacks)
    chips_in = [0] * (1 << n)  # chips of the players in each mask
    for mask in range(1, 1 << n):
        low = mask & -mask
        chips_in[mask] = chips_in[mask ^ low] + stacks[low.bit_length() - 1]
    reach = [0.0] * (1 << n)
    reach[0] = 1.0
    equity = [0.0] * n
    players = [(i, 1 << i, stacks[i]) for i in range(n)]
    for mask in range(1 << n):
        chance = reach[mask]
        if chance == 0.0:
            continue
        place = mask.bit_count()
        if place >= paid:
            continue
        prize = padded[place]
        per_chip = chance / (total - chips_in[mask])
        for i, bit, stack in players:
            if mask & bit:
                continue
            p = per_chip * stack
            equity[i] += p * prize
            reach[mask | bit] += p
    return tuple(equity)


def icm(stacks: Sequence[int], prizes: Sequence[int], *, unit: int = 1) -> tuple[int, ...]:
    """The ICM deal: each player's equity in whole minor units (multiples of ``unit``).

    The amounts add up to exactly the money left (the sum of ``prizes``): the
    equities are apportioned by largest remainder, and the amounts are then
    handed out largest to the largest stack, so a bigger stack never gets
    less (equal stacks may differ by one unit).  Any part of the money below
    one unit goes to the chip leader.
    """
    equities = icm_equities(stacks, prizes)
    money_left = sum(prizes)
    leaders = _chip_leaders_first(stacks)
    amounts = apportion(money_left, equities, unit=unit, priority=leaders)
    # Float noise must not let a smaller stack get a unit more than a larger one.
    result = [0] * len(stacks)
    for position, amount in zip(leaders, sorted(amounts, reverse=True), strict=True):
        result[position] = amount
    return tuple(result)


def chip_chop(stacks: Sequence[int], prizes: Sequence[int], *, guarantee_lowest: bool = False,
              unit: int = 1) -> tuple[int, ...]:
    """The chip-chop deal: the money left shared in proportion to the chips.

    With ``guarantee_lowest`` each player first gets the lowest prize still
    to be won (0 if not everyone left is in the money), and the rest is shared
    by chips.  Exact fractions, apportioned by largest remainder in whole
    ``unit``\\ s (ties to the bigger stack); the amounts add up to exactly the
    money left.

    >>> chip_chop([6_000, 3_000, 1_000], [1_001, 0, 0])
    (601, 300, 100)
    """
    padded = _check(stacks, prizes)
    money_left = sum(padded)
    total = sum(stacks)
    floor = padded[-1] if guarantee_lowest else 0
    shared = money_left - floor * len(stacks)
    quotas = [floor + Fraction(shared * stack, total) for stack in stacks]
    return apportion(money_left, quotas, unit=unit, priority=_chip_leaders_first(stacks))
