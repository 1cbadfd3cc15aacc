"""Colour-ups and the chip race (TDA 2024 rules 24-25; RRP *Tournaments*; RULES.md §9.2).

When a denomination is removed, every full set of it is exchanged directly for
the new smallest chip.  The odd chips left over are *raced off*:

1. The number of new chips raced = the total odd value divided by the new
   denomination, plus a final chip if the leftover is at least half a new chip
   (RRP; TDA is silent, so this is the ``rounding`` policy "half-up"; "down"
   gives only whole chips, "up" a chip for any leftover).
2. Cards are dealt from seat 1 clockwise, one card per odd chip, each player
   getting all of his cards before the next player (RRP).
3. The highest card (rank, then suit ♣ < ♦ < ♥ < ♠) wins the first new chip, the
   next highest card held by a different player the next one, and so on: at most
   one chip per player.
4. Nobody is raced out: a player who loses his last chips in the race gets one
   chip of the smallest denomination still in play (TDA 24-A).

Everything is pure: the dealt cards are an input, and :func:`deal_race_cards`
deals them from a shuffled deck with the ``random.Random`` you pass (seed it for
a reproducible race).

[CR-1] T25 removed, T100 the new smallest; odd chips S1 3, S3 2, S6 1, S8 3 (225):
two T100 chips are raced, and the two best players by highest card win one each.

>>> plan = plan_race({1: 3, 3: 2, 6: 1, 8: 3}, removed=25, new=100)
>>> plan.odd_value, plan.chips_raced, plan.cards
(225, 2, {1: 3, 3: 2, 6: 1, 8: 3})
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from director.poker.cards import DECK, Card, check_no_duplicates
from director.poker.errors import RuleViolation

ROUNDING = ("half-up", "down", "up")


def _whole(name: str, value: int, minimum: int = 0) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise RuleViolation("{name} must be a whole number of at least {minimum}, not {value}",
                            name=name, minimum=minimum, value=value)


def exchange(count: int, *, removed: int, new: int) -> tuple[int, int]:
    """Direct colour-up of one player's ``count`` chips of the ``removed``
    denomination: ``(new chips, odd chips left to race)`` (TDA 24).

    >>> exchange(7, removed=25, new=100)     # 175: one T100 and three T25 to race
    (1, 3)
    """
    _check_denominations(removed, new)
    _whole("The chip count", count)
    per_new = new // removed
    return divmod(count, per_new)


def _check_denominations(removed: int, new: int) -> None:
    _whole("The removed denomination", removed, 1)
    _whole("The new denomination", new, 1)
    if new <= removed or new % removed:
        raise RuleViolation("T{new} chips cannot be made from whole T{removed} chips",
                            new=new, removed=removed)


def chips_to_race(odd_value: int, new: int, rounding: str = "half-up") -> int:
    """How many new chips the race awards for ``odd_value`` in odd chips.

    "half-up" (RRP): whole chips plus a final chip if the leftover is at least half a
    new chip.  "down": whole chips only.  "up": a chip for any leftover.

    >>> chips_to_race(225, 100), chips_to_race(275, 100)     # [CR-1], [CR-2]
    (2, 3)
    >>> chips_to_race(275, 100, "down"), chips_to_race(225, 100, "up")
    (2, 3)
    """
    _whole("The odd value", odd_value)
    _whole("The new denomination", new, 1)
    if rounding not in ROUNDING:
        raise RuleViolation("Chip race rounding must be one of {allowed}, not {value}",
                            allowed=", ".join(ROUNDING), value=rounding)
    whole, leftover = divmod(odd_value, new)
    if leftover and (rounding == "up" or (rounding == "half-up" and 2 * leftover >= new)):
        return whole + 1
    return whole


@dataclass(frozen=True, slots=True)
class RacePlan:
    """What the race needs before the cards are dealt.

    ``odd_chips``: seat -> odd chips of the removed denomination (after the direct
    exchange); ``cards``: seat -> cards to deal him (one per odd chip, RRP);
    ``odd_value``: their total value; ``chips_raced``: new chips to award.
    """

    removed: int
    new: int
    odd_chips: dict[int, int]
    cards: dict[int, int]
    odd_value: int
    chips_raced: int

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats in the race, in dealing order (seat 1 first)."""
        return tuple(sorted(self.cards))


def plan_race(odd_chips: Mapping[int, int], *, removed: int, new: int,
              rounding: str = "half-up") -> RacePlan:
    """Plan the race for the odd chips left after the direct exchange.

    ``odd_chips`` maps seat -> chips of the removed denomination still in front of
    him (fewer than one new chip's worth each; use :func:`exchange` first).

    >>> plan_race({1: 3, 2: 3, 5: 1}, removed=25, new=100).chips_raced   # 175 -> 1 + 75 >= 50
    2
    """
    _check_denominations(removed, new)
    per_new = new // removed
    racing: dict[int, int] = {}
    for seat, count in sorted(odd_chips.items()):
        _whole("Seat", seat, 1)
        _whole("The odd chip count", count)
        if count >= per_new:
            raise RuleViolation(
                "Seat {seat} has {count} T{removed} chips: exchange every full set for a T{new} first",
                seat=seat, count=count, removed=removed, new=new)
        if count:
            racing[seat] = count
    if sum(racing.values()) > len(DECK):
        raise RuleViolation("{cards} cards are needed but a deck has 52", cards=sum(racing.values()))
    odd_value = sum(racing.values()) * removed
    raced = chips_to_race(odd_value, new, rounding)
    return RacePlan(removed, new, racing, dict(racing), odd_value, min(raced, len(racing)))


def deal_race_cards(plan: RacePlan, rng: random.Random) -> dict[int, tuple[Card, ...]]:
    """Shuffle a deck with ``rng`` and deal the race: from seat 1 clockwise, each
    player gets all of his cards before the next one (RRP).

    >>> plan = plan_race({1: 3, 3: 2}, removed=25, new=100)
    >>> dealt = deal_race_cards(plan, random.Random(7))
    >>> {seat: len(cards) for seat, cards in dealt.items()}
    {1: 3, 3: 2}
    """
    deck = list(DECK)
    rng.shuffle(deck)
    dealt: dict[int, tuple[Card, ...]] = {}
    top = 0
    for seat in plan.seats:
        dealt[seat] = tuple(deck[top:top + plan.cards[seat]])
        top += plan.cards[seat]
    return dealt


def _card_key(card: Card) -> tuple[int, int]:
    return (card.rank, card.suit_rank)


@dataclass(frozen=True, slots=True)
class RaceResult:
    """The outcome of a chip race.

    ``winners``: seats that won a new chip, in the order the chips were won;
    ``protected``: seats that lost their last chips and get one new chip anyway
    (TDA 24-A); ``new_chips``: seat -> new chips from the race (0 or 1) plus the
    protection chip; ``best_cards``: each racing seat's highest card;
    ``lines``: the explanation for the screen, one line per seat.
    """

    chips_raced: int
    winners: tuple[int, ...]
    protected: tuple[int, ...]
    new_chips: dict[int, int]
    best_cards: dict[int, Card]
    lines: tuple[str, ...]


def race(plan: RacePlan, cards: Mapping[int, Sequence[Card]],
         other_chips: Mapping[int, int] | None = None) -> RaceResult:
    """Award the raced chips (TDA 24; RRP *Tournaments*).

    ``cards``: seat -> the cards he was dealt (one per odd chip).  ``other_chips``:
    seat -> the value of the chips he still has besides his odd chips (after the
    direct exchange); a racing seat with nothing else who wins no chip is given one
    (TDA 24-A: nobody is raced out).  Seats missing from ``other_chips`` are assumed
    to have other chips.

    [CR-1] S8 holds the A♠, S3 the next best card (K♦): S8 and S3 win a T100 each.

    >>> from director.poker.cards import parse_cards
    >>> plan = plan_race({1: 3, 3: 2, 6: 1, 8: 3}, removed=25, new=100)
    >>> dealt = {1: parse_cards("2c 9h Jd"), 3: parse_cards("Kd 4s"), 6: parse_cards("Qh"),
    ...          8: parse_cards("As 3d 5c")}
    >>> race(plan, dealt).winners
    (8, 3)
    """
    if set(cards) != set(plan.cards):
        raise RuleViolation("Cards must be dealt to exactly the racing seats {seats}",
                            seats=", ".join(str(s) for s in plan.seats))
    for seat in plan.seats:
        if len(cards[seat]) != plan.cards[seat]:
            raise RuleViolation("Seat {seat} must get {need} cards, one per odd chip, not {got}",
                                seat=seat, need=plan.cards[seat], got=len(cards[seat]))
    check_no_duplicates(*(cards[s] for s in plan.seats))
    best = {seat: max(cards[seat], key=_card_key) for seat in plan.seats}
    order = sorted(plan.seats, key=lambda s: _card_key(best[s]), reverse=True)
    winners = tuple(order[:plan.chips_raced])
    others = other_chips or {}
    protected = tuple(s for s in plan.seats if s not in winners and others.get(s, 1) == 0)
    new_chips = {s: (1 if s in winners else 0) + (1 if s in protected else 0) for s in plan.seats}
    lines = []
    for seat in plan.seats:
        if seat in winners:
            place = winners.index(seat) + 1
            lines.append(f"Seat {seat}: {best[seat].symbol} wins new chip {place} (T{plan.new})")
        elif seat in protected:
            lines.append(f"Seat {seat}: {best[seat].symbol} loses the race but cannot be raced out: "
                         f"one T{plan.new} chip (TDA 24-A)")
        else:
            lines.append(f"Seat {seat}: {best[seat].symbol} wins nothing")
    return RaceResult(plan.chips_raced, winners, protected, new_chips, best, tuple(lines))


__all__ = [
    "ROUNDING",
    "RacePlan",
    "RaceResult",
    "chips_to_race",
    "deal_race_cards",
    "exchange",
    "plan_race",
    "race",
]
