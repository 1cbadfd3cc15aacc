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


# ---------------------------------------------------------------- the event's chip set

MAX_DENOMINATIONS = 10
MAX_DENOMINATION = 10**9


def parse_chip_set(values: object) -> tuple[int, ...]:
    """The event's chip denominations, smallest first (the chip set).

    Each must be a whole number of at least 1, and each must be made of whole
    chips of the one below it, so that a colour-up exchanges every full set
    (TDA 24).  Raises ``RuleViolation`` with the reason.

    >>> parse_chip_set([100, 25, 5000, 500, 1000])
    (25, 100, 500, 1000, 5000)
    >>> parse_chip_set([25, 100, 250])
    Traceback (most recent call last):
    ...
    director.poker.errors.RuleViolation: T250 chips cannot be made from whole T100 chips
    """
    if not isinstance(values, list | tuple) or not values:
        raise RuleViolation("Give the chip denominations, for example 25, 100, 500, 1000, 5000")
    if len(values) > MAX_DENOMINATIONS:
        raise RuleViolation("A chip set has at most {count} denominations", count=MAX_DENOMINATIONS)
    for value in values:
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_DENOMINATION:
            raise RuleViolation("A chip is a whole number from 1 to {most:,}, not {value}",
                                most=MAX_DENOMINATION, value=value)
    chips = tuple(sorted(values))
    for low, high in zip(chips, chips[1:], strict=False):
        if high == low:
            raise RuleViolation("T{chip} is listed twice", chip=low)
        if high % low:
            raise RuleViolation("T{new} chips cannot be made from whole T{removed} chips",
                                new=high, removed=low)
    return chips


def _amounts(level: object) -> list[int]:
    names = ("small_blind", "big_blind", "ante", "small_bet", "big_bet", "bring_in")
    return [getattr(level, name) for name in names if getattr(level, name)]


def smallest_needed(level: object, chips: Sequence[int]) -> int | None:
    """The largest denomination every forced bet and limit of ``level`` is made of
    (None when not even the smallest chip makes them).

    >>> from director.tournament.structure import Level
    >>> from director.poker.games import Game
    >>> smallest_needed(Level(game=Game.PO, small_blind=150, big_blind=300), (25, 100, 500))
    25
    >>> smallest_needed(Level(game=Game.PO, small_blind=1000, big_blind=2000), (25, 100, 500))
    500
    """
    amounts = _amounts(level)
    fitting = [chip for chip in chips if all(amount % chip == 0 for amount in amounts)]
    return max(fitting) if fitting else None


@dataclass(frozen=True, slots=True)
class ColourUp:
    """A colour-up at the break ``index`` of the structure: ``removed`` go, ``smallest``
    is the smallest chip in play from then on (TDA 24)."""

    index: int
    removed: tuple[int, ...]
    smallest: int

    def note(self) -> str:
        """The break's note, as the shipped templates write it.

        >>> ColourUp(4, (25,), 100).note()
        'Colour-up: remove T25 chips (chip race)'
        >>> ColourUp(4, (25, 100), 500).note()
        'Colour-up: remove T25 and T100 chips (chip race)'
        """
        names = " and ".join(f"T{chip}" for chip in self.removed)
        return f"Colour-up: remove {names} chips (chip race)"

    def to_json(self) -> dict[str, object]:
        return {"index": self.index, "removed": list(self.removed), "smallest": self.smallest}


def planned_colour_ups(levels: Sequence[object], chips: Sequence[int]) -> tuple[ColourUp, ...]:
    """The colour-ups a structure allows: at each break, every chip smaller than the
    smallest one that a later blind, ante, bring-in or limit still needs goes
    (RULES.md §9.2).  ``levels`` are ``structure.Level`` entries; ``chips`` the
    chip set, smallest first.

    The PLO standard template with 25/100/500/1000/5000 chips: T25 goes at the
    second break (400/800 is the next level), T100 at the third, T500 at the fourth.

    >>> from director.tournament.structure import template
    >>> ups = planned_colour_ups(template("plo-standard").levels, (25, 100, 500, 1000, 5000))
    >>> [(up.index, up.removed, up.smallest) for up in ups]
    [(9, (25,), 100), (14, (100,), 500), (19, (500,), 1000)]
    """
    in_play = chips[0]
    planned = []
    for index, level in enumerate(levels):
        if not getattr(level, "is_break", False):
            continue
        later = [entry for entry in levels[index + 1:] if not getattr(entry, "is_break", False)]
        if not later:
            continue
        needs = [smallest_needed(entry, chips) for entry in later]
        need = min((n if n is not None else chips[0]) for n in needs)
        if need > in_play:
            removed = tuple(chip for chip in chips if in_play <= chip < need)
            planned.append(ColourUp(index, removed, need))
            in_play = need
    return tuple(planned)


def chips_in_play(levels: Sequence[object], chips: Sequence[int]) -> list[int]:
    """The smallest chip in play during each entry, after the planned colour-ups.

    >>> from director.tournament.structure import template
    >>> chips_in_play(template("plo-turbo").levels, (25, 100, 500))[7:10]
    [25, 100, 100]
    """
    ups = {up.index: up.smallest for up in planned_colour_ups(levels, chips)}
    smallest, out = chips[0], []
    for index in range(len(levels)):
        smallest = ups.get(index, smallest)
        out.append(smallest)
    return out


# ---------------------------------------------------------------- one table's race

@dataclass(frozen=True, slots=True)
class TableRace:
    """A colour-up at one table: each seat's ``count`` of the removed chip, the
    direct exchange, the race and each seat's stack after it (``stacks``)."""

    plan: RacePlan
    counts: dict[int, int]
    exchanged: dict[int, int]
    result: RaceResult | None
    cards: dict[int, tuple[Card, ...]]
    stacks: dict[int, int]


def race_table(counts: Mapping[int, int], stacks: Mapping[int, int], *, removed: int, new: int,
               rng: random.Random, rounding: str = "half-up") -> TableRace:
    """Colour up one table: every full set of the ``removed`` chip is exchanged for
    ``new`` chips, the odd chips are raced (cards dealt with ``rng``), and each
    seat's stack (``stacks``: seat -> chips before) becomes what he has after.

    [CR-1] at one table: S1 has 3 T25, S3 2, S6 1, S8 3; the race awards 2 T100.

    >>> t = race_table({1: 3, 3: 2, 6: 1, 8: 3}, {1: 5075, 3: 5050, 6: 5025, 8: 5075},
    ...                removed=25, new=100, rng=random.Random(1))
    >>> sum(t.stacks.values()) - (5000 * 4), len(t.result.winners)
    (200, 2)
    """
    _check_denominations(removed, new)
    exchanged, odd = {}, {}
    for seat, count in sorted(counts.items()):
        _whole("The chip count", count)
        if count * removed > stacks.get(seat, 0):
            raise RuleViolation("Seat {seat} has {count} T{removed} chips, more than his stack of "
                                "{stack}", seat=seat, count=count, removed=removed,
                                stack=stacks.get(seat, 0))
        exchanged[seat], odd[seat] = exchange(count, removed=removed, new=new)
    plan = plan_race(odd, removed=removed, new=new, rounding=rounding)
    after = {seat: stack - counts.get(seat, 0) * removed + exchanged.get(seat, 0) * new
             for seat, stack in stacks.items()}
    if not plan.seats:
        return TableRace(plan, dict(counts), exchanged, None, {}, after)
    cards = deal_race_cards(plan, rng)
    result = race(plan, cards, {seat: after[seat] for seat in plan.seats})
    for seat, won in result.new_chips.items():
        after[seat] += won * new
    return TableRace(plan, dict(counts), exchanged, result, cards, after)


__all__ = [
    "ROUNDING",
    "ColourUp",
    "RacePlan",
    "RaceResult",
    "TableRace",
    "chips_in_play",
    "chips_to_race",
    "deal_race_cards",
    "parse_chip_set",
    "planned_colour_ups",
    "race_table",
    "smallest_needed",
    "exchange",
    "plan_race",
    "race",
]
