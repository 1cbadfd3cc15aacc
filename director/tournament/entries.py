"""Entries: the buy-in, re-entries, rebuys and the add-on, and when each is refused.

The event's settings (issue 6) say what the desk may sell and until when;
this module answers, for one player at one moment of the clock, the three
questions of every rule: may he (``can_purchase``), why not
(``verify_purchase`` raises :class:`EntryRefused` with the reason, e.g.
"Rebuys ended at level 6"), and what he gets (``purchase``: the price and
the chips).

The moment is given as the current ``level`` number (0 before play starts)
and ``on_break``, meaning the break that follows that level.  House policy,
written down here once: a period that runs "until level N" (late
registration, re-entry, rebuys) is open through the end of level N **and the
break right after it**, and ends when level N + 1 starts.  The add-on is
sold only at the break after its level, once per player.

>>> rules = EntryRules(buy_in=BuyIn(10_000, 1_000), starting_stack=20_000,
...                    late_registration_level=6,
...                    rebuy=Rebuy(BuyIn(10_000), chips=20_000, until_level=6),
...                    add_on=AddOn(BuyIn(10_000), chips=30_000, at_break=6))
>>> player = PlayerEntries(entries=1)
>>> purchase(rules, EntryKind.REBUY, player, level=7, stack=0)
Traceback (most recent call last):
  ...
director.tournament.entries.EntryRefused: Rebuys ended at level 6
>>> purchase(rules, EntryKind.ADD_ON, player, level=6, on_break=True, stack=18_000)
Purchase(kind=<EntryKind.ADD_ON: 'add-on'>, price=BuyIn(prize=10000, fee=0), chips=30000)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from director.poker.errors import RuleViolation
from director.tournament.money import BuyIn

__all__ = [
    "AddOn",
    "EntryKind",
    "EntryRefused",
    "EntryRules",
    "EntrySettingsError",
    "PlayerEntries",
    "Purchase",
    "ReEntry",
    "Rebuy",
    "average_stack",
    "can_purchase",
    "chips_in_play",
    "purchase",
    "verify_purchase",
]


class EntryRefused(RuleViolation):
    """The desk may not sell this: the reason is a sentence for the director."""


class EntrySettingsError(RuleViolation):
    """Event settings that make no sense (a negative stack, a rebuy period ending before level 1)."""


class EntryKind(StrEnum):
    BUY_IN = "buy-in"
    RE_ENTRY = "re-entry"
    REBUY = "rebuy"
    ADD_ON = "add-on"


def _whole(value: int | None, what: str, *, minimum: int, optional: bool = False) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise EntrySettingsError("The {what} must be a whole number of at least {minimum}, not {value!r}",
                                 what=what, minimum=minimum, value=value)


@dataclass(frozen=True)
class ReEntry:
    """Re-entry: a busted player buys a new entry (at the buy-in price, for a starting stack).

    ``max_re_entries`` None means no limit; ``until_level`` None means until
    late registration closes.
    """

    max_re_entries: int | None = None
    until_level: int | None = None

    def __post_init__(self) -> None:
        _whole(self.max_re_entries, "number of re-entries", minimum=1, optional=True)
        _whole(self.until_level, "last re-entry level", minimum=1, optional=True)


@dataclass(frozen=True)
class Rebuy:
    """Rebuys: ``price`` for ``chips``, until the end of ``until_level``.

    A rebuy is sold only to a player whose stack is at or below
    ``stack_limit`` (None: the starting stack), at most ``max_rebuys`` times
    (None: no limit).
    """

    price: BuyIn
    chips: int
    until_level: int
    stack_limit: int | None = None
    max_rebuys: int | None = None

    def __post_init__(self) -> None:
        _whole(self.chips, "number of rebuy chips", minimum=1)
        _whole(self.until_level, "last rebuy level", minimum=1)
        _whole(self.stack_limit, "rebuy stack limit", minimum=0, optional=True)
        _whole(self.max_rebuys, "number of rebuys", minimum=1, optional=True)


@dataclass(frozen=True)
class AddOn:
    """The add-on: ``price`` for ``chips``, once per player, at the break after level ``at_break``."""

    price: BuyIn
    chips: int
    at_break: int

    def __post_init__(self) -> None:
        _whole(self.chips, "number of add-on chips", minimum=1)
        _whole(self.at_break, "add-on break level", minimum=1)


@dataclass(frozen=True)
class EntryRules:
    """What the registration desk may sell, from the event's settings.

    ``late_registration_level``: the last level at which a new player may
    register (0: registration closes when play begins).
    """

    buy_in: BuyIn
    starting_stack: int
    late_registration_level: int = 0
    re_entry: ReEntry | None = None
    rebuy: Rebuy | None = None
    add_on: AddOn | None = None

    def __post_init__(self) -> None:
        _whole(self.starting_stack, "starting stack", minimum=1)
        _whole(self.late_registration_level, "late registration level", minimum=0)

    @property
    def re_entry_until(self) -> int:
        """The last level a busted player may re-enter."""
        if self.re_entry is None or self.re_entry.until_level is None:
            return self.late_registration_level
        return self.re_entry.until_level

    @property
    def rebuy_stack_limit(self) -> int:
        """A rebuy needs a stack at or below this: the starting stack unless set."""
        if self.rebuy is None or self.rebuy.stack_limit is None:
            return self.starting_stack
        return self.rebuy.stack_limit

    def price_of(self, kind: EntryKind) -> BuyIn:
        """What the player pays for ``kind`` (a re-entry costs the buy-in)."""
        return self._offer(kind)[0]

    def chips_for(self, kind: EntryKind) -> int:
        """The chips the player receives for ``kind`` (a re-entry gets the starting stack)."""
        return self._offer(kind)[1]

    def _offer(self, kind: EntryKind) -> tuple[BuyIn, int]:
        if kind in (EntryKind.BUY_IN, EntryKind.RE_ENTRY):
            return self.buy_in, self.starting_stack
        offer = self.rebuy if kind is EntryKind.REBUY else self.add_on
        if offer is None:
            raise EntryRefused("This event has no {kinds}", kinds=_PLURAL[kind])
        return offer.price, offer.chips


_PLURAL = {EntryKind.BUY_IN: "buy-ins", EntryKind.RE_ENTRY: "re-entry",
           EntryKind.REBUY: "rebuys", EntryKind.ADD_ON: "add-on"}


@dataclass(frozen=True)
class PlayerEntries:
    """What one player has bought so far: ``entries`` counts the buy-in and every re-entry."""

    entries: int = 0
    rebuys: int = 0
    add_ons: int = 0

    @property
    def re_entries(self) -> int:
        return max(0, self.entries - 1)

    def after(self, purchase: Purchase) -> PlayerEntries:
        """The record once ``purchase`` is paid."""
        if purchase.kind in (EntryKind.BUY_IN, EntryKind.RE_ENTRY):
            return replace(self, entries=self.entries + 1)
        if purchase.kind is EntryKind.REBUY:
            return replace(self, rebuys=self.rebuys + 1)
        return replace(self, add_ons=self.add_ons + 1)


@dataclass(frozen=True)
class Purchase:
    """One sale at the desk: what was bought, what it costs and the chips it gives."""

    kind: EntryKind
    price: BuyIn
    chips: int


def _ended(period_end: int, level: int) -> bool:
    """True once level ``period_end`` + 1 has started (the break after ``period_end`` is still in)."""
    return level > period_end


def verify_purchase(rules: EntryRules, kind: EntryKind, player: PlayerEntries, *, level: int,
                    on_break: bool = False, stack: int | None = None, busted: bool = False) -> None:
    """Raise :class:`EntryRefused` with the reason if the desk may not sell ``kind`` now.

    ``stack`` is the player's chips now (needed for a rebuy), ``busted``
    whether he has been eliminated (needed for a re-entry).

    >>> rules = EntryRules(BuyIn(5_000), starting_stack=10_000, late_registration_level=4,
    ...                    re_entry=ReEntry(max_re_entries=1))
    >>> verify_purchase(rules, EntryKind.BUY_IN, PlayerEntries(), level=5)
    Traceback (most recent call last):
      ...
    director.tournament.entries.EntryRefused: Late registration closed at the end of level 4
    >>> verify_purchase(rules, EntryKind.RE_ENTRY, PlayerEntries(entries=2), level=2, busted=True)
    Traceback (most recent call last):
      ...
    director.tournament.entries.EntryRefused: No re-entries left: 1 of 1 used
    """
    _whole(level, "level", minimum=0)
    if kind is EntryKind.BUY_IN:
        if player.entries:
            raise EntryRefused("This player is already registered: a busted player re-enters instead")
        if _ended(rules.late_registration_level, level):
            if rules.late_registration_level == 0:
                raise EntryRefused("Registration closed when play began")
            raise EntryRefused("Late registration closed at the end of level {level}",
                               level=rules.late_registration_level)
        return
    if not player.entries:
        raise EntryRefused("This player is not registered: take the buy-in first")
    if kind is EntryKind.RE_ENTRY:
        _verify_re_entry(rules, player, level=level, busted=busted)
    elif kind is EntryKind.REBUY:
        _verify_rebuy(rules, player, level=level, stack=stack)
    else:
        _verify_add_on(rules, player, level=level, on_break=on_break, busted=busted)


def _verify_re_entry(rules: EntryRules, player: PlayerEntries, *, level: int, busted: bool) -> None:
    re_entry = rules.re_entry
    if re_entry is None:
        raise EntryRefused("This event has no re-entry")
    if _ended(rules.re_entry_until, level):
        if rules.re_entry_until == 0:
            raise EntryRefused("Re-entry closed when play began")
        raise EntryRefused("Re-entry ended at level {level}", level=rules.re_entry_until)
    if re_entry.max_re_entries is not None and player.re_entries >= re_entry.max_re_entries:
        raise EntryRefused("No re-entries left: {used} of {allowed} used",
                           used=player.re_entries, allowed=re_entry.max_re_entries)
    if not busted:
        raise EntryRefused("Only a busted player can re-enter: this player is still in")


def _verify_rebuy(rules: EntryRules, player: PlayerEntries, *, level: int,
                  stack: int | None) -> None:
    rebuy = rules.rebuy
    if rebuy is None:
        raise EntryRefused("This event has no rebuys")
    if _ended(rebuy.until_level, level):
        raise EntryRefused("Rebuys ended at level {level}", level=rebuy.until_level)
    if rebuy.max_rebuys is not None and player.rebuys >= rebuy.max_rebuys:
        raise EntryRefused("No rebuys left: {used} of {allowed} used",
                           used=player.rebuys, allowed=rebuy.max_rebuys)
    if stack is None:
        raise EntryRefused("Count the player's chips first: a rebuy needs the stack")
    _whole(stack, "stack", minimum=0)
    limit = rules.rebuy_stack_limit
    if stack > limit:
        raise EntryRefused("A rebuy needs a stack at or below {limit:,} chips; this player has {stack:,}",
                           limit=limit, stack=stack)


def _verify_add_on(rules: EntryRules, player: PlayerEntries, *, level: int, on_break: bool,
                   busted: bool) -> None:
    add_on = rules.add_on
    if add_on is None:
        raise EntryRefused("This event has no add-on")
    if player.add_ons:
        raise EntryRefused("This player has already taken the add-on")
    if busted:
        raise EntryRefused("A busted player cannot take the add-on")
    if not (on_break and level == add_on.at_break):
        if level > add_on.at_break:
            raise EntryRefused("The add-on was offered at the break after level {level} and is over",
                               level=add_on.at_break)
        raise EntryRefused("The add-on is offered only at the break after level {level}",
                           level=add_on.at_break)


def can_purchase(rules: EntryRules, kind: EntryKind, player: PlayerEntries, *, level: int,
                 on_break: bool = False, stack: int | None = None, busted: bool = False) -> bool:
    """Whether the desk may sell ``kind`` now (for greying out a button)."""
    try:
        verify_purchase(rules, kind, player, level=level, on_break=on_break, stack=stack,
                        busted=busted)
    except EntryRefused:
        return False
    return True


def purchase(rules: EntryRules, kind: EntryKind, player: PlayerEntries, *, level: int,
             on_break: bool = False, stack: int | None = None, busted: bool = False) -> Purchase:
    """The sale of ``kind``: its price and chips, or :class:`EntryRefused` with the reason."""
    verify_purchase(rules, kind, player, level=level, on_break=on_break, stack=stack, busted=busted)
    return Purchase(kind, rules.price_of(kind), rules.chips_for(kind))


def chips_in_play(rules: EntryRules, *, entries: int, rebuys: int = 0, add_ons: int = 0) -> int:
    """All the chips the desk has sold: entries (re-entries included), rebuys and add-ons.

    >>> chips_in_play(EntryRules(BuyIn(5_000), starting_stack=10_000), entries=12)
    120000
    """
    for count, what in ((entries, "number of entries"), (rebuys, "number of rebuys"),
                        (add_ons, "number of add-ons")):
        _whole(count, what, minimum=0)
    total = entries * rules.starting_stack
    if rebuys:
        total += rebuys * rules.chips_for(EntryKind.REBUY)
    if add_ons:
        total += add_ons * rules.chips_for(EntryKind.ADD_ON)
    return total


def average_stack(chips: int, players_left: int) -> int:
    """The average stack for the clock screen, in whole chips (rounded down).

    >>> average_stack(120_000, 7)
    17142
    """
    _whole(chips, "number of chips", minimum=0)
    _whole(players_left, "number of players left", minimum=1)
    return chips // players_left
