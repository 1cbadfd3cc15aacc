"""Bounties: a price on every player's head, won by whoever knocks him out.

All amounts are integers in the currency's minor unit (cents), never floats.

Two kinds (a money setting, ``BountyKind``):

* **fixed**: every entry pays the same bounty at the desk; whoever knocks a
  player out is paid that bounty, and the bounty on his own head stays
  the same.
* **progressive knockout (PKO)**: every entry starts with the same bounty;
  whoever knocks a player out is paid **half** of that player's bounty now,
  and the other half is **added to the bounty on his own head**.

Conventions (house practice; the TDA rules say nothing on bounties):

* The bounty is part of the entry price but never part of the prize pool
  (like the fee, it is kept apart: ``money.BuyIn`` is unchanged).
* The **eliminator** is the player who won the last pot the busted player was
  eligible for (``eliminators``): in a main pot and side pot, the pot he was
  all-in for.  When several players share that pot (a tie, or high and low)
  they share the bounty in proportion to the chips each won from that pot,
  and the part that does not divide goes one unit at a time in the odd-chip
  order of the pot (TDA 2024 rule 20: the first player left of the button;
  in stud the highest card by suit), see ``split_bounty``.
* A PKO bounty is halved in whole units: the eliminator's **cash** half
  takes the odd unit, his head gets the rest (``pko_halves``).
* The players still in when the event ends (the winner, or everyone in a
  deal that shares out all the money) collect the bounty on their own head.

>>> ko = knock_out(BountyKind.PKO, bounty=5_000, eliminators=[7])
>>> dict(ko.paid), dict(ko.head)
({7: 2500}, {7: 2500})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from director.tournament.money import MoneyError, apportion

__all__ = [
    "BountyError",
    "BountyKind",
    "Knockout",
    "can_take_back",
    "eliminators",
    "knock_out",
    "odd_chip_order",
    "pko_halves",
    "split_bounty",
    "verify_take_back",
]


class BountyError(MoneyError):
    """A knockout that cannot be recorded or taken back."""


class BountyKind(StrEnum):
    """No bounty, a fixed bounty per player, or a progressive knockout."""

    NONE = "none"
    FIXED = "fixed"
    PKO = "pko"


@dataclass(frozen=True)
class Knockout:
    """What one elimination moves.

    ``bounty``: the bounty that was on the busted player's head; ``by``: who
    knocked him out (recorded in every event, bounty or not); ``paid``:
    eliminator -> cash paid now; ``head``: eliminator -> added to the bounty on
    his own head (PKO only).  ``paid`` and ``head`` add up to ``bounty``.
    """

    busted: int | None
    bounty: int
    by: tuple[int, ...] = ()
    paid: dict[int, int] = field(default_factory=dict)
    head: dict[int, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {"bounty": self.bounty, "by": list(self.by),
                "paid": {str(k): v for k, v in self.paid.items()},
                "head": {str(k): v for k, v in self.head.items()}}


def split_bounty(amount: int, winners: Sequence[int], weights: Sequence[int] | None = None, *,
                 unit: int = 1) -> dict[int, int]:
    """Share a bounty between the players who won the pot that busted its owner.

    ``winners`` come in the pot's odd-chip order (TDA 2024 rule 20: the first
    player left of the button first); ``weights`` are the chips each won from
    that pot (default: equal shares).  Shares are whole ``unit``\\ s, in
    proportion to the weights; units that do not divide go one each in the
    odd-chip order (``money.apportion``).

    >>> split_bounty(5_000, [3, 8])
    {3: 2500, 8: 2500}
    >>> split_bounty(5_000, [8, 3], unit=300)
    {8: 2600, 3: 2400}
    >>> split_bounty(1_000, [4, 5, 6], weights=[500, 250, 250])
    {4: 500, 5: 250, 6: 250}
    """
    if not winners:
        raise BountyError("A bounty needs at least one player to win it")
    if len(set(winners)) != len(winners):
        raise BountyError("A player is named twice among the eliminators")
    weights = list(weights) if weights is not None else [1] * len(winners)
    if len(weights) != len(winners) or any(w <= 0 for w in weights):
        raise BountyError("Each eliminator needs a positive share of the pot")
    total = sum(weights)
    quotas = [Fraction(amount * w, total) for w in weights]
    shares = apportion(amount, quotas, unit=unit)
    return dict(zip(winners, shares, strict=True))


def odd_chip_order(seats: Sequence[tuple[int, int]], button: int | None,
                   size: int) -> tuple[int, ...]:
    """The players who split a pot, ``(player, seat)`` at one table, in the order its odd
    chips go: the first player left of the button, then clockwise (TDA 2024 rule 20).
    Before the first hand there is no button: from seat 1.  The bounty of a player busted
    by a split pot splits in the same order (:func:`split_bounty`).

    >>> odd_chip_order([(7, 2), (9, 6)], button=4, size=9)
    (9, 7)
    >>> odd_chip_order([(7, 2), (9, 6)], button=None, size=9)
    (7, 9)
    """
    start = button if button is not None else 0
    return tuple(player for player, seat in sorted(
        seats, key=lambda pair: (pair[1] - start - 1) % max(size, 1)))


def pko_halves(amount: int, *, unit: int = 1) -> tuple[int, int]:
    """A PKO bounty won: (cash paid now, added to the eliminator's own head).

    The halves are whole ``unit``\\ s; the odd unit is paid in cash.

    >>> pko_halves(5_000), pko_halves(5_100, unit=100), pko_halves(3)
    ((2500, 2500), (2600, 2500), (2, 1))
    """
    if amount < 0:
        raise BountyError("A bounty cannot be negative ({amount})", amount=amount)
    head = (amount // 2) // unit * unit
    return amount - head, head


def knock_out(kind: BountyKind | str, *, bounty: int, eliminators: Sequence[int],
              weights: Sequence[int] | None = None, unit: int = 1,
              busted: int | None = None) -> Knockout:
    """The knockout of a player whose head carried ``bounty``, by ``eliminators``
    (in the pot's odd-chip order, ``weights`` the chips each won from it).

    Fixed: the eliminators are paid the bounty.  PKO: each eliminator's share is
    halved, cash now and onto his own head (``pko_halves``).

    >>> ko = knock_out("fixed", bounty=5_000, eliminators=[2])
    >>> dict(ko.paid), dict(ko.head)
    ({2: 5000}, {})
    >>> ko = knock_out("pko", bounty=7_500, eliminators=[2, 5], unit=100)
    >>> dict(ko.paid), dict(ko.head)
    ({2: 1900, 5: 1900}, {2: 1900, 5: 1800})
    """
    kind = BountyKind(kind)
    by = tuple(eliminators)
    if busted is not None and busted in by:
        raise BountyError("A player cannot knock himself out")
    if kind is BountyKind.NONE or bounty <= 0 or not by:
        return Knockout(busted, max(bounty, 0) if by else 0, by)
    shares = split_bounty(bounty, by, weights, unit=unit)
    if kind is BountyKind.FIXED:
        return Knockout(busted, bounty, by, shares, {})
    paid, head = {}, {}
    for player, share in shares.items():
        paid[player], head[player] = pko_halves(share, unit=unit)
    return Knockout(busted, bounty, by, paid, head)


@dataclass(frozen=True)
class PotWon:
    """What the engine says of one pot at the end of a hand, enough to find an eliminator:
    its index, the players eligible for it, and (player, chips won, odd chips) in the
    order the awards list them."""

    index: int
    eligible: tuple[int, ...]
    won: tuple[tuple[int, int, int], ...]


def eliminators(busted: int, pots: Sequence[PotWon]) -> tuple[tuple[int, int], ...]:
    """Who knocked out ``busted`` (a hand index): the winners of the last pot he was
    eligible for, as ``(player, his fair share of it)`` in odd-chip order.

    The fair share is the chips won less the odd chips (a half or a whole pot
    shared evenly), so two players who split a pot split the bounty evenly and
    the bounty's own odd unit follows the pot's odd chip.  The odd-chip order
    is the pot's own (``poker.pots``): the player who received an odd chip of
    that pot first, then the others from the first left of the button
    (ascending hand index; TDA 2024 rule 20).  Empty when he was eligible for
    no pot (he busted posting a blind that nobody called, say) or it had no
    other winner.

    >>> pots = [PotWon(0, (0, 1, 2), ((1, 900, 0),)), PotWon(1, (1, 2), ((2, 300, 0),))]
    >>> eliminators(0, pots)
    ((1, 900),)
    >>> eliminators(0, [PotWon(0, (0, 1, 2), ((1, 150, 0), (2, 175, 25)))])
    ((2, 150), (1, 150))
    """
    mine = [pot for pot in pots if busted in pot.eligible]
    if not mine:
        return ()
    last = max(mine, key=lambda pot: pot.index)
    won: dict[int, list[int]] = {}
    for player, chips, odd in last.won:
        if player == busted or chips <= 0:
            continue
        entry = won.setdefault(player, [0, 0, 0])
        entry[0] += chips - odd
        entry[1] += odd
        entry[2] += chips
    order = sorted(won, key=lambda p: (-won[p][1], p))
    fair = all(won[p][0] > 0 for p in order)        # else (a pot of odd chips only) the chips
    return tuple((player, won[player][0] if fair else won[player][2]) for player in order)


def can_take_back(knockout: Mapping[str, object] | None, heads_won: Mapping[int, bool]) -> bool:
    """May this recorded knockout be taken back (the elimination undone)?  Not in a PKO
    once an eliminator's own head, which it raised, has been won by someone else:
    that bounty was paid out with the raise in it (``heads_won``: player -> out).

    >>> can_take_back({"head": {"3": 2500}}, {3: False}), can_take_back({"head": {"3": 2500}}, {3: True})
    (True, False)
    """
    if not knockout:
        return True
    head = knockout.get("head") or {}
    assert isinstance(head, Mapping)
    return not any(heads_won.get(int(player), False) for player, added in head.items() if added)


def verify_take_back(knockout: Mapping[str, object] | None, heads_won: Mapping[int, bool],
                     names: Mapping[int, str]) -> None:
    """``can_take_back`` with the reason: "Bo's bounty, raised by this knockout, has been won
    since: undo Bo's elimination first".

    >>> verify_take_back({"head": {"3": 2500}}, {3: True}, {3: "Bo"})
    Traceback (most recent call last):
      ...
    director.tournament.bounties.BountyError: Bo's bounty, raised by this knockout, has been won since: undo Bo's elimination first
    """
    if can_take_back(knockout, heads_won):
        return
    head = knockout.get("head") if knockout else {}
    assert isinstance(head, Mapping)
    who = next(int(p) for p, added in head.items() if added and heads_won.get(int(p)))
    raise BountyError("{name}'s bounty, raised by this knockout, has been won since: undo "
                      "{name}'s elimination first", name=names.get(who, str(who)))
