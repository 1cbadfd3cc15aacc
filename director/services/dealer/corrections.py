"""Changes to a hand besides its events: the dealer's undo (and the reinstatement of
the players the undone finish busted), the director's correction of a finished hand,
a note in the log, the clock called on a player (TDA 29).  Each is one unit of work:
its rows, then what it means (``uow``: the tablets, the seating screens), one commit."""

from __future__ import annotations

import functools
import json
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from director.db import db
from director.faults import crash_point
from director.i18n import N_, translate_violation
from director.i18n import gettext as _
from director.models.hands import DealerHand, HandEvent, HandLogEntry, HandRequest
from director.poker.errors import RuleViolation
from director.poker.events import (
    DealBoard,
    DealHole,
    Misdeal,
    event_from_json,
    event_to_json,
)
from director.poker.rulings import clock_time
from director.poker.state import Hand, HandConfig
from director.services import Invalid, house_rules, uow
from director.services.audit import Said
from director.services.dealer.actions import apply_events
from director.services.dealer.answers import Answer, Conflict, Illegal
from director.services.dealer.finish import eliminate_busted, finish_corrected, unfinish
from director.services.dealer.log import describe_event, last_tap_events, stored_text
from director.services.dealer.memory import cached_hand, remember
from director.services.dealer.rows import get_hand, latest_hand, shown_number
from director.services.dealer.seats import Seating
from director.services.dealer.tablet import hand_json, keep_state
from director.services.dealer.writes import (
    Lost,
    bump,
    chips_moved,
    log_now,
    lost_race,
    open_hand,
    stored_answer,
    tell_tablets,
)
from director.services.once import request_digest

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
    stored = stored_answer(key, table_id)
    if stored is not None:
        return stored
    row = open_hand(table_id, version)
    # ``street``: the whole betting round in one tap, back to the street's cards
    taken = (_street_taps(row.id) if street and row.status == "playing" else []) or last_tap_events(row.id)
    if not taken:
        if row.status != "playing":
            raise Illegal(_("Nothing to undo: no action has been recorded in this hand"))
        what = _("the deal (hand %(n)s is void; deal again with the same button)", n=shown_number(row))
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
    # One transaction: the chips the hand moved taken back and the players it busted
    # back in their seats (``finish.unfinish``), the taps undone, the log line.
    reinstated = reopened and unfinish(row)
    try:
        bump(row)
    except Lost:
        return lost_race(key, table_id, row)
    crash_point("undo-after-reinstate")
    for event in taken:
        event.undone = True
    db.session.add(HandLogEntry(hand_id=row.id, who=who, text=stored_text(Said(N_("Undo: %(what)s"), what=text))))
    db.session.flush()
    body = hand_json(row)
    if key is not None:
        db.session.add(HandRequest(idempotency_key=key, hand_id=row.id, response=json.dumps(body),
                                   digest=request_digest()))
    if reopened:
        chips_moved(row.tournament_id, clock=reinstated)
    uow.after_commit(functools.partial(keep_state, body))      # what every tablet reads now
    tell_tablets(row)
    crash_point("undo-before-commit")
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return lost_race(key, table_id, row)
    crash_point("undo-after-commit")
    uow.dispatch()
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
    unfinish(row)
    db.session.execute(update(HandEvent).where(HandEvent.hand_id == row.id).values(undone=True)
                       .execution_options(synchronize_session=False))
    seq = row.last_seq
    for event in new_events:
        seq += 1
        db.session.add(HandEvent(hand_id=row.id, seq=seq, event=event_to_json(event)))
    row.last_seq = seq
    row.version = row.version + 1
    db.session.add(HandLogEntry(hand_id=row.id, who="director",
                                text=stored_text(Said(N_("Hand corrected by the director (%(n)s events)"),
                                                  n=len(new_events)))))
    busted, sentences = finish_corrected(row, new)
    for sentence in sentences:
        db.session.add(HandLogEntry(hand_id=row.id, who="engine", text=stored_text(sentence)))
    db.session.flush()
    body = hand_json(row, new)
    try:
        eliminate_busted(row, busted, new)      # in this transaction: one commit for all of it
    except Invalid as exc:                      # rolled back: the correction is refused
        raise Illegal(" ".join(exc.errors.values())) from None
    chips_moved(row.tournament_id, clock=bool(busted))
    _commit(row, new, body)
    return Answer(body)


def _commit(row: DealerHand, hand: Hand, body: dict[str, Any]) -> None:
    """Commit a change of the hand whose new version ``body`` shows: after the commit
    this process keeps its engine hand and every tablet of the table reads it."""
    uow.after_commit(functools.partial(remember, body["hand_id"], body["version"], hand))
    uow.after_commit(functools.partial(keep_state, body))      # what every tablet reads now
    tell_tablets(row)
    uow.commit()


def write_note(row: DealerHand, hand: Hand, who: str, text: str, key: str | None, *,
               turn_started: datetime | None = None) -> Answer:
    """A line in the hand's log that changes what the tablets show (a time-bank card):
    the version moves on, every tablet of the table is told, the answer is kept for a
    retry of ``key``; committed before the answer."""
    try:
        bump(row)
    except Lost:
        raise Conflict(hand_json(latest_hand(row.table_id) or row),
                       _("The hand changed on another screen: here it is as it stands")) from None
    db.session.add(HandLogEntry(hand_id=row.id, who=who, text=stored_text(text)))
    db.session.flush()
    body = hand_json(row, hand, turn_started=turn_started)
    if key is not None:
        db.session.add(HandRequest(idempotency_key=key, hand_id=row.id, response=json.dumps(body),
                                   digest=request_digest()))
    _commit(row, hand, body)
    return Answer(body)


def log_note(table_id: int, text: str, who: str) -> None:
    row = latest_hand(table_id)
    if row is not None:
        log_now(row, who, text)


def set_clock_call(table_id: int, seat: int | None, *, version: int | None, key: str | None,
                   who: str, now: datetime) -> Answer:
    """A clock called on the player to act (TDA 29): stored, shown on every tablet.

    How long he has is the tournament's house rule ``clock_seconds`` (RULES.md §11.1:
    25 + 5 s, TDA 29 2024, or 60 + 10 s, older TDA / WSOP-LA), countdown included;
    the moment it ends is stored with the call, so the expiry ruling uses the time
    he was given.
    """

    stored = stored_answer(key, table_id)
    if stored is not None:
        return stored
    row = open_hand(table_id, version)
    hand = cached_hand(row)
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
    return write_note(row, hand, who, text, key)
