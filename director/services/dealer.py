"""The dealer tablet's services: start a hand, apply its events, undo, finish.

Each function is one unit of work (STYLE.md): load the hand row and its
events, replay them through the engine (``director.poker.state.Hand``), apply
the new event, write it, commit, then publish.  The database is the truth:
a hand's state is the replay of its stored events that are not undone, so a
server killed mid-hand resumes exactly where it was.  Every accepted event is
committed (SQLite ``synchronous=FULL``) before the answer is built for the
tablet, and an ``idempotency_key`` sent again gets the stored answer.

Engine players are indices in PHH order; :class:`Seating` maps them to seat
numbers and player names, and every sentence the tablet shows goes through
:func:`Seating.words` so it names "Seat 3 (Ann)", never an index.

Two writers on one hand: ``version`` (sent by the tablet) must match, and the
row's version is bumped with a conditional UPDATE, so exactly one wins and the
other gets :class:`Conflict` (a 409 with the current hand).
"""

from __future__ import annotations

import functools
import io
import json
import re
import threading
import zipfile
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from sqlalchemy import bindparam, func, select, union_all, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value

from director.db import DriverInsert, db, driver_sql, group_commit, utcnow
from director.i18n import (
    GAME_NAMES,
    N_,
    award_sentences,
    chips_text,
    current_language,
    game_name,
    hand_name,
    stakes_label,
    translate_violation,
)
from director.i18n import gettext as _
from director.models import Tournament
from director.models.hands import DealerHand, HandEvent, HandLogEntry, HandRequest
from director.models.house import HouseRules
from director.models.seating import Player, Seat, SeatingSettings, SeatingTable
from director.poker.cards import Card, format_card
from director.poker.errors import RuleViolation
from director.poker.events import (
    Action,
    ActionKind,
    DealBoard,
    DealHole,
    Event,
    Kill,
    ManualAward,
    Misdeal,
    Muck,
    Show,
    event_from_json,
    event_to_json,
)
from director.poker.games import Betting, Game
from director.poker.phh import to_phh
from director.poker.policy import DEFAULT_POLICY, Policy
from director.poker.rulings import DEFAULT_RULING_POLICY, RulingPolicy, clock_time, verify_in_time
from director.poker.state import Hand, HandConfig, Phase
from director.services import (
    Invalid,
    NotFound,
    app_key,
    busts,
    dealer_hold,
    get_tournament,
    house_rules,
)
from director.services import bounties as bounty_service
from director.services import clock as clock_service
from director.services import dealer_shot_clock as shot_clock
from director.services import seating as seating_service
from director.services.audit import Said, said_again
from director.services.change_feed import Change
from director.services.events import events as broker
from director.tournament.clock import ClockState
from director.tournament.seating import (
    HandForHand,
    SeatedPlayer,
    SeatingPolicy,
    TableState,
    deal_hand,
    hand_chip_unit,
)
from director.tournament.structure import Structure, parse_levels

LOG_SHOWN = 12
ON_BREAK = N_("The clock is on a break: no hand is dealt")
UNDO_GROUP_MAX = 32     # more events than one write records (a street's up-cards: 8)
CACHE_SIZE = 512
# What a level's stakes are said from (``i18n.stakes_label``): the deal's log line keeps
# them, not their words, so each tablet reads them in its own language.
STAKES_KEYS = ("kind", "is_break", "game", "small_blind", "big_blind", "ante", "big_blind_ante",
               "small_bet", "big_bet", "bring_in")
_BOARD_COUNT = {"flop": 3, "turn": 1, "river": 1}


class Illegal(Exception):
    """The engine refused the event: ``message`` is its sentence (a 422)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Conflict(Exception):
    """The tablet's version is stale, or a hand is already in progress (a 409)."""

    def __init__(self, hand: dict[str, Any] | None, message: str) -> None:
        super().__init__(message)
        self.hand = hand
        self.message = message


@dataclass(frozen=True)
class Answer:
    """A write's answer: the hand JSON and its HTTP status (a replay gets the original)."""

    body: dict[str, Any]
    status: int = 200
    text: str | None = None          # the body already encoded (stored for retries)


# ---------------------------------------------------------------- seats <-> indices

_SEAT_WORD = re.compile(r"\b([Ss]eats?|[Pp]lats(?:er)?|[Kk]ursi) (\d+(?:(?:, | and )\d+)*)")
_PLAYER_WORD = re.compile(r"\b([Pp]layers?) (\d+(?:(?:, | and )\d+)*)")


class Seating:
    """The one place engine indices meet seats and names (``DealerHand.players``)."""

    def __init__(self, players: Sequence[dict[str, Any]]) -> None:
        self.players = list(players)
        self.by_seat = {int(p["seat"]): i for i, p in enumerate(self.players)}

    def seat(self, index: int) -> int:
        return int(self.players[index]["seat"])

    def name(self, index: int) -> str:
        return str(self.players[index]["name"])

    def label(self, index: int) -> str:
        return Said(N_("Seat %(seat)s (%(name)s)"), seat=self.seat(index), name=self.name(index))

    def index(self, seat: int, field: str = "seat") -> int:
        if seat not in self.by_seat:
            raise Invalid({field: _("Seat %(seat)s is not in this hand", seat=seat)})
        return self.by_seat[seat]

    def _names(self, numbers: str, by_index: bool) -> str:
        parts = re.split(r"(, | and )", numbers)
        out = []
        for part in parts:
            if part.isdigit():
                n = int(part)
                index = n - 1 if by_index else self.by_seat.get(n)
                if index is not None and 0 <= index < len(self.players):
                    out.append(f"{self.seat(index)} ({self.name(index)})")
                    continue
            out.append(part)
        return "".join(out)

    def words(self, text: str, *, engine_players: bool = False) -> str:
        """Name players in a sentence: "seat 3" -> "seat 3 (Ann)"; with
        ``engine_players`` also "player 4" (an index + 1) -> "seat 7 (Bo)"."""
        text = _SEAT_WORD.sub(lambda m: f"{m.group(1)} {self._names(m.group(2), False)}", text)
        if engine_players:
            def player(m: re.Match[str]) -> str:
                word = "Seat" if m.group(1)[0] == "P" else "seat"
                if m.group(1).endswith("s"):
                    word += "s"
                return f"{word} {self._names(m.group(2), True)}"
            text = _PLAYER_WORD.sub(player, text)
        return text


# ---------------------------------------------------------------- loading


_cache: OrderedDict[tuple[str, int, int], Hand] = OrderedDict()
_cache_lock = threading.Lock()


def _cached(row: AnyRow) -> Hand:
    """The engine hand of ``row`` at its version: the replay of its live events."""
    key = (app_key(), row.id, row.version)
    with _cache_lock:
        hand = _cache.get(key)
        if hand is not None:
            _cache.move_to_end(key)
            return hand
    events = db.session.scalars(select(HandEvent.event).where(
        HandEvent.hand_id == row.id, HandEvent.undone.is_(False)).order_by(HandEvent.seq)).all()
    hand = Hand.replay(HandConfig.from_json(row.config), [event_from_json(e) for e in events])
    _remember(row.id, row.version, hand)
    return hand


def _remember(hand_id: int, version: int, hand: Hand,
              log: list[dict[str, Any]] | None = None) -> None:
    with _cache_lock:
        key = (app_key(), hand_id, version)
        _cache[key] = hand
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
        if log is not None:
            _logs[key] = log
            while len(_logs) > CACHE_SIZE:
                _logs.popitem(last=False)


@dataclass(frozen=True)
class HandRow:
    """A ``DealerHand`` row as committed, detached from the session: what a write's
    fast path and ``hand_json`` read.  Every change to a hand bumps its version, so
    a copy taken at version v is the hand for as long as the row is at v; the
    conditional UPDATE of the write (``WHERE version = v``) proves that it still is."""

    id: int
    tournament_id: int
    table_id: int
    table_number: int
    number: int
    game: str
    config: dict[str, Any]
    players: list[dict[str, Any]]
    level: dict[str, Any]
    positions: dict[str, Any]
    status: str
    version: int
    last_seq: int
    clock_call: dict[str, Any] | None

    @classmethod
    def of(cls, row: DealerHand) -> HandRow:
        return cls(id=row.id, tournament_id=row.tournament_id, table_id=row.table_id,
                   table_number=row.table_number, number=row.number, game=row.game,
                   config=row.config, players=row.players, level=row.level,
                   positions=row.positions or {}, status=row.status, version=row.version,
                   last_seq=row.last_seq, clock_call=row.clock_call)


AnyRow = DealerHand | HandRow

# The latest hand of each table as this process last committed or read it.
_latest: dict[tuple[str, int], HandRow] = {}


def _known_hand(table_id: int, version: int | None) -> HandRow | None:
    """The table's hand being played at ``version``, when this process knows it."""
    known = _latest.get((app_key(), table_id))
    if known is None or version is None or known.version != version or known.status != "playing":
        return None
    return known


def _keep(row: HandRow) -> None:
    with _cache_lock:
        if len(_latest) > CACHE_SIZE:
            _latest.clear()
        _latest[(app_key(), row.table_id)] = row


def forget_latest(table_id: int) -> None:
    """Drop what this process remembers of the table's latest hand (a change the fast path
    does not write, e.g. its ``positions``, was committed): the next write reads it."""
    with _cache_lock:
        _latest.pop((app_key(), table_id), None)


def forget_cached_hands() -> None:
    """Drop this app's cached hands: a deleted event's hand and table ids may be
    given again to new rows (``tournaments.delete_event``); they reload from the DB."""
    key = app_key()
    with _cache_lock:
        for store in (_cache, _logs, _latest):
            for known in [k for k in store if k[0] == key]:
                del store[known]


def get_table(table_id: int) -> SeatingTable:
    table = db.session.get(SeatingTable, table_id) if 0 < table_id < 2**63 else None
    if table is None:
        raise NotFound(_("There is no table %(id)s", id=table_id))
    return table


def table_tournament(table_id: int) -> int:
    """The tournament of a table (in play, or one that dealt hands before it broke)."""
    table = db.session.get(SeatingTable, table_id) if 0 < table_id < 2**63 else None
    if table is not None:
        return table.tournament_id
    tid = db.session.scalar(select(DealerHand.tournament_id).where(DealerHand.table_id == table_id))
    if tid is None:
        raise NotFound(_("There is no table %(id)s", id=table_id))
    return int(tid)


def latest_hand(table_id: int) -> DealerHand | None:
    return db.session.scalar(select(DealerHand).where(DealerHand.table_id == table_id)
                             .order_by(DealerHand.number.desc()).limit(1))


def get_hand(hand_id: int) -> DealerHand:
    row = db.session.get(DealerHand, hand_id) if 0 < hand_id < 2**63 else None
    if row is None:
        raise NotFound(_("There is no hand %(id)s", id=hand_id))
    return row


def engine_hand(row: DealerHand) -> Hand:
    return _cached(row)


# ---------------------------------------------------------------- the hand as JSON

def _money(value: int) -> str:
    return chips_text(value)


def _card(card: Card | None) -> str:
    return "??" if card is None else str(card)


_SUITS = {"c": N_("clubs"), "d": N_("diamonds"), "h": N_("hearts"), "s": N_("spades")}


def _card_words(card: Card | None) -> str:
    if card is None:
        return "?"
    return f"{format_card(card, current_language())} ({_(_SUITS[card.suit])})"


def _seat_status(hand: Hand, i: int, dead: set[int]) -> str:
    if hand.misdealt:
        return "misdeal"
    if i in dead or hand.killed[i]:    # absent (TDA 30) or killed by a ruling (the clock, TDA 29)
        return "dead"
    if hand.folded[i]:
        return "folded"
    if hand.all_in[i] and not hand.finished:
        return "all_in"
    return "active"


def _buttons(hand: Hand) -> list[dict[str, Any]]:
    """The big buttons, each with its exact number and the seat whose action it is.

    Order: the safest, most common action first (Check, Call, Bring in), then the
    bets and raises from the smallest up, all-in last of those, and Fold at the far
    end, never next to Check or Call.  In stud where the house allows it (policy
    ``stud_4th_street_double``, RULES.md §11.1, RRP Stud 4), an open pair on 4th
    street adds the big bet as its own button: "Bet 400 (open pair)"."""
    legal = hand.legal()
    p = hand.to_act
    if p is None:
        return []
    seat = hand.config.seats[p] if hand.config.seats else p + 1
    out: list[dict[str, Any]] = []

    def button(action: str, amount: int | None, label: str) -> None:
        out.append({"action": action, "amount": amount, "label": label, "seat": seat})

    fold = functools.partial(button, "fold", None, _("Fold"))
    bet_word = hand.current_bet > hand.bets[p] or (hand.current_bet > 0 and hand.street.value == "pre-flop")
    if legal.bring_in:
        button("bring_in", None, _("Bring in %(amount)s", amount=_money(hand.config.bring_in)))
        if legal.complete_to is not None:
            button("complete", legal.complete_to,
                   _("Complete to %(amount)s", amount=_money(legal.complete_to)))
        if legal.fold:
            fold()
        return out
    if legal.check:
        button("check", None, _("Check"))
    elif legal.call is not None:
        all_in = legal.all_in_to is not None and hand.bets[p] + legal.call >= legal.all_in_to
        label = _("Call %(amount)s (all-in)", amount=_money(legal.call)) if all_in \
            else _("Call %(amount)s", amount=_money(legal.call))
        button("call", None, label)
    fixed = hand.config.game.betting is Betting.FIXED_LIMIT
    if legal.min_to is not None:
        if legal.complete_to is not None and hand.config.game.is_stud:
            button("complete", legal.complete_to,
                   _("Complete to %(amount)s", amount=_money(legal.complete_to)))
        elif legal.all_in_to is not None and legal.min_to == legal.all_in_to:
            # Too short for a full raise (or just enough): all-in is the only raise there is
            # (TDA 43-B: a short all-in does not reopen the betting); never "Min raise to".
            button("all_in", legal.all_in_to, _("All-in %(amount)s", amount=_money(legal.all_in_to)))
            fold()
            return out
        elif fixed:
            label = _("Raise to %(amount)s", amount=_money(legal.min_to)) if bet_word \
                else _("Bet %(amount)s", amount=_money(legal.min_to))
            button("raise" if bet_word else "bet", legal.min_to, label)
            double = legal.max_to
            if double is not None and double > legal.min_to and double != legal.all_in_to:
                # RRP Stud 4: the open pair on 4th street lets anyone bet the big bet.
                label = _("Raise to %(amount)s (open pair)", amount=_money(double)) if bet_word \
                    else _("Bet %(amount)s (open pair)", amount=_money(double))
                button("raise" if bet_word else "bet", double, label)
        else:
            if bet_word:
                button("raise", legal.min_to, _("Min raise to %(amount)s", amount=_money(legal.min_to)))
            else:
                button("bet", legal.min_to, _("Min bet %(amount)s", amount=_money(legal.min_to)))
            if legal.pot_to is not None and legal.pot_to > legal.min_to \
                    and legal.pot_to != legal.all_in_to:
                label = _("Pot: raise to %(amount)s", amount=_money(legal.pot_to)) if bet_word \
                    else _("Pot: bet %(amount)s", amount=_money(legal.pot_to))
                button("raise" if bet_word else "bet", legal.pot_to, label)
        if legal.all_in_to is not None and legal.max_to == legal.all_in_to \
                and legal.all_in_to > legal.min_to:
            button("all_in", legal.all_in_to, _("All-in %(amount)s", amount=_money(legal.all_in_to)))
    if legal.fold:
        fold()
    return out


def _prompt(hand: Hand, seating: Seating, row: DealerHand) -> str:
    """What the dealer does next, in one sentence."""
    if hand.misdealt:
        return _("Misdeal: the hand is void and every chip goes back. Redeal with the same button.")
    if hand.finished:
        return _("The hand is over. Push the pots, then start the next hand.")
    awaiting = hand.awaiting
    p = hand.to_act
    legal = hand.legal()
    if p is not None and legal.bring_in and legal.fold:       # [ST-5]: the duty passed on
        up = hand.up_cards(p)
        return _("%(who)s has the lowest up-card, %(card)s: bring in %(amount)s, complete or fold",
                 who=seating.label(p), card=_card_words(up[0] if up else None),
                 amount=_money(hand.config.bring_in))
    if p is not None and legal.bring_in:
        up = hand.up_cards(p)
        return _("%(who)s has the lowest up-card, %(card)s: bring in %(amount)s or complete",
                 who=seating.label(p), card=_card_words(up[0] if up else None),
                 amount=_money(hand.config.bring_in))
    if p is not None:
        # Stud 4th-7th street: said only to the player the engine has act first (the
        # highest hand showing, RULES.md §3.3), and only before anyone acted on the
        # street: once the opener checked, the next player is just "to act".
        if p == hand.stud_opener and not hand.acted_on_street:
            up = [c for c in hand.up_cards(p) if c is not None]
            return _("%(who)s has the high hand showing (%(cards)s) and acts first",
                     who=seating.label(p), cards=" ".join(format_card(c, current_language()) for c in up))
        return _("%(who)s to act", who=seating.label(p))
    if awaiting == "board":
        street = {"flop": _("the flop"), "turn": _("the turn"), "river": _("the river")}[hand.street.value]
        return _("Burn and deal %(street)s", street=street)
    if awaiting == "street":
        return _("Deal %(street)s and enter every up-card", street=_(hand.street.value))
    if awaiting == "showdown":
        order = hand.showdown_order()
        if hand.showdown_at_once:
            return _("Showdown: a player is all-in, every hand is turned face up (TDA 16)")
        return _("Showdown: %(who)s shows first (TDA 16/17)", who=seating.label(order[0])) if order \
            else _("Showdown")
    if hand.config.game.is_stud and p is None and hand.phase is Phase.BETTING:
        return _("Enter the up-cards: the engine names who acts first")
    return ""


def _returned(hand: Hand, seating: Seating) -> tuple[list[dict[str, Any]], list[str]]:
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


def _shown(hand: Hand, seating: Seating) -> list[str]:
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
    language (``_said``), as a ``Said`` is."""

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


def _awards(hand: Hand, seating: Seating) -> tuple[list[dict[str, Any]], list[str]]:
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
    return out, _pot_lines(awards, seating) + _returned(hand, seating)[1] + _shown(hand, seating)


def _log_line(at: datetime, who: str, text: str) -> dict[str, Any]:
    """One line of the hand's log as stored (``_stored``; ``_said`` says it to a reader)."""
    return {"at": at.isoformat().replace("+00:00", "Z"), "who": who, "text": _stored(text)}


def _stored(text: str) -> str:
    """A log line kept language-neutral: a ``Said`` (msgid and parameters) or a ``_Line``
    as its JSON, said again in each reader's language when read (``_said``); plain text
    as it is."""
    return text.stored() if isinstance(text, Said | _Line) else text


def _said(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Stored log lines in the reader's language (a plain line, e.g. an older one, as it is)."""
    return [{**line, "text": _say_line(line["text"])} for line in lines]


def _say_line(text: str) -> str:
    if not text.startswith('{"line"'):
        return said_again(text)
    try:
        data = json.loads(text)
        return _SAY[data["line"]](data["args"])
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return text


def _joined(parts: list[str]) -> str:
    """Clauses of one log line, "; " between them, each said again on its own."""
    if len(parts) == 1:
        return parts[0]
    return Said("; ".join(f"%(p{i})s" for i in range(len(parts))),
                **{f"p{i}": part for i, part in enumerate(parts)})


def _log_json(entries: Iterable[HandLogEntry]) -> list[dict[str, Any]]:
    return [_log_line(e.at, e.who, e.text) for e in entries]


_logs: OrderedDict[tuple[str, int, int], list[dict[str, Any]]] = OrderedDict()


def recent_log(hand_id: int, version: int | None = None) -> list[dict[str, Any]]:
    """The hand's last log lines, newest first (from memory when this version's are known)."""
    if version is not None:
        with _cache_lock:
            known = _logs.get((app_key(), hand_id, version))
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
    return {"hand_id": row.id, "hand_number": _shown_number(row), "log": _said(lines), "partial": False}


def _last_tap(hand_id: int) -> list[HandEvent]:
    """The events the last tap on the tablet recorded, newest first: one write's events
    share its moment and follow each other (``_write_known``), e.g. all the up-cards of
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


def _undo_label(row: AnyRow, hand: Hand, seating: Seating, last_tap: str | None) -> str | None:
    """What Undo takes back, as the button says it: "Undo: Seat 4 (Ann) raises to 800".
    ``last_tap``: the last write's events as the log says them, when the caller knows
    them (else they are read).  Right after the deal it is the deal itself (see :func:`undo`)."""
    if not hand.events:
        return _("Undo the deal of hand %(n)s", n=_shown_number(row)) if row.status == "playing" else None
    if not last_tap:
        last_tap = "; ".join(describe_event(event_from_json(e.event), seating)
                             for e in reversed(_last_tap(row.id)))
    return _("Undo: %(what)s", what=last_tap) if last_tap else None


def _posted(hand: Hand) -> list[dict[str, int] | None]:
    """What each player posted before the deal (a big-blind ante: blind and ante), or None."""
    if hand.misdealt:
        return [None] * hand.config.players
    return [{"blind": blind, "ante": ante} if blind or ante else None for blind, ante in hand.posted()]


def hand_json(row: AnyRow, hand: Hand | None = None,
              log: list[dict[str, Any]] | None = None, version: int | None = None,
              last_tap: str | None = None, turn_started: datetime | None = None) -> dict[str, Any]:
    """The tablet's view of the hand (the API contract plus what the screen shows).

    ``pot_total`` is always the sum of ``pots`` (an uncalled bet is back in its
    owner's ``stack`` as soon as its round closes; ``returned`` lists those chips).
    ``can_muck`` is false at a showdown where every hand is tabled (TDA 16).
    ``undo_label`` says what Undo takes back (``last_tap``: the log's words for the events
    just written, when the caller knows them).  Each seat's ``posted`` is its forced bets."""
    hand = hand or _cached(row)
    seating = Seating(row.players)
    dead = set(hand.config.dead_players)
    legal = hand.legal()
    p = hand.to_act
    shown = hand.hole_cards
    posts = _posted(hand)
    seats = []
    for i in range(len(seating.players)):
        cards: list[str] = []
        if hand.config.game.is_stud or any(c is not None for c in shown[i]):
            cards = [_card(c) for c in shown[i]]
        seat = {
            "seat": seating.seat(i), "name": seating.name(i),
            "player_id": seating.players[i].get("player_id"),
            "stack": hand.stacks[i], "bet": hand.bets[i], "status": _seat_status(hand, i, dead),
            "cards": cards,
            "up_cards": [_card(c) for c in hand.up_cards(i)] if hand.config.game.is_stud else [],
        }
        if hand.awaiting == "street" and hand.dealt_this_street[i]:
            seat["street_dealt"] = True      # his cards of this street are in (an exposed down-card ruled)
        posted = posts[i]
        if posted is not None:
            seat["posted"] = posted
        seats.append(seat)
    awards, award_text = _awards(hand, seating)
    pots = [{"name": pot.name, "amount": pot.amount,
             "eligible": [seating.seat(i) for i in pot.eligible]} for pot in hand.pots()]
    can_undo = bool(hand.events) or row.status == "playing"
    order = [seating.seat(i) for i in hand.showdown_order()] \
        if hand.awaiting == "showdown" else []
    level = row.level or {}
    shown_log = recent_log(row.id, row.version) if log is None else log
    return {
        "hand_id": row.id,
        "version": row.version if version is None else version,
        "game": row.game,
        "to_act": seating.seat(p) if p is not None else None,
        "legal": {"fold": legal.fold, "check": legal.check, "call": legal.call,
                  "min_to": legal.min_to, "max_to": legal.max_to, "pot_to": legal.pot_to,
                  "all_in_to": legal.all_in_to, "bring_in": legal.bring_in,
                  "complete_to": legal.complete_to},
        "pots": pots,
        "seats": seats,
        "board": [_card(c) for c in hand.board],
        "finished": hand.finished,
        "awards": awards,
        # beyond the contract: what the tablet shows
        "table_id": row.table_id, "table_number": row.table_number, "hand_number": _shown_number(row),
        "game_label": game_name(row.game),
        "level": {"level_number": level.get("level_number"), "stakes_label": stakes_label(level),
                  "index": level.get("index")},
        "positions": {k: v for k, v in (row.positions or {}).items()
                      if k in ("button", "small_blind", "big_blind")},
        "to_act_name": seating.name(p) if p is not None else None,
        "street": hand.street.value, "phase": hand.phase.value, "awaiting": hand.awaiting,
        "misdeal": hand.misdealt, "pot_total": sum(pot["amount"] for pot in pots),
        "current_bet": hand.current_bet,
        "buttons": _buttons(hand),
        # fixed limit has no free amount anywhere: its bets are the buttons (RULES.md §2.3)
        "any_amount": hand.config.game.betting is not Betting.FIXED_LIMIT and legal.min_to is not None
        and legal.max_to is not None and legal.min_to != legal.max_to,
        "prompt": _prompt(hand, seating, row),
        "showdown_order": order,
        "showdown_at_once": bool(order) and hand.showdown_at_once,
        "award_text": award_text,
        "returned": _returned(hand, seating)[0],
        "shown_text": _shown(hand, seating),
        "can_muck": hand.awaiting == "showdown" and not hand.hands_face_up,
        "clock_call": live_clock_call(row),
        # the shot clock of the player to act (house rule; ``turn_started``: when the action
        # reached him, when the caller knows it)
        "shot_clock": shot_clock.state(row, hand, turn_started),
        # an action out of turn that backed up (TDA 53): ruled again when the action reaches him
        "oot_reminder": (row.positions or {}).get("oot_reminder") if row.status == "playing" else None,
        "can_undo": can_undo,
        # more than one action on this street: Undo the street takes them all back at once
        "can_undo_street": not hand.finished and hand.acted_on_street,
        "undo_label": _undo_label(row, hand, seating, last_tap) if can_undo else None,
        "log": _said(shown_log),
        # the log above is its last LOG_SHOWN lines: GET .../hand/log has them all
        "log_partial": len(shown_log) >= LOG_SHOWN,
    }


def current(table_id: int) -> dict[str, Any]:
    """GET: the table's current (latest) hand, or 404 when none was dealt yet."""
    get_table_or_history(table_id)
    row = latest_hand(table_id)
    if row is None:
        raise NotFound(_("No hand has been dealt at this table yet"))
    return hand_json(row)


def get_table_or_history(table_id: int) -> None:
    table_tournament(table_id)


# ---------------------------------------------------------------- starting a hand

def _level_config(level: dict[str, Any], order: list[dict[str, Any]], positions: dict[str, Any],
                  absent: list[int], game: Game, policy: SeatingPolicy,
                  house: Policy = DEFAULT_POLICY) -> HandConfig:
    """The engine's HandConfig: stacks in PHH order, forced bets from the level, odd
    chips in units of the smallest chip in play (TDA 20), and the tournament's house
    rules for the hand (``house``: RULES.md §11.1, ``services.house_rules``)."""
    n = len(order)
    stacks = tuple(int(p["chips"]) for p in order)
    seat_numbers = tuple(int(p["seat"]) for p in order)
    dead = tuple(i for i, p in enumerate(order) if int(p["seat"]) in absent)
    ante = int(level.get("ante") or 0)
    unit = hand_chip_unit(policy, (int(level.get(k) or 0) for k in (
        "small_blind", "big_blind", "ante", "bring_in", "small_bet", "big_bet")), stacks)
    if game.is_stud:
        return HandConfig(game=game, starting_stacks=stacks, antes=(ante,) * n if ante else (),
                          bring_in=int(level.get("bring_in") or 0),
                          small_bet=int(level.get("small_bet") or 0),
                          big_bet=int(level.get("big_bet") or 0),
                          dead_players=dead, seats=seat_numbers, chip_unit=unit, policy=house)
    sb, bb = int(level.get("small_blind") or 0), int(level.get("big_blind") or 0)
    blinds = [0] * n
    antes = [0] * n
    for i, p in enumerate(order):
        if p["seat"] == positions.get("small_blind"):
            blinds[i] = sb
        if p["seat"] == positions.get("big_blind"):
            blinds[i] = bb
    bba = bool(level.get("big_blind_ante"))
    if ante:
        for i, p in enumerate(order):
            if not bba or p["seat"] == positions.get("big_blind"):
                antes[i] = ante
    if n == 2:  # PHH heads-up: forced bets listed SB, BB; the engine reverses them
        blinds.reverse()
        antes.reverse()
    fixed = game.betting is Betting.FIXED_LIMIT
    return HandConfig(
        game=game, starting_stacks=stacks, antes=tuple(antes), blinds_or_straddles=tuple(blinds),
        small_bet=int(level.get("small_bet") or 0) if fixed else 0,
        big_bet=int(level.get("big_bet") or 0) if fixed else 0,
        min_bet=0 if fixed else bb, ante_trimming=not bba,
        small_blind=sb or None, big_blind=(bb or None) if not fixed else None,
        dead_players=dead, seats=seat_numbers, chip_unit=unit, policy=house)


def _table_state(table: SeatingTable, seated: dict[int, tuple[Any, bool]]) -> Any:
    """The pure ``TableState`` of this one table (as ``seating.load_layout`` builds it)."""

    return TableState(number=table.number, size=table.size,
                      seats={s: SeatedPlayer(p.id, p.name, w) for s, (p, w) in seated.items()},
                      button_seat=table.button_seat, sb_seat=table.sb_seat, bb_seat=table.bb_seat,
                      game_is_stud=bool(table.game_is_stud),
                      vacated=tuple(int(v) for v in (table.vacated or ())))


def _seat_rows(table: SeatingTable) -> list[Any]:
    """The table's seats, each with its player's ``id``, ``name``, ``chips`` and
    ``status`` (plain rows: a hand needs no more of the player)."""
    return list(db.session.execute(_deal_statements()[2], {"table_id": table.id}))


def _seated(table: SeatingTable, rows: list[Any] | None = None) -> dict[int, tuple[Any, bool]]:
    """Seat number -> (player, waiting for the button) at ``table``."""
    return {row.seat: (row, bool(row.waiting)) for row in rows or _seat_rows(table)}


@dataclass(frozen=True)
class _DealContext:
    """What dealing a hand reads besides the seats, in one query: the table's row,
    its tournament's structure and clock, the seating policy and hand-for-hand
    state, the house rules of a hand (RULES.md §11.1) and the player count of the
    fullest table (play halts, TDA 11-D)."""

    table: Any
    structure: Structure
    clock: ClockState
    policy: SeatingPolicy
    hand_for_hand: HandForHand
    most: int
    house: Policy = DEFAULT_POLICY
    house_rulings: RulingPolicy = DEFAULT_RULING_POLICY


@functools.cache
def _deal_statements() -> tuple[Any, Any, Any]:
    """The three reads of a deal, built once (``:table_id`` bound at each deal): the
    table with its tournament, settings and house rules; its last hand; its seats."""
    table_id = bindparam("table_id")
    fullest = (select(func.count(Seat.id)).where(Seat.tournament_id == SeatingTable.tournament_id)
               .group_by(Seat.table_id).order_by(func.count(Seat.id).desc()).limit(1)
               .correlate(SeatingTable).scalar_subquery())
    context = (
        select(SeatingTable.id, SeatingTable.tournament_id, SeatingTable.number, SeatingTable.size,
               SeatingTable.button_seat, SeatingTable.sb_seat, SeatingTable.bb_seat,
               SeatingTable.game_is_stud, SeatingTable.vacated, Tournament.name, Tournament.levels,
               Tournament.level_index, Tournament.started_at, Tournament.elapsed_before,
               Tournament.running, SeatingSettings.policy, SeatingSettings.hand_for_hand,
               HouseRules.hand.label("house"), HouseRules.rulings.label("house_rulings"),
               fullest.label("most"))
        .join(Tournament, Tournament.id == SeatingTable.tournament_id)
        .outerjoin(SeatingSettings, SeatingSettings.tournament_id == SeatingTable.tournament_id)
        .outerjoin(HouseRules, HouseRules.tournament_id == SeatingTable.tournament_id)
        .where(SeatingTable.id == table_id))
    last = (select(DealerHand.number, DealerHand.status, DealerHand.positions, DealerHand.finished_at)
            .where(DealerHand.table_id == table_id).order_by(DealerHand.number.desc()).limit(1))
    seats = (select(Seat.seat, Seat.waiting, Player.id, Player.name, Player.chips, Player.status)
             .join(Player, Player.id == Seat.player_id).where(Seat.table_id == table_id))
    return context, last, seats


def _deal_context(table_id: int) -> _DealContext:
    row = db.session.execute(_deal_statements()[0], {"table_id": table_id}).first() \
        if 0 < table_id < 2**63 else None
    if row is None:
        raise NotFound(_("There is no table %(id)s", id=table_id))
    return _DealContext(
        table=row, structure=Structure(levels=parse_levels(row.levels), name=row.name),
        clock=ClockState(level_index=row.level_index or 0, started_at=row.started_at,
                         elapsed_before=row.elapsed_before or 0.0, running=bool(row.running)),
        policy=SeatingPolicy.from_json(row.policy) if row.policy else SeatingPolicy(),
        hand_for_hand=HandForHand.from_json(row.hand_for_hand or {}), most=int(row.most or 0),
        house=Policy.from_json(row.house) if row.house else DEFAULT_POLICY,
        house_rulings=RulingPolicy.from_json(row.house_rulings) if row.house_rulings
        else DEFAULT_RULING_POLICY)


def _dealt_in(table: Any, seated: dict[int, tuple[Any, bool]], last: Any, game: Game
              ) -> tuple[dict[str, Any], dict[int, tuple[Any, bool]]]:
    """The one answer to "who is dealt in, and where are the button and blinds", for the
    tablet's next-hand screen and for the deal alike: a redeal after a misdeal keeps the
    button and the seats as they were (TDA 35); a stud hand has no button; else the
    button moves on (TDA 32) and a new player waits only while he sits between the
    button and the small blind (``seating.deal_hand``)."""
    if last is not None and last.status == "misdeal":
        return {k: v for k, v in (last.positions or {}).items() if k != "hand_number"}, seated
    if game.is_stud:
        return {}, seated
    dealt = deal_hand(_table_state(table, seated))
    positions = {"button": dealt.button_seat, "small_blind": dealt.sb_seat, "big_blind": dealt.bb_seat}
    return positions, {s: (pl, dealt.seats[s].waiting if s in dealt.seats else w)
                       for s, (pl, w) in seated.items()}


def _shown_number(row: Any) -> int:
    """The number the table counts a hand by (``positions["hand_number"]``; a hand dealt
    before the count was kept: its row's number)."""
    return int((row.positions or {}).get("hand_number") or row.number)


def start_hand(table_id: int, absent_seats: list[int], who: str = "dealer") -> Answer:
    """Deal the next hand at the table: seats and button from the seating, forced
    bets from the clock's current level (TDA RP-7); absent seats are dead (TDA 30).
    After a misdeal the hand is redealt with the same button (TDA 35)."""

    deal = _deal_context(table_id)
    table = deal.table
    tournament_id = table.tournament_id
    last = db.session.execute(_deal_statements()[1], {"table_id": table_id}).first()
    if last is not None and last.status == "playing":
        playing_row = latest_hand(table_id)
        raise Conflict(hand_json(playing_row) if playing_row is not None else None,
                       _("Hand %(n)s is still being played: finish it, undo, "
                         "or call a misdeal first", n=last.number))
    now = utcnow()
    level = clock_service.level_at(deal.structure, deal.clock, now) or {}
    if level.get("is_break") or not level.get("game"):
        raise Invalid({"level": _(ON_BREAK)})
    game = Game(level["game"])
    seat_rows = _seat_rows(table)
    held = dealer_hold.hold(table, len(seat_rows), last, deal.policy, deal.hand_for_hand, deal.most)
    if held is not None:
        raise Illegal(held)
    redeal = last is not None and last.status == "misdeal"
    try:
        positions, seated = _dealt_in(table, _seated(table, seat_rows), last, game)
    except (RuleViolation, KeyError, ValueError) as exc:
        raise Invalid({"table": str(exc)}) from None
    waiting = {s: w for s, (pl, w) in seated.items()}
    playing = {s: pl for s, (pl, waiting) in seated.items() if not waiting and pl.chips > 0
               and pl.status == "active"}
    for number in absent_seats:
        if number not in playing:
            raise Invalid({"absent_seats": _("Nobody plays this hand in seat %(seat)s", seat=number)})
    if len(playing) < 2:
        raise Invalid({"table": _("A hand needs at least two players with chips at the table")})
    size = table.size
    if game.is_stud:
        seats_in_order = sorted(playing)
    else:
        button = int(positions.get("button") or max(playing))
        seats_in_order = sorted(playing, key=lambda s: (s - button - 1) % size)
    order = [{"seat": s, "player_id": playing[s].id, "name": playing[s].name,
              "chips": playing[s].chips} for s in seats_in_order]
    try:
        config = _level_config(level, order, positions, absent_seats, game, deal.policy, deal.house)
        started = Hand.start(config)
    except RuleViolation as exc:
        raise Invalid({"level": translate_violation(exc)}) from None
    number = (last.number + 1) if last is not None else 1
    # The hand's number as the table counts it: a redeal after a misdeal is the same hand
    # (TDA 35), so it keeps the number the dealer and the log used (the row's own number
    # stays unique: it is what another tablet's deal of the same hand collides on).
    shown = _shown_number(last) if last is not None else 0
    shown = shown if redeal else shown + 1
    positions = {**positions, "hand_number": shown}
    shot = shot_clock.settings(deal.house_rulings)
    if shot is not None:
        positions["shot_clock"] = shot
    named = GAME_NAMES.get(game.value)
    parts: list[str] = [Said(N_("Hand %(n)s dealt: %(game)s, level %(level)s (%(stakes)s)"), n=shown,
                             game={"msgid": named} if named else game_name(game.value),
                             level=level.get("level_number"),
                             stakes={"stakes": {key: level.get(key) for key in STAKES_KEYS}})]
    if positions.get("button"):
        parts.append(Said(N_("button seat %(seat)s"), seat=positions["button"]))
    if redeal:
        parts.append(Said(N_("redeal after the misdeal, same button")))
    if absent_seats:
        parts.append(Said(N_("absent: seat %(seats)s"), seats=", ".join(str(s) for s in absent_seats)))
    text = _joined(parts)
    dealt_row = HandRow(id=0, tournament_id=tournament_id, table_id=table_id, table_number=table.number,
                        number=number, game=game.value, config=config.to_json(),
                        players=[{k: p[k] for k in ("seat", "player_id", "name")} for p in order],
                        level=level, positions=positions, status="playing", version=1, last_seq=0,
                        clock_call=None)
    # The button moves on (TDA 32), in the same transaction: the table's row only, so
    # that hands starting at fifty tables at once do not queue on the tournament.
    moves = None
    if not redeal and not game.is_stud:
        moves = ((positions["button"], positions["small_blind"], positions["big_blind"]),
                 [(waiting[seat.seat], seat.seat) for seat in seat_rows
                  if seat.seat in waiting and bool(seat.waiting) != waiting[seat.seat]])
    committed = _write_new_hand(dealt_row, moves, who, text, now)
    if committed is None:
        current_row = latest_hand(table_id)
        raise Conflict(hand_json(current_row) if current_row is not None else None,
                       _("The hand changed on another screen: here it is as it stands"))
    log = [_log_line(now, who, text)]
    _remember(committed.id, committed.version, started, log)
    _publish(committed)
    return Answer(hand_json(committed, started, log, turn_started=now), 201)


def correct_stack(table_id: int, seat: int, chips: int, who: str) -> dict[str, Any]:
    """A stack counted at the table between hands (hidden chips found, a wrong count: TDA
    25) is corrected from the tablet: the player's chips become the count, in the
    tournament's log; refused while a hand is being played (it moves the chips at its
    end).  Answers the next hand's seats."""
    table = get_table(table_id)
    row = latest_hand(table_id)
    if row is not None and row.status == "playing":
        raise Illegal(_("Hand %(n)s is being played: count the stack after it", n=_shown_number(row)))
    sitting = db.session.scalar(select(Seat.player_id).where(Seat.table_id == table_id, Seat.seat == seat))
    if sitting is None:
        raise Invalid({"seat": _("Nobody plays in seat %(seat)s", seat=seat)})
    player = seating_service.set_chips(table.tournament_id, sitting, chips)
    if row is not None:
        _log_now(row, who, _("Stack counted: seat %(seat)s (%(name)s) has %(chips)s",
                             seat=seat, name=player.name, chips=_money(chips)))
    return next_hand(table_id)


def next_hand(table_id: int) -> dict[str, Any]:
    """Who will be dealt in next, where the button and blinds go (before "Deal"), and the
    house rules it will be dealt under that are not the TDA default (``house_rules``,
    as ``start_hand`` reads them: RULES.md §11.1)."""

    deal = _deal_context(table_id)
    table = deal.table
    last = db.session.execute(_deal_statements()[1], {"table_id": table_id}).first()
    level = clock_service.level_at(deal.structure, deal.clock, utcnow()) or {}
    seated = _seated(table)
    positions: dict[str, Any] = {}
    if level.get("game"):
        try:
            positions, seated = _dealt_in(table, seated, last, Game(level["game"]))
        except (RuleViolation, KeyError, ValueError):
            positions = {}          # the deal itself says why (fewer than two players)
    seats = [{"seat": s, "name": p.name, "chips": p.chips, "waiting": w}
             for s, (p, w) in sorted(seated.items()) if p.status == "active" and p.chips > 0]
    label = ""
    if level:
        label = _("Level %(n)s", n=level.get("level_number")) + " · " + stakes_label(level)
    in_progress = last is not None and last.status == "playing"
    held = None
    if level.get("is_break"):
        held = _(ON_BREAK)
    elif not in_progress:
        held = dealer_hold.hold(table, len(seated), last, deal.policy, deal.hand_for_hand, deal.most)
    return {"table_id": table_id, "table_number": table.number, "seats": seats,
            "positions": positions, "level": label, "is_break": bool(level.get("is_break")),
            "hand_in_progress": in_progress, "hold": held,
            "house_rules": house_rules.changed(deal.house, deal.house_rulings)}


# ---------------------------------------------------------------- applying events

def _encode(body: dict[str, Any]) -> str:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


def _stored_answer(key: str | None, table_id: int) -> Answer | None:
    """The answer a write with this idempotency key got (one query over both tables)."""
    if key is None:
        return None
    events = select(HandEvent.response.label("response"), DealerHand.table_id.label("table_id")) \
        .join(DealerHand, DealerHand.id == HandEvent.hand_id).where(HandEvent.idempotency_key == key)
    others = select(HandRequest.response.label("response"), DealerHand.table_id.label("table_id")) \
        .join(DealerHand, DealerHand.id == HandRequest.hand_id).where(HandRequest.idempotency_key == key)
    stored = db.session.execute(union_all(events, others)).first()
    if stored is None:
        return None
    response, owner = stored
    if owner != table_id:
        raise Invalid({"idempotency_key": _("This idempotency_key was used at another table")})
    if response is None:
        return None
    return Answer(json.loads(response), text=response)


def _open_hand(table_id: int, version: int | None) -> DealerHand:
    row = latest_hand(table_id)
    if row is None:
        table_tournament(table_id)          # 404 for an unknown table
        raise NotFound(_("No hand has been dealt at this table yet"))
    if version is not None and version != row.version:
        raise Conflict(hand_json(row), _("The hand changed on another screen: here it is as it stands"))
    return row


def _bump(row: DealerHand, events: int = 0) -> int:
    """The optimistic lock: exactly one writer moves the hand from its version.
    Reserves ``events`` sequence numbers; returns the first one."""
    result = db.session.execute(update(DealerHand).where(
        DealerHand.id == row.id, DealerHand.version == row.version)
        .values(version=row.version + 1, last_seq=DealerHand.last_seq + events)
        .returning(DealerHand.last_seq).execution_options(synchronize_session=False)).first()
    if result is None:
        db.session.rollback()
        raise _Lost()
    set_committed_value(row, "version", row.version + 1)
    set_committed_value(row, "last_seq", int(result[0]))
    return int(result[0]) - events + 1


class _Lost(Exception):
    """Another writer moved the hand first."""


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


def _lost_race(key: str | None, table_id: int, row: AnyRow) -> Answer:
    """Another write got there first: a retry of an applied request gets its stored
    answer; anything else is a 409 carrying the hand as it stands."""
    stored = _stored_answer(key, table_id)
    if stored is not None:
        return stored
    raise Conflict(hand_json(latest_hand(table_id) or row),
                   _("The hand changed on another screen: here it is as it stands"))


class _FastSQL:
    """The fast path's statements in the driver's own parameter style."""

    def __init__(self, dialect: Any) -> None:
        self.bump = driver_sql(dialect, "UPDATE dealer_hand SET version = ?, last_seq = last_seq + ? "
                                        "WHERE id = ? AND version = ? RETURNING last_seq")
        self.event = DriverInsert(HandEvent.__table__, dialect, [
            "hand_id", "seq", "event", "idempotency_key", "response", "undone", "created_at"])
        self.request = DriverInsert(HandRequest.__table__, dialect, [
            "idempotency_key", "hand_id", "response", "created_at"])
        self.log = DriverInsert(HandLogEntry.__table__, dialect, ["hand_id", "at", "who", "text"])
        hands = DealerHand.__table__
        applied, self.applied = DriverInsert.value(hands, dialect, "chips_applied")
        self.finished_at = DriverInsert.value(hands, dialect, "finished_at")[1]
        self.bump_finish = driver_sql(dialect, (
            "UPDATE dealer_hand SET version = ?, last_seq = last_seq + ?, status = ?, finished_at = ?, "
            f"clock_call = NULL, chips_applied = {applied} WHERE id = ? AND version = ? RETURNING last_seq"))
        self.chips = driver_sql(dialect, "UPDATE player SET chips = CASE WHEN chips + ? < 0 THEN 0 "
                                         "ELSE chips + ? END WHERE id = ?")
        self.mark = driver_sql(dialect, "?")
        self.hand = DriverInsert(hands, dialect, [
            "tournament_id", "table_id", "table_number", "number", "game", "config", "players", "level",
            "positions", "status", "version", "last_seq", "chips_applied", "clock_call", "started_at",
            "finished_at"])
        self.positions = driver_sql(dialect, "UPDATE seating_table SET button_seat = ?, sb_seat = ?, "
                                             "bb_seat = ? WHERE id = ?")
        self.waiting = driver_sql(dialect, "UPDATE seat SET waiting = ? WHERE table_id = ? AND seat = ?")
        self.boolean = DriverInsert.value(Seat.__table__, dialect, "waiting")[1]

    def busted(self, count: int) -> str:
        """The players of the hand left with no chips who are still in."""
        return (f"SELECT id FROM player WHERE chips = 0 AND status = 'active' "
                f"AND id IN ({', '.join([self.mark] * count)})")


_fast_sql: dict[str, _FastSQL] = {}


def _statements() -> _FastSQL:
    """This database's fast-path statements (built once per dialect)."""
    dialect = db.engine.dialect
    found = _fast_sql.get(dialect.name)
    if found is None:
        found = _fast_sql[dialect.name] = _FastSQL(dialect)
    return found


def _write_known(row: HandRow, events: list[Event], key: str | None, text: str,
                 entries: list[tuple[str, str]], now: datetime,
                 finish: Finish | None = None) -> tuple[HandRow, list[int]] | None:
    """Write one accepted change of the hand ``row`` (as read or last written at
    ``row.version``) straight through the driver: the conditional version bump
    (with the status and the chips applied when the hand finishes), the events
    (the last one carrying the idempotency key and the answer), the log lines,
    the players' chips, one commit.  Returns the row as committed and the ids of
    the players left with no chips, or None when another writer moved the hand
    first (or the key was used already): nothing is written then."""
    sql = _statements()
    rows = [{"hand_id": row.id, "seq": 0, "event": event_to_json(event), "idempotency_key": None,
             "response": None, "undone": False, "created_at": now} for event in events]
    if key is not None and rows:
        rows[-1].update(idempotency_key=key, response=text)
    rows = [list(sql.event.params(values)) for values in rows]
    request = sql.request.params({"idempotency_key": key, "hand_id": row.id, "response": text,
                                  "created_at": now}) if key is not None and not rows else None
    logs = [sql.log.params({"hand_id": row.id, "at": now, "who": who, "text": _stored(line)})
            for who, line in entries]

    def work(cursor: Any) -> tuple[int, list[int]] | None:
        if finish is None:
            cursor.execute(sql.bump, (row.version + 1, len(events), row.id, row.version))
        else:
            cursor.execute(sql.bump_finish, (
                row.version + 1, len(events), finish.status, sql.finished_at(now),
                sql.applied(finish.applied()), row.id, row.version))
        found = cursor.fetchone()
        if found is None:
            return None
        first = int(found[0]) - len(events) + 1
        if rows:
            for i, values in enumerate(rows):
                values[1] = first + i            # the column "seq"
            cursor.executemany(sql.event.sql, rows)
        if request is not None:
            cursor.execute(sql.request.sql, request)
        if logs:
            cursor.executemany(sql.log.sql, logs)
        busted: list[int] = []
        if finish is not None:
            if finish.chips:
                cursor.executemany(sql.chips, [(delta, delta, pid) for pid, delta in finish.chips.items()])
            cursor.execute(sql.busted(len(finish.players)), finish.players)
            busted = sorted(int(found[0]) for found in cursor.fetchall())
        return first, busted

    written = group_commit().submit(work)
    if written is None:
        return None
    first, busted = written
    committed = replace(row, version=row.version + 1, last_seq=first + len(events) - 1)
    if finish is not None:
        committed = replace(committed, status=finish.status, clock_call=None)
    _keep(committed)
    return committed, busted


def _write_new_hand(row: HandRow, moves: tuple[tuple[int, int, int], list[tuple[bool, int]]] | None,
                    who: str, text: str, now: datetime) -> HandRow | None:
    """Write a hand just dealt (``row`` without its id) straight through the driver:
    the table's button and blinds and the seats that stop or start waiting for the
    button (``moves``), the hand, its first log line, one commit.  Returns the row
    as committed, or None when another tablet dealt this hand number first."""
    sql = _statements()
    values = sql.hand.params({**asdict(row), "started_at": now, "finished_at": None, "chips_applied": None})

    def work(cursor: Any) -> int:
        if moves is not None:
            cursor.execute(sql.positions, (*moves[0], row.table_id))
            if moves[1]:
                cursor.executemany(sql.waiting, [(sql.boolean(w), row.table_id, seat) for w, seat in moves[1]])
        cursor.execute(sql.hand.sql + " RETURNING id", values)
        hand_id = int(cursor.fetchone()[0])
        cursor.execute(sql.log.sql, sql.log.params({"hand_id": hand_id, "at": now, "who": who, "text": _stored(text)}))
        return hand_id

    hand_id = group_commit().submit(work)
    if hand_id is None:
        return None
    committed = replace(row, id=hand_id)
    _keep(committed)
    return committed


def apply_events(table_id: int, make: Any, *, version: int | None, key: str | None,
                 who: str = "dealer", note: str | None = None, check: Any = None) -> Answer:
    """Apply the events ``make(hand, seating)`` returns, as one write.

    The events are committed before the answer is returned; the answer is
    stored with them for a retry of the same ``key``.  Raises ``Illegal`` with
    the engine's sentence, ``Conflict`` for a stale ``version``.

    When this process knows the table's hand at ``version`` (it wrote it last)
    nothing is read; otherwise the hand's row is read once.  The write goes
    straight through the driver (``_write_known``).
    """
    row = _known_hand(table_id, version)
    if row is None:
        loaded = latest_hand(table_id)
        if version is None or loaded is None or loaded.version != version:
            # A retry of a write that was applied has a stale version: answer it as before.
            stored = _stored_answer(key, table_id)
            if stored is not None:
                return stored
            loaded = _open_hand(table_id, version)
        row = HandRow.of(loaded)
    hand = _cached(row)
    seating = Seating(row.players)
    new_events: list[Event] = list(make(hand, seating))
    new = hand
    try:
        if check is not None:
            check(row, hand, seating)
        for event in new_events:
            new = new.apply(event)
    except RuleViolation as exc:
        db.session.rollback()
        raise Illegal(seating.words(translate_violation(exc))) from None
    finish: Finish | None = None
    if new.finished and row.status == "playing":
        finish = Finish("misdeal" if new.misdealt else "finished", _chip_changes(row.players, new),
                        [int(p["player_id"]) for p in row.players])
    log = recent_log(row.id, row.version)
    now = utcnow()
    texts = [describe_event(event, seating) for event in new_events] + ([note] if note else [])
    if finish is not None and not new.misdealt:
        texts += _awards(new, seating)[1]
    entries = [(who if i < len(new_events) + bool(note) else "engine", t) for i, t in enumerate(texts)]
    log = ([_log_line(now, w, t) for w, t in reversed(entries)] + log)[:LOG_SHOWN]
    after = replace(row, last_seq=row.last_seq + len(new_events)) if finish is None \
        else replace(row, status=finish.status, clock_call=None)
    body = hand_json(after, new, log, version=row.version + 1,
                     last_tap="; ".join(texts[:len(new_events)]),
                     turn_started=now if new_events else None)
    text = _encode(body)
    written = _write_known(row, new_events, key, text, entries, now, finish)
    if written is None:
        return _lost_race(key, table_id, row)
    committed, busted = written
    _remember(committed.id, committed.version, new, log)
    if busted:
        _after_finish(committed, busted)    # eliminations publish the seating and the clock
    elif finish is not None:
        _publish_chips(committed.tournament_id)
    if finish is not None and finish.status == "finished":
        dealer_hold.finish_round(committed.tournament_id)   # the last table of a hand-for-hand hand
    broker().publish(committed.tournament_id, "dealer",
                     {"table_id": table_id, "hand_id": committed.id, "version": committed.version})
    return Answer(body, text=text)


def _chip_changes(players: Sequence[dict[str, Any]], hand: Hand) -> dict[int, int]:
    """Player id -> the chips the finished hand moved (won: positive), non-zero only."""
    start, final = hand.config.starting_stacks, hand.stacks
    return {int(p["player_id"]): final[i] - start[i] for i, p in enumerate(players) if final[i] != start[i]}


@dataclass(frozen=True)
class Finish:
    """What a hand that finishes writes besides its events: its status, the chips
    it moved (a stack never goes below 0), and who played it (the ones left with
    no chips are eliminated after the commit)."""

    status: str
    chips: dict[int, int]
    players: list[int]

    def applied(self) -> dict[str, int]:
        """``DealerHand.chips_applied``: what an undo takes back."""
        return {str(pid): delta for pid, delta in self.chips.items()}


def _finish(row: DealerHand, hand: Hand) -> tuple[list[int], list[str]]:
    """The director's corrected hand is over: every player's chips follow it (in this
    transaction; ``Finish`` is the same through the driver).  Returns the ids of
    players left with no chips, and the award sentences to log."""
    row.status = "misdeal" if hand.misdealt else "finished"
    row.finished_at = utcnow()
    row.clock_call = None
    changes = _chip_changes(row.players, hand)
    busted = []
    for player in db.session.scalars(select(Player).where(
            Player.id.in_([p["player_id"] for p in row.players]))):
        if player.id in changes:
            player.chips = max(0, player.chips + changes[player.id])
        if player.chips == 0 and player.status == "active":
            busted.append(player.id)
    row.chips_applied = {str(pid): delta for pid, delta in changes.items()}
    sentences = [] if hand.misdealt else _awards(hand, Seating(row.players))[1]
    return busted, sentences


def _after_finish(row: AnyRow, busted: list[int]) -> None:
    """After the commit: busted players are eliminated (finishing places, balancing)."""
    if not busted:
        return

    config = HandConfig.from_json(row.config)
    starting = {p["player_id"]: config.starting_stacks[i] for i, p in enumerate(row.players)}
    try:
        busts.eliminate(row.tournament_id, busted, starting_chips=starting,
                        by=bounty_service.from_hand(_cached(row), row.players, busted))
    except Invalid as exc:  # already out, or not seated any more: nothing to do
        db.session.rollback()
        _log_now(row, "engine", str(exc))


def _publish_chips(tournament_id: int, *, clock: bool = False) -> None:
    """The chip counts changed: the seating screens hear of it (and the projector,
    with ``clock``, when the players left changed too)."""

    seating_service.publish(tournament_id, clock=clock, kind="hands")


def _log_now(row: AnyRow, who: str, text: str) -> None:
    """A log line with no change to the hand (its version stays): the log kept in
    memory for that version is stale now, here and in the other server processes
    (``forget_log``), and the tablets read the hand again."""
    db.session.add(HandLogEntry(hand_id=row.id, who=who, text=_stored(text)))
    db.session.commit()
    _forget_log(row.id)
    broker().publish(row.tournament_id, "dealer", {"table_id": row.table_id, "hand_id": row.id,
                                                   "version": row.version, "log": True})


def _forget_log(hand_id: int) -> None:
    with _cache_lock:
        for key in [k for k in _logs if k[1] == hand_id]:
            del _logs[key]


def forget_log(change: Change) -> None:
    """Another process wrote a log line with no change to the hand (the change feed)."""
    if change.data and change.data.get("log"):
        _forget_log(int(change.data["hand_id"]))


def _unfinish(row: DealerHand) -> bool:
    """Reopen a finished hand: take back the chips it moved.  The players it busted
    come back into their seats (``seating.reinstate``, in this transaction); another
    player who is out (the director eliminated them) makes it refused.  Returns
    whether anyone came back (the players left changed)."""
    deltas = {int(pid): int(delta) for pid, delta in (row.chips_applied or {}).items()}
    players = {p.id: p for p in db.session.scalars(select(Player).where(Player.id.in_(list(deltas))))}
    busted = {}
    seats = {int(p["player_id"]): int(p["seat"]) for p in row.players}
    for pid, player in players.items():
        if player.status == "active":
            continue
        if player.chips == 0 and deltas[pid] < 0 and pid in seats:
            busted[pid] = seats[pid]
            continue
        db.session.rollback()
        raise Illegal(_("%(name)s is out of the tournament, and not because this hand took their "
                        "last chip: the director corrects the hand from the seating page",
                        name=player.name))
    if busted:

        try:
            lines = busts.reinstate(row.tournament_id, row.table_id, busted)
        except Invalid as exc:
            db.session.rollback()
            raise Illegal(" ".join(exc.errors.values())) from None
        for line in lines:
            db.session.add(HandLogEntry(hand_id=row.id, who="engine", text=_stored(line)))
    for pid, delta in deltas.items():
        player = players.get(pid)
        if player is not None:
            player.chips = max(0, player.chips - delta)
    row.chips_applied = None
    row.status = "playing"
    row.finished_at = None
    return bool(busted)


def _publish(row: AnyRow) -> None:
    broker().publish(row.tournament_id, "dealer",
                     {"table_id": row.table_id, "hand_id": row.id, "version": row.version})


# ---------------------------------------------------------------- the endpoints' services

def act(table_id: int, seat: int, kind: ActionKind, amount: int | None, *,
        version: int | None, key: str | None, who: str = "dealer") -> Answer:
    def make(hand: Hand, seating: Seating) -> list[Event]:
        p = seating.index(seat)
        to = amount
        if kind is ActionKind.ALL_IN:
            to = None
        if kind in (ActionKind.BET, ActionKind.RAISE) and to is None:
            raise Invalid({"amount": _("Say the amount: a bet or raise is to a total")})
        return [Action(p, kind, to)]

    def in_time(row: AnyRow, hand: Hand, seating: Seating) -> None:
        call = live_clock_call(row)
        if call is not None and int(call["seat"]) == seat and call.get("ends_at"):
            verify_in_time(_utc(call["ends_at"]), utcnow(), player=seating.index(seat),
                           seats=hand.config.seats or None)
    return apply_events(table_id, make, version=version, key=key, who=who, check=in_time)


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(str(text).replace("Z", "+00:00"))


def live_clock_call(row: AnyRow) -> dict[str, Any] | None:
    """The clock called in this hand while it still stands: until the player it was called
    on acts (any event recorded after the call ends it; a call stored before calls kept
    their event count lasts while he is to act)."""
    call = row.clock_call
    if not call or row.status != "playing":
        return None
    at = call.get("at_seq")
    return call if at is None or int(at) == row.last_seq else None


def deal_board(table_id: int, cards: tuple[Card | None, ...] | None, *,
               version: int | None, key: str | None, who: str = "dealer") -> Answer:
    def make(hand: Hand, seating: Seating) -> list[Event]:
        if cards is not None:
            return [DealBoard(cards)]
        if hand.config.game.is_stud:
            return [DealBoard((None,))]
        count = _BOARD_COUNT.get(hand.street.value, 1)
        return [DealBoard((None,) * count)]
    return apply_events(table_id, make, version=version, key=key, who=who)


def deal_cards(table_id: int, by_seat: dict[int, tuple[Card | None, ...]] | None, *,
               version: int | None, key: str | None, who: str = "dealer") -> Answer:
    """Stud streets (the up-cards) or Omaha hole cards; ``None``: every live player's
    cards dealt unseen (stud 7th street)."""
    def make(hand: Hand, seating: Seating) -> list[Event]:
        if by_seat is None:
            if not hand.config.game.is_stud:
                raise Invalid({"cards": _("Enter the cards per seat")})
            return [DealHole(i, (None,)) for i in range(len(seating.players)) if not hand.folded[i]]
        out: list[Event] = []
        dealt = hand.dealt_this_street
        for number in sorted(by_seat, key=lambda s: seating.index(s, "cards")):
            p = seating.index(number, "cards")
            cards = by_seat[number]
            if hand.config.game.is_stud and hand.street.value == "third street" and len(cards) == 1:
                cards = (None, None, *cards)
            held = hand.hole_cards[p]
            if dealt[p] and cards and held[-len(cards):] == tuple(cards):
                continue    # entered already (a ruling on an exposed card): the same card again
            out.append(DealHole(p, cards))
        return out
    return apply_events(table_id, make, version=version, key=key, who=who)


def show(table_id: int, seat: int, cards: tuple[Card | None, ...], *,
         version: int | None, key: str | None, who: str = "dealer") -> Answer:
    return apply_events(table_id, lambda h, s: [Show(s.index(seat), cards)],
                        version=version, key=key, who=who)


def muck(table_id: int, seat: int, *, version: int | None, key: str | None,
         who: str = "dealer") -> Answer:
    """A hand mucked at showdown; refused when a player is all-in and the betting is
    over: then every hand is tabled (TDA 16), so the dealer enters its cards."""
    def make(hand: Hand, seating: Seating) -> list[Event]:
        p = seating.index(seat)
        if hand.hands_face_up and not hand.folded[p]:
            raise Illegal(_("%(who)s may not muck: a player is all-in and the betting is over, so "
                            "every hand is turned face up (TDA 16). Enter his cards.",
                            who=seating.label(p)))
        return [Muck(p)]
    return apply_events(table_id, make, version=version, key=key, who=who)


def award(table_id: int, high: list[list[int]], low: list[list[int]], *,
          version: int | None, key: str | None, who: str = "dealer") -> Answer:
    def make(hand: Hand, seating: Seating) -> list[Event]:
        if not high:
            raise Invalid({"high": _("Name the winner of the high hand")})
        return [ManualAward(tuple(tuple(seating.index(x, "high") for x in g) for g in high),
                            tuple(tuple(seating.index(x, "low") for x in g) for g in low))]
    return apply_events(table_id, make, version=version, key=key, who=who)


DEAL_UNDONE = N_("deal undone by the dealer")


def _street_taps(hand_id: int) -> list[HandEvent]:
    """The actions of the betting round being played, newest first: every event after the
    street's cards (stops at the last card dealt)."""
    recent = db.session.scalars(select(HandEvent).where(
        HandEvent.hand_id == hand_id, HandEvent.undone.is_(False)).order_by(HandEvent.seq.desc())).all()
    taken = []
    for event in recent:
        if event_from_json(event.event).type in (DealBoard.type, DealHole.type):
            break
        taken.append(event)
    return taken


def undo(table_id: int, *, version: int | None, key: str | None, who: str = "dealer",
         street: bool = False) -> Answer:
    """Take back the last tap of the table's latest hand (before the next hand starts):
    every event that one write recorded, e.g. all the up-cards of a stud street.

    Right after the deal, before any card or action was entered, Undo takes back the
    deal itself: what a dealer who tapped Deal by mistake (a wrong absent seat, the
    wrong moment) expects is the hand gone and Deal offered again with the same
    button.  The hand is voided as a misdeal with no chips moved (TDA 35: the redeal
    keeps the button), so the next deal is that redeal; Undo once more brings the
    voided hand back as it was dealt."""
    stored = _stored_answer(key, table_id)
    if stored is not None:
        return stored
    row = _open_hand(table_id, version)
    # ``street``: the whole betting round in one tap, back to the street's cards
    taken = (_street_taps(row.id) if street and row.status == "playing" else []) or _last_tap(row.id)
    if not taken:
        if row.status != "playing":
            raise Illegal(_("Nothing to undo: no action has been recorded in this hand"))
        what = _("the deal (hand %(n)s is void; deal again with the same button)", n=_shown_number(row))
        return apply_events(table_id, lambda h, s: [Misdeal(DEAL_UNDONE)], version=row.version,
                            key=key, who=who, note=_("Undo: %(what)s", what=what))
    seating = Seating(row.players)
    # each event's sentence kept as it is stored (a Said), so the line reads in each
    # tablet's language like the actions it takes back; several are joined by "; "
    said = [describe_event(event_from_json(e.event), seating) for e in reversed(taken)]
    text = said[0]
    for then in said[1:]:
        text = Said(N_("%(done)s; %(then)s"), done=text, then=then)
    reopened = row.status != "playing"
    reinstated = reopened and _unfinish(row)
    try:
        _bump(row)
    except _Lost:
        return _lost_race(key, table_id, row)
    for event in taken:
        event.undone = True
    db.session.add(HandLogEntry(hand_id=row.id, who=who, text=_stored(Said(N_("Undo: %(what)s"), what=text))))
    db.session.flush()
    body = hand_json(row)
    if key is not None:
        db.session.add(HandRequest(idempotency_key=key, hand_id=row.id, response=json.dumps(body)))
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return _lost_race(key, table_id, row)
    if reopened:
        _publish_chips(row.tournament_id, clock=reinstated)
    _publish(row)
    return Answer(body)


def correct_hand(hand_id: int, events_json: list[Any]) -> Answer:
    """The director corrects a finished hand: its events are replaced, the hand is
    replayed, and the players' chips move by the difference."""
    row = get_hand(hand_id)
    if row.status == "playing":
        raise Illegal(_("The hand is still being played: use undo on the tablet"))
    config = HandConfig.from_json(row.config)
    try:
        new_events = [event_from_json(e) for e in events_json]
        new = Hand.replay(config, new_events)
    except (RuleViolation, TypeError, ValueError, AttributeError) as exc:
        message = translate_violation(exc) if isinstance(exc, RuleViolation) else str(exc)
        raise Illegal(Seating(row.players).words(message)) from None
    if not new.finished:
        raise Illegal(_("The corrected hand is not finished: %(waiting)s",
                        waiting=new.awaiting or new.phase.value))
    _unfinish(row)
    db.session.execute(update(HandEvent).where(HandEvent.hand_id == row.id).values(undone=True)
                       .execution_options(synchronize_session=False))
    seq = row.last_seq
    for event in new_events:
        seq += 1
        db.session.add(HandEvent(hand_id=row.id, seq=seq, event=event_to_json(event)))
    row.last_seq = seq
    row.version = row.version + 1
    db.session.add(HandLogEntry(hand_id=row.id, who="director",
                                text=_stored(Said(N_("Hand corrected by the director (%(n)s events)"),
                                                  n=len(new_events)))))
    busted, sentences = _finish(row, new)
    for sentence in sentences:
        db.session.add(HandLogEntry(hand_id=row.id, who="engine", text=_stored(sentence)))
    db.session.flush()
    body = hand_json(row, new)
    db.session.commit()
    _remember(hand_id, body["version"], new)
    if busted:
        _after_finish(row, busted)
    else:
        _publish_chips(row.tournament_id)
    _publish(row)
    return Answer(body)


def write_note(row: DealerHand, hand: Hand, who: str, text: str, key: str | None, *,
               turn_started: datetime | None = None) -> Answer:
    """A line in the hand's log that changes what the tablets show (a time-bank card):
    the version moves on, every tablet of the table is told, the answer is kept for a
    retry of ``key``; committed before the answer."""
    try:
        _bump(row)
    except _Lost:
        raise Conflict(hand_json(latest_hand(row.table_id) or row),
                       _("The hand changed on another screen: here it is as it stands")) from None
    db.session.add(HandLogEntry(hand_id=row.id, who=who, text=_stored(text)))
    db.session.flush()
    body = hand_json(row, hand, turn_started=turn_started)
    if key is not None:
        db.session.add(HandRequest(idempotency_key=key, hand_id=row.id, response=json.dumps(body)))
    db.session.commit()
    _remember(body["hand_id"], body["version"], hand)
    _publish(row)
    return Answer(body)


def log_note(table_id: int, text: str, who: str) -> None:
    row = latest_hand(table_id)
    if row is not None:
        _log_now(row, who, text)


def set_clock_call(table_id: int, seat: int | None, *, version: int | None, key: str | None,
                   who: str, now: datetime) -> Answer:
    """A clock called on the player to act (TDA 29): stored, shown on every tablet.

    How long he has is the tournament's house rule ``clock_seconds`` (RULES.md §11.1:
    25 + 5 s, TDA 29 2024, or 60 + 10 s, older TDA / WSOP-LA), countdown included;
    the moment it ends is stored with the call, so the expiry ruling uses the time
    he was given.
    """

    stored = _stored_answer(key, table_id)
    if stored is not None:
        return stored
    row = _open_hand(table_id, version)
    hand = _cached(row)
    seating = Seating(row.players)
    if seat is None:
        row.clock_call = None
        text = _("Clock cancelled")
    else:
        p = seating.index(seat)
        if hand.to_act != p:
            raise Illegal(_("The clock is called on the player to act; %(who)s is not to act",
                            who=seating.label(p)))
        seconds = clock_time(house_rules.ruling_policy(row.tournament_id)).total
        ends = now + timedelta(seconds=seconds)
        row.clock_call = {"seat": seat, "called_at": now.isoformat().replace("+00:00", "Z"),
                          "ends_at": ends.isoformat().replace("+00:00", "Z"), "seconds": seconds,
                          "at_seq": row.last_seq}
        text = _("Clock called on %(who)s: %(seconds)s seconds (TDA 29)", who=seating.label(p),
                 seconds=seconds)
    try:
        _bump(row)
    except _Lost:
        raise Conflict(hand_json(latest_hand(table_id) or row),
                       _("The hand changed on another screen: here it is as it stands")) from None
    db.session.add(HandLogEntry(hand_id=row.id, who=who, text=_stored(text)))
    db.session.flush()
    body = hand_json(row, hand)
    if key is not None:
        db.session.add(HandRequest(idempotency_key=key, hand_id=row.id, response=json.dumps(body)))
    db.session.commit()
    _remember(body["hand_id"], body["version"], hand)
    _publish(row)
    return Answer(body)


# ---------------------------------------------------------------- history and PHH

def hands_of_table(table_id: int, *, newest: int | None = None,
                   before: int | None = None) -> list[DealerHand]:
    """The table's hands in order; ``newest``: only the last ``newest`` of those numbered
    below ``before`` (the director's list shows a page), their events read in one query
    (a list of 200 hands ran 404 statements: each hand's events on their own)."""
    table_tournament(table_id)
    query = select(DealerHand).where(DealerHand.table_id == table_id)
    if before is not None:
        query = query.where(DealerHand.number < before)
    if newest is None:
        return list(db.session.scalars(query.order_by(DealerHand.number)))
    rows = list(db.session.scalars(query.order_by(DealerHand.number.desc()).limit(newest)))
    rows.reverse()
    _replay_together(rows)
    return rows


def _replay_together(rows: list[DealerHand]) -> None:
    """Put the engine hands of ``rows`` in the cache, reading the events of those not
    there yet in one query."""
    with _cache_lock:
        missing = {row.id: row for row in rows if (app_key(), row.id, row.version) not in _cache}
    if not missing:
        return
    events: dict[int, list[Any]] = {hand_id: [] for hand_id in missing}
    for hand_id, event in db.session.execute(select(HandEvent.hand_id, HandEvent.event).where(
            HandEvent.hand_id.in_(list(missing)), HandEvent.undone.is_(False))
            .order_by(HandEvent.hand_id, HandEvent.seq)):
        events[hand_id].append(event)
    for hand_id, row in missing.items():
        hand = Hand.replay(HandConfig.from_json(row.config),
                           [event_from_json(e) for e in events[hand_id]])
        _remember(row.id, row.version, hand)


def hand_counts(table_ids: Iterable[int]) -> dict[int, int]:
    """How many hands each table dealt, counted by the database."""
    ids = list(table_ids)
    if not ids:
        return {}
    return {int(table_id): int(count) for table_id, count in db.session.execute(
        select(DealerHand.table_id, func.count(DealerHand.id)).where(
            DealerHand.table_id.in_(ids)).group_by(DealerHand.table_id))}


def phh_text(row: DealerHand) -> str:

    hand = _cached(row)
    tournament = get_tournament(row.tournament_id)
    extra = {"event": tournament.name, "hand": row.number, "table": row.table_number,
             "players": [p["name"] for p in row.players],
             "seats": [p["seat"] for p in row.players],
             "year": row.started_at.year, "month": row.started_at.month,
             "day": row.started_at.day, "time_zone": "UTC"}
    return to_phh(hand, extra)


def event_list(row: DealerHand) -> list[dict[str, Any]]:
    return [event_to_json(e) for e in _cached(row).events]


def phh_name(row: DealerHand) -> str:
    return f"table{row.table_number}-hand{row.number:04d}.phh"


def phh_zip(table_id: int) -> bytes:

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for row in hands_of_table(table_id):
            if row.status != "playing":
                archive.writestr(phh_name(row), phh_text(row))
    return buffer.getvalue()


def finished_rows(rows: Iterable[DealerHand]) -> list[DealerHand]:
    return [r for r in rows if r.status != "playing"]
