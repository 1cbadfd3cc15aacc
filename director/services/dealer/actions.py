"""The tablet's taps on a hand: an action, the board, the cards, show, muck, the
award, each applied by the engine and written as one write (``apply_events``)."""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import Any

from director.db import db, utcnow
from director.i18n import gettext as _
from director.i18n import translate_violation
from director.poker.cards import Card
from director.poker.errors import RuleViolation
from director.poker.events import (
    Action,
    ActionKind,
    DealBoard,
    DealHole,
    Event,
    ManualAward,
    Muck,
    Show,
)
from director.poker.rulings import verify_in_time
from director.poker.state import Hand
from director.services import Invalid, dealer_hold, uow
from director.services.dealer.answers import Answer, Illegal, encode
from director.services.dealer.finish import finish_hand
from director.services.dealer.log import (
    LOG_SHOWN,
    describe_event,
    hand_awards,
    log_line,
    recent_log,
)
from director.services.dealer.memory import (
    AnyRow,
    HandRow,
    cached_hand,
    known_hand,
    remember,
)
from director.services.dealer.rows import latest_hand
from director.services.dealer.seats import Seating
from director.services.dealer.tablet import hand_json, keep_state, live_clock_call, utc
from director.services.dealer.writes import (
    BustsFound,
    Finish,
    chip_changes,
    chips_moved,
    lost_race,
    open_hand,
    stored_answer,
    tell_tablets,
    write_known,
)

_BOARD_COUNT = {"flop": 3, "turn": 1, "river": 1}


def apply_events(table_id: int, make: Any, *, version: int | None, key: str | None,
                 who: str = "dealer", note: str | None = None, check: Any = None) -> Answer:
    """Apply the events ``make(hand, seating)`` returns, as one write.

    The events are committed before the answer is returned; the answer is
    stored with them for a retry of the same ``key``.  Raises ``Illegal`` with
    the engine's sentence, ``Conflict`` for a stale ``version``.

    When this process knows the table's hand at ``version`` (it wrote it last)
    nothing is read; otherwise the hand's row is read once.  The write goes
    straight through the driver, grouped with the other tablets' writes into one
    commit (``writes.write_known``); the write that finishes the hand and busts
    players is one transaction with their eliminations (``finish.finish_hand``).  The
    answer is the table's state at the new version: it is kept for every tablet
    of the table (``memory.tablet_state``).
    """
    row = known_hand(table_id, version)
    if row is None:
        loaded = latest_hand(table_id)
        if version is None or loaded is None or loaded.version != version:
            # A retry of a write that was applied has a stale version: answer it as before.
            stored = stored_answer(key, table_id)
            if stored is not None:
                return stored
            loaded = open_hand(table_id, version)
        row = HandRow.of(loaded)
    hand = cached_hand(row)
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
        finish = Finish("misdeal" if new.misdealt else "finished", chip_changes(row.players, new),
                        [int(p["player_id"]) for p in row.players])
    log = recent_log(row.id, row.version)
    now = utcnow()
    texts = [describe_event(event, seating) for event in new_events] + ([note] if note else [])
    if finish is not None and not new.misdealt:
        texts += hand_awards(new, seating)[1]
    entries = [(who if i < len(new_events) + bool(note) else "engine", t) for i, t in enumerate(texts)]
    log = ([log_line(now, w, t) for w, t in reversed(entries)] + log)[:LOG_SHOWN]
    after = replace(row, last_seq=row.last_seq + len(new_events)) if finish is None \
        else replace(row, status=finish.status, clock_call=None)
    body = hand_json(after, new, log, version=row.version + 1,
                     last_tap="; ".join(texts[:len(new_events)]),
                     turn_started=now if new_events else None)
    text = encode(body)
    # A finish that leaves a player with no chips is one transaction with his
    # elimination (``finish.finish_hand``); every other write is grouped.
    busting = finish is not None and not new.misdealt and 0 in new.stacks
    committed: HandRow | None = None
    if not busting:
        try:
            committed = write_known(row, new_events, key, text, entries, now, finish)
        except BustsFound:      # a stack changed by the director during the hand: a bust after all
            busting = True
        else:
            if committed is None:
                return lost_race(key, table_id, row)
            # Committed by the group's writer thread: told now (``uow.dispatch``), what
            # this process keeps first, then the screens and the tablets.
            uow.after_commit(functools.partial(remember, committed.id, committed.version, new, log))
            uow.after_commit(functools.partial(keep_state, body))
            if finish is not None:
                chips_moved(committed.tournament_id)
            tell_tablets(committed)
            uow.dispatch()
    if busting and finish is not None:
        committed = finish_hand(row, new, new_events, key, text, entries, now, finish, log, body)
        if committed is None:
            return lost_race(key, table_id, row)
    if committed is not None and finish is not None and finish.status == "finished":
        dealer_hold.finish_round(committed.tournament_id)   # the last table of a hand-for-hand hand
    return Answer(body, text=text)


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
            verify_in_time(utc(call["ends_at"]), utcnow(), player=seating.index(seat),
                           seats=hand.config.seats or None)
    return apply_events(table_id, make, version=version, key=key, who=who, check=in_time)


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
