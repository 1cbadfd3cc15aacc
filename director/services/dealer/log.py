"""What the hand's log says: each event's sentence, the awards, the uncalled chips
returned and the tabled hands, kept language-neutral (a ``Said`` or a ``Line``: its
msgid or kind and its arguments) and said again in each reader's language; the log's
last lines and the whole log; the events the last tap recorded (what Undo takes back)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime
from functools import lru_cache
from types import SimpleNamespace
from typing import Any

from sqlalchemy import select

from director.db import db
from director.i18n import N_, award_sentences, current_language, hand_name, request_locale
from director.i18n import gettext as _
from director.models.hands import HandEvent, HandLogEntry
from director.poker.cards import Card, format_card
from director.poker.events import (
    Action,
    DealBoard,
    DealHole,
    Event,
    Kill,
    ManualAward,
    Misdeal,
    Muck,
    Show,
)
from director.poker.state import Hand
from director.services import NotFound
from director.services.audit import Said, said_again
from director.services.dealer.memory import known_log
from director.services.dealer.rows import (
    get_table_or_history,
    latest_hand,
    shown_number,
)
from director.services.dealer.seats import Seating

LOG_SHOWN = 12
UNDO_GROUP_MAX = 32     # more events than one write records (a street's up-cards: 8)


def returned_chips(hand: Hand, seating: Seating) -> tuple[list[dict[str, Any]], list[str]]:
    """The uncalled chips given back so far, each the moment its betting round closed
    (TDA 15-B, RULES.md §8.1 step 1): the JSON entries and their sentences,
    "6,000 returned to Seat 4 (María García)"."""
    out: list[dict[str, Any]] = []
    lines: list[str] = []
    for i, chips in enumerate(hand.returned()):
        if chips:
            out.append({"seat": seating.seat(i), "name": seating.name(i), "amount": chips})
            lines.append(Said(N_("%(amount)s returned to %(who)s"), amount=chips, who=seating.label(i)))
    return out, lines


def tabled_lines(hand: Hand, seating: Seating) -> list[str]:
    """One line per hand tabled at the end, losers' too, in seat order: "Seat 2 (Bo) shows
    A♠ K♦ Q♣ J♥: two pair, kings and sevens" (hi-lo games add the low, or "no low")."""
    lines: list[str] = []
    language = current_language()
    tabled = hand.tabled_hands()
    for i in sorted(tabled, key=seating.seat):            # around the table, in seat order
        high, low = tabled[i]
        cards = " ".join(format_card(c, language) for c in hand.hole_cards[i] if c is not None)
        lines.append(_Line("shows", who=seating.label(i).to_json(), cards=cards,   # type: ignore[attr-defined]
                           high=str(getattr(high, "name", high)),
                           low=(str(getattr(low, "name", low)) if low is not None else "no low")
                           if hand.config.game.hi_lo else None))
    return lines


class _Line(str):
    """A log line said by one of the dealer's own sentences (``_SAY``: a tabled hand, a
    pot's award), kept as its kind and arguments and said again in the reader's
    language (``said_lines``), as a ``Said`` is."""

    kind: str
    args: dict[str, Any]

    def __new__(cls, kind: str, **args: Any) -> _Line:
        line = super().__new__(cls, _SAY[kind](args))
        line.kind, line.args = kind, args
        return line

    def stored(self) -> str:
        return json.dumps({"line": self.kind, "args": self.args}, ensure_ascii=False, default=str)


def _say_shows(args: dict[str, Any]) -> str:
    named = hand_name(args["high"])
    if args.get("low") is not None:
        named += "; " + hand_name(args["low"])
    return _("%(who)s shows %(cards)s: %(hand)s", who=said_again(json.dumps(args["who"])),
             cards=args["cards"], hand=named)


def _say_pot(args: dict[str, Any]) -> str:
    awards = [SimpleNamespace(**a) for a in args["awards"]]
    seats, names = args["seats"], args["names"]
    notes = {awards[0].pot_index: [said_again(json.dumps(n)) for n in args.get("notes") or []]}
    return award_sentences(awards, lambda p: seats[str(p)], lambda p: names[str(p)], notes=notes)[0]


_SAY = {"shows": _say_shows, "pot": _say_pot}


def _pot_lines(awards: list[Any], seating: Seating) -> list[str]:
    """One line per pot (``award_sentences``), each kept as its awards (``_Line``)."""
    pots: list[list[Any]] = []
    for a in awards:
        if pots and (pots[-1][0].pot_index, pots[-1][0].pot_name) == (a.pot_index, a.pot_name):
            pots[-1].append(a)
        else:
            pots.append([a])
    lines: list[str] = []
    for group in pots:
        lines.append(_Line(
            "pot", awards=[{k: getattr(a, k) for k in ("pot_index", "pot_name", "pot_amount", "half", "player",
                                                        "hand_name", "reason", "amount")} for a in group],
            seats={str(a.player): seating.seat(a.player) for a in group},
            names={str(a.player): seating.name(a.player) for a in group},
            notes=[Said(N_("odd chip (%(chips)s) to seat %(seat)s (%(name)s), %(half)s"), chips=a.odd_chips,
                        seat=seating.seat(a.player), name=seating.name(a.player),
                        half={"msgid": a.half}).to_json() for a in group if a.odd_chips]))
    return lines


def hand_awards(hand: Hand, seating: Seating) -> tuple[list[dict[str, Any]], list[str]]:
    """The awards as JSON and the sentences the dealer reads out when the hand is over:
    one per pot, then the uncalled chips returned, then every tabled hand."""
    if not hand.finished or hand.misdealt:
        return [], []
    awards = hand.awards()
    out = [{"pot": a.pot_name, "pot_amount": a.pot_amount, "half": a.half,
            "seat": seating.seat(a.player), "name": seating.name(a.player),
            "amount": a.amount, "hand": a.hand_name, "hand_label": hand_name(a.hand_name),
            "odd_chips": a.odd_chips} for a in awards]
    # Built here, in the user's language, from the awards' fields (director/i18n.py), and
    # kept by the log as those fields (``_Line``): said again in each reader's language.
    return out, _pot_lines(awards, seating) + returned_chips(hand, seating)[1] + tabled_lines(hand, seating)


def log_line(at: datetime, who: str, text: str) -> dict[str, Any]:
    """One line of the hand's log as stored (``stored_text``; ``said_lines`` says it to a reader)."""
    return {"at": at.isoformat().replace("+00:00", "Z"), "who": who, "text": stored_text(text)}


def stored_text(text: str) -> str:
    """A log line kept language-neutral: a ``Said`` (msgid and parameters) or a ``_Line``
    as its JSON, said again in each reader's language when read (``said_lines``); plain text
    as it is."""
    return text.stored() if isinstance(text, Said | _Line) else text


def said_lines(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stored log lines in the reader's language (a plain line, e.g. an older one, as it is).

    Each stored line is said once per language (:func:`_said_in`): every answer of a
    hand repeats the hand's log, and saying its lines again took a sixth of a dealer
    write's time."""
    locale = str(request_locale())
    return [{**line, "text": _said_in(line["text"], locale)} for line in lines]


@lru_cache(maxsize=8192)
def _said_in(text: str, locale: str) -> str:
    """:func:`_say_line`, kept per stored line and ``locale`` (the reader's, in which it
    is said: the words and the number formats depend on nothing else)."""
    return _say_line(text)


def _say_line(text: str) -> str:
    if not text.startswith('{"line"'):
        return said_again(text)
    try:
        data = json.loads(text)
        return _SAY[data["line"]](data["args"])
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return text


def joined(parts: list[str]) -> str:
    """Clauses of one log line, "; " between them, each said again on its own."""
    if len(parts) == 1:
        return parts[0]
    return Said("; ".join(f"%(p{i})s" for i in range(len(parts))),
                **{f"p{i}": part for i, part in enumerate(parts)})


def _log_json(entries: Iterable[HandLogEntry]) -> list[dict[str, Any]]:
    return [log_line(e.at, e.who, e.text) for e in entries]


def recent_log(hand_id: int, version: int | None = None) -> list[dict[str, Any]]:
    """The hand's last log lines, newest first (from memory when this version's are known)."""
    if version is not None:
        known = known_log(hand_id, version)
        if known is not None:
            return known
    return _log_json(db.session.scalars(select(HandLogEntry).where(HandLogEntry.hand_id == hand_id)
                                        .order_by(HandLogEntry.id.desc()).limit(LOG_SHOWN)).all())


def full_log(table_id: int) -> dict[str, Any]:
    """The whole log of the table's current hand, newest first (the hand JSON carries its
    last ``LOG_SHOWN`` lines and ``log_partial`` when there may be more)."""
    get_table_or_history(table_id)
    row = latest_hand(table_id)
    if row is None:
        raise NotFound(_("No hand has been dealt at this table yet"))
    lines = _log_json(db.session.scalars(select(HandLogEntry).where(HandLogEntry.hand_id == row.id)
                                         .order_by(HandLogEntry.id.desc())).all())
    return {"hand_id": row.id, "hand_number": shown_number(row), "log": said_lines(lines), "partial": False}


def last_tap_events(hand_id: int) -> list[HandEvent]:
    """The events the last tap on the tablet recorded, newest first: one write's events
    share its moment and follow each other (``write_known``), e.g. all the up-cards of
    a stud street.  Empty when no event is recorded."""
    recent = db.session.scalars(select(HandEvent).where(
        HandEvent.hand_id == hand_id, HandEvent.undone.is_(False))
        .order_by(HandEvent.seq.desc()).limit(UNDO_GROUP_MAX)).all()
    taken = list(recent[:1])
    for event in recent[1:]:
        if event.created_at != taken[-1].created_at or event.seq != taken[-1].seq - 1:
            break
        taken.append(event)
    return taken


_ACTION_WORDS = {"fold": N_("folds"), "check": N_("checks"), "call": N_("calls"), "bet": N_("bets"),
                 "raise": N_("raises to"), "complete": N_("completes to"),
                 "bring_in": N_("brings in"), "all_in": N_("is all-in")}


def describe_event(event: Event, seating: Seating) -> str:
    """The log's sentence for an event, naming seats and players: a ``Said``, stored
    language-neutral and said in each reader's language (the cards as the writer's
    language writes them)."""
    if isinstance(event, Action):
        who = seating.label(event.player)
        action = {"msgid": _ACTION_WORDS[event.action.value]}
        if event.amount is None:
            return Said(N_("%(who)s %(action)s"), who=who, action=action)
        return Said(N_("%(who)s %(action)s %(amount)s"), who=who, action=action, amount=event.amount)
    if isinstance(event, DealBoard):
        return Said(N_("Board: %(cards)s"), cards=_cards(event.cards))
    if isinstance(event, DealHole):
        return Said(N_("%(who)s dealt %(cards)s"), who=seating.label(event.player), cards=_cards(event.cards))
    if isinstance(event, Show):
        return Said(N_("%(who)s shows %(cards)s"), who=seating.label(event.player), cards=_cards(event.cards))
    if isinstance(event, Muck):
        return Said(N_("%(who)s mucks"), who=seating.label(event.player))
    if isinstance(event, Kill):
        return Said(N_("%(who)s: hand killed (%(reason)s)"), who=seating.label(event.player),
                    reason={"msgid": event.reason})
    if isinstance(event, ManualAward):
        return Said(N_("Pots awarded by hand"))
    if isinstance(event, Misdeal):
        return Said(N_("Misdeal (%(reason)s)"), reason={"msgid": event.reason or N_("called by the dealer")})
    return Said(N_("%(who)s checked by the clock"), who=seating.label(getattr(event, "player", 0)))


def _cards(cards: Iterable[Card | None]) -> str:
    return " ".join(format_card(c, current_language()) for c in cards)
