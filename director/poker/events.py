"""The events of one hand: what a dealer records, in order.

A hand is a sequence of these frozen values; :class:`director.poker.state.Hand`
is a fold over them (STYLE.md: persist the events, not a pickled object).
Forced bets (antes, blinds, a dead player's bring-in) are not events: they follow
from the :class:`~director.poker.state.HandConfig`, as in PHH (shared/PHH.md).

Every event turns into a small JSON dict and back:

>>> from director.poker.cards import parse_card
>>> e = Action(2, ActionKind.RAISE, 700)
>>> event_to_json(e)
{'type': 'action', 'player': 2, 'action': 'raise', 'amount': 700}
>>> event_from_json(event_to_json(e)) == e
True
>>> event_to_json(DealBoard((parse_card("As"), None, parse_card("7h"))))
{'type': 'deal_board', 'cards': ['As', '??', '7h']}

Player numbers are indices into the hand's player list (0-based; PHH's
``p1`` is index 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from director.poker.cards import Card, parse_card
from director.poker.errors import RuleViolation

UNKNOWN = "??"


class ActionKind(StrEnum):
    """What a player does in turn.

    ``call`` with nothing to call is a check (RULES.md §2.1); ``bet`` facing a bet
    is read as a raise and ``raise`` with no bet as a bet: both take the total
    ("to") amount, as TDA 43-B reads "raise, N".  ``complete`` is the stud
    completion to the small bet, or in fixed limit the completion of a short
    all-in to a full bet.  ``all_in`` puts every chip in (a call or a raise).
    """

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    COMPLETE = "complete"
    BRING_IN = "bring_in"
    ALL_IN = "all_in"


Cards = tuple[Card | None, ...]


def cards_to_json(cards: Iterable[Card | None]) -> list[str]:
    """``[As, ??]`` style: one string per card, ``"??"`` for a card nobody saw."""
    return [UNKNOWN if c is None else str(c) for c in cards]


def cards_from_json(items: Iterable[str | None] | str) -> Cards:
    """The inverse of :func:`cards_to_json`; also takes one string ``"As??7h"``."""
    if isinstance(items, str):
        text = items.replace(" ", "")
        if len(text) % 2:
            raise RuleViolation("Cannot read the cards {text}", text=items)
        items = [text[i:i + 2] for i in range(0, len(text), 2)]
    return tuple(None if (t is None or t == UNKNOWN) else parse_card(t) for t in items)


@dataclass(frozen=True, slots=True)
class DealHole:
    """Cards dealt to one player.

    Omaha: four hole cards at once.  Stud (PHH ``d dh``): third street three cards,
    two down then the up-card; fourth to sixth street one up-card; seventh one
    down-card.  A card nobody saw is ``None``; stud up-cards should be known,
    because they decide the bring-in and who acts first.
    """

    player: int
    cards: Cards
    type: ClassVar[str] = "deal_hole"


@dataclass(frozen=True, slots=True)
class DealBoard:
    """Board cards: the flop (3), the turn (1) or the river (1).

    The dealer may just tap "Flop dealt": ``DealBoard((None, None, None))``.
    """

    cards: Cards
    type: ClassVar[str] = "deal_board"


@dataclass(frozen=True, slots=True)
class Action:
    """A player's action in turn.  ``amount`` is the street total ("to"), or None."""

    player: int
    action: ActionKind
    amount: int | None = None
    type: ClassVar[str] = "action"


@dataclass(frozen=True, slots=True)
class Show:
    """A player tables his hand at showdown (Omaha: four cards; stud: all seven,
    or only his three down-cards)."""

    player: int
    cards: Cards
    type: ClassVar[str] = "show"


@dataclass(frozen=True, slots=True)
class Muck:
    """A player at showdown throws his hand away unshown: it can win nothing."""

    player: int
    type: ClassVar[str] = "muck"



FOLD_OUT_OF_TURN = "fold out of turn"   # a Kill that is the player's binding fold (TDA 53), not a dead hand

@dataclass(frozen=True, slots=True)
class Kill:
    """The floor kills a hand: absent player (TDA 30), clock expired facing a bet
    (TDA 29), fouled hand.  The player's chips stay in the pot."""

    player: int
    reason: str = "absent"
    type: ClassVar[str] = "kill"


@dataclass(frozen=True, slots=True)
class CheckByClock:
    """The clock expired on a player who was not facing a bet: his hand is checked (TDA 29)."""

    player: int
    type: ClassVar[str] = "check_by_clock"


@dataclass(frozen=True, slots=True)
class ManualAward:
    """The dealer names the winners when the cards were not entered.

    ``high`` ranks the players best first, ties grouped: ``((3,), (1, 5))`` means
    player 3 has the best high hand and players 1 and 5 tie for second.  Each
    pot goes to the best group with an eligible player; ``low`` is the same for
    the low half (hi/lo games; empty = nobody has a low).  The engine still splits
    every pot and places the odd chips.
    """

    high: tuple[tuple[int, ...], ...]
    low: tuple[tuple[int, ...], ...] = ()
    type: ClassVar[str] = "manual_award"


@dataclass(frozen=True, slots=True)
class Misdeal:
    """The hand is void (TDA 35): every chip goes back, forced bets included."""

    reason: str = ""
    type: ClassVar[str] = "misdeal"


Event = DealHole | DealBoard | Action | Show | Muck | Kill | CheckByClock | ManualAward | Misdeal


def event_to_json(event: Event) -> dict[str, Any]:
    """One event as a plain JSON dict with a ``type`` key."""
    out: dict[str, Any] = {"type": event.type}
    if isinstance(event, Action):
        out.update(player=event.player, action=event.action.value)
        if event.amount is not None:
            out["amount"] = event.amount
    elif isinstance(event, DealHole | Show):
        out.update(player=event.player, cards=cards_to_json(event.cards))
    elif isinstance(event, DealBoard):
        out["cards"] = cards_to_json(event.cards)
    elif isinstance(event, Kill):
        out.update(player=event.player, reason=event.reason)
    elif isinstance(event, Muck | CheckByClock):
        out["player"] = event.player
    elif isinstance(event, ManualAward):
        out.update(high=[list(g) for g in event.high], low=[list(g) for g in event.low])
    elif isinstance(event, Misdeal):
        out["reason"] = event.reason
    return out


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleViolation("Event field {key} must be a whole number, not {value}",
                            key=key, value=value)
    return value


def event_from_json(data: Mapping[str, Any]) -> Event:
    """Rebuild an event from :func:`event_to_json`'s dict."""
    kind = data.get("type")
    if kind == "action":
        try:
            action = ActionKind(str(data.get("action")))
        except ValueError:
            raise RuleViolation("Unknown action {action}", action=data.get("action")) from None
        amount = data.get("amount")
        return Action(_int(data, "player"), action, None if amount is None else _int(data, "amount"))
    if kind == "deal_hole":
        return DealHole(_int(data, "player"), cards_from_json(data.get("cards", ())))
    if kind == "deal_board":
        return DealBoard(cards_from_json(data.get("cards", ())))
    if kind == "show":
        return Show(_int(data, "player"), cards_from_json(data.get("cards", ())))
    if kind == "muck":
        return Muck(_int(data, "player"))
    if kind == "kill":
        return Kill(_int(data, "player"), str(data.get("reason", "absent")))
    if kind == "check_by_clock":
        return CheckByClock(_int(data, "player"))
    if kind == "manual_award":
        return ManualAward(
            tuple(tuple(int(p) for p in g) for g in data.get("high", ())),
            tuple(tuple(int(p) for p in g) for g in data.get("low", ())),
        )
    if kind == "misdeal":
        return Misdeal(str(data.get("reason", "")))
    raise RuleViolation("Unknown event type {kind}", kind=kind)


__all__ = [
    "Action",
    "ActionKind",
    "CheckByClock",
    "DealBoard",
    "DealHole",
    "Event",
    "Kill",
    "ManualAward",
    "Misdeal",
    "Muck",
    "Show",
    "cards_from_json",
    "cards_to_json",
    "event_from_json",
    "event_to_json",
]
