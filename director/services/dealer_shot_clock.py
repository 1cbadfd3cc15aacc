"""The shot clock run by the hand (house rule ``shot_clock``, off by default): its state
in the hand JSON, a time-bank card played from the tablet, the house rule applied when a
player's time has run out, and the time each player took in a hand.

The moment the action reached the player is the moment of the write that gave it to him
(the last event's ``created_at``, or the deal); the engine (``director.poker.shot_clock``)
is given it and ``now``.  A time-bank card is a line of the hand's log whose author is
``bank:<player id>``: the cards a player has left are counted over the tournament's hands
of the level (or the day), so they follow him to another table.  Each function is one
unit of work: it commits before it answers.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from director.db import db, utcnow
from director.models import Tournament
from director.models.audit import AuditEntry
from director.models.hands import DealerHand, HandEvent, HandLogEntry
from director.poker import shot_clock as S
from director.poker.errors import RuleViolation
from director.poker.events import Action, event_from_json
from director.poker.rulings import RulingPolicy
from director.poker.state import Hand, HandConfig
from director.services import audit
from director.tournament.clock import ClockState

AnyRow = Any       # a DealerHand row or the dealer service's HandRow: the same fields


def settings(house: RulingPolicy) -> dict[str, Any] | None:
    """What a hand dealt under these house rules keeps of the shot clock (None: off)."""
    if house.shot_clock == "off":
        return None
    return {"seconds": int(house.shot_clock), "expiry": house.shot_clock_expiry,
            "cards": int(house.time_bank_cards), "per": house.time_bank_per}


def setup_of(row: AnyRow) -> dict[str, Any] | None:
    found = (row.positions or {}).get("shot_clock")
    return found if isinstance(found, dict) else None


def turn_started(row: AnyRow) -> datetime:
    """When the action reached the player to act: the last write's moment, or the deal."""
    last = db.session.scalar(select(func.max(HandEvent.created_at)).where(
        HandEvent.hand_id == row.id, HandEvent.undone.is_(False)))
    if last is None:
        last = db.session.scalar(select(DealerHand.started_at).where(DealerHand.id == row.id))
    assert last is not None
    return last


def bank_key(row: AnyRow, p: int) -> str:
    """The log author of a time-bank card played by player ``p`` of the hand."""
    return f"bank:{row.players[p].get('player_id')}"


def cards_played(row: AnyRow, who: str, setup: dict[str, Any], since: datetime | None = None
                  ) -> int:
    """The time-bank cards this player played in the level (or day) of this hand, or in
    this hand since ``since``."""
    query = (select(HandLogEntry.at, HandLogEntry.hand_id, DealerHand.level)
             .join(DealerHand, DealerHand.id == HandLogEntry.hand_id)
             .where(HandLogEntry.who == who, DealerHand.tournament_id == row.tournament_id))
    count = 0
    level = (row.level or {}).get("index")
    for at, hand_id, hand_level in db.session.execute(query):
        if since is not None:
            count += hand_id == row.id and at >= since
        elif setup.get("per") == "day":
            count += at.date() == utcnow().date()
        else:
            count += (hand_level or {}).get("index") == level
    return count


def clock_paused(row: AnyRow, started: datetime) -> tuple[bool, datetime]:
    """Whether the tournament clock stands still (it ran before and is stopped: the shot
    clock stands still with it), and ``started`` (his turn's start, unchanged: the time
    the clock stood still is counted by ``pauses``)."""
    found = db.session.execute(select(
        Tournament.status, Tournament.level_index, Tournament.started_at,
        Tournament.elapsed_before, Tournament.running, Tournament.clock_started)
        .where(Tournament.id == row.tournament_id)).first()
    if found is None:
        return False, started
    status, index, resumed, before, running, ever = found
    state = ClockState(index or 0, resumed, before or 0.0, bool(running))
    return not running and Tournament.was_started(status, state, ever), started


_PAUSED = audit.SENTENCES["clock paused"][1]
_RUN = {audit.SENTENCES["clock resumed"][1], audit.SENTENCES["clock started"][1]}


def pauses(row: AnyRow, started: datetime, *, paused_now: bool) -> list[tuple[datetime, datetime | None]]:
    """When his time stood still since ``started``: the tournament clock's pauses (the
    clock service's own lines of the log: "Clock paused" to "Clock resumed" or "Clock
    started", a pause going on when his turn began counted from then, one going on now
    without an end) and his tablet's time offline (``offline``)."""
    lines = db.session.execute(
        select(AuditEntry.at, AuditEntry.message)
        .where(AuditEntry.kind == "clock", AuditEntry.at >= started,
               AuditEntry.message.in_([_PAUSED, *_RUN]),
               AuditEntry.details["tournament_id"].as_integer() == row.tournament_id)
        .order_by(AuditEntry.at)).all()
    found: list[tuple[datetime, datetime | None]] = []
    since: datetime | None = None
    for i, (at, message) in enumerate(lines):
        if message == _PAUSED:
            since = at if since is None else since
        elif since is not None or (i == 0 and message == audit.SENTENCES["clock resumed"][1]):
            found.append((since or started, at))
            since = None
    if since is not None or (paused_now and not lines):
        found.append((since or started, None))
    return found + offline(row, started)


def offline(row: AnyRow, started: datetime) -> list[tuple[datetime, datetime | None]]:
    """The times the table's tablet said it was offline during this turn (``positions``'
    ``shot_clock_offline``: [from, to] in ISO UTC)."""
    spans: list[tuple[datetime, datetime | None]] = []
    for span in (row.positions or {}).get("shot_clock_offline") or []:
        try:
            begin, end = _utc(span[0]), _utc(span[1])
        except (TypeError, ValueError, IndexError):
            continue
        if end > started:
            spans.append((begin, end))
    return spans


def went_offline(row: AnyRow, started: datetime, seconds: int, now: datetime) -> int:
    """The table's tablet is back after ``seconds`` without the server: that time (up to
    the moment the action reached the player: no more than his turn) is kept in the
    hand's ``positions`` and stands still for his shot clock.  Returns the seconds given."""
    begin = max(started, now - timedelta(seconds=seconds))
    positions = dict(row.positions or {})
    spans = [span for span in positions.get("shot_clock_offline") or [] if isinstance(span, list)]
    positions["shot_clock_offline"] = [*spans, [_iso(begin), _iso(now)]][-20:]
    row.positions = positions
    return max(0, round((now - begin).total_seconds()))


def _utc(text: Any) -> datetime:
    moment = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    if moment.tzinfo is None:
        raise ValueError(text)
    return moment


def turn(row: AnyRow, hand: Hand, setup: dict[str, Any], started: datetime,
         now: datetime | None = None) -> S.TurnClock | None:
    """The clock of the player to act as of ``now``: his time-bank cards of this turn
    counted, and the time it stood still (``pauses``) not counted against him."""
    p = hand.to_act
    if p is None or hand.finished:
        return None
    now = now or utcnow()
    used = cards_played(row, bank_key(row, p), setup, since=started)
    stood = S.paused_seconds(started, max(now, started),
                             pauses(row, started, paused_now=clock_paused(row, started)[0]))
    return S.turn_clock(p, started, int(setup["seconds"]), cards_used=used, paused=stood)


def state(row: AnyRow, hand: Hand, started: datetime | None) -> dict[str, Any] | None:
    """The hand JSON's ``shot_clock``: whose time runs, when it started and ends, the
    warning, and his time-bank cards left; None when the house has no shot clock or
    nobody is to act."""
    setup = setup_of(row)
    if setup is None or hand.to_act is None or hand.finished or row.status != "playing":
        return None
    began = started or turn_started(row)
    now = utcnow()
    clock = turn(row, hand, setup, began, now)
    if clock is None:
        return None
    paused = clock_paused(row, began)[0]
    left = int(setup.get("cards") or 0) - cards_played(row, bank_key(row, clock.player), setup)
    return {"seat": int(row.players[clock.player]["seat"]), "started_at": _iso(clock.started_at),
            "ends_at": _iso(clock.ends_at), "seconds": clock.seconds, "warn_seconds": S.WARN_SECONDS,
            "bank_seconds": S.TIME_BANK_SECONDS, "cards_left": max(0, left), "expiry": setup["expiry"],
            "now": _iso(now), "paused": paused}


def _iso(at: datetime) -> str:
    return at.isoformat().replace("+00:00", "Z")


def time_used(row: DealerHand) -> list[dict[str, Any]]:
    """Seconds each player took to act in the hand (from the moment the action reached him
    to his action), in seat order: ``[{"seat", "name", "seconds"}]``."""
    return times_used([row])[row.id]


def times_used(rows: list[DealerHand]) -> dict[int, list[dict[str, Any]]]:
    """``time_used`` of each hand of ``rows``, their events read in one query."""
    by_hand: dict[int, list[tuple[Any, datetime]]] = {row.id: [] for row in rows}
    if rows:
        for hand_id, raw, at in db.session.execute(
                select(HandEvent.hand_id, HandEvent.event, HandEvent.created_at).where(
                    HandEvent.hand_id.in_(list(by_hand)), HandEvent.undone.is_(False))
                .order_by(HandEvent.hand_id, HandEvent.seq)):
            by_hand[hand_id].append((raw, at))
    return {row.id: _used(row, by_hand[row.id]) for row in rows}


def _used(row: DealerHand, events: list[tuple[Any, datetime]]) -> list[dict[str, Any]]:
    hand = Hand.start(HandConfig.from_json(row.config))
    reached = row.started_at
    turns = []
    for raw, at in events:
        event = event_from_json(raw)
        if isinstance(event, Action) and hand.to_act == event.player:
            turns.append((event.player, reached, at))
        try:
            hand = hand.apply(event)
        except RuleViolation:
            break
        reached = at
    used = S.time_used(turns)
    players = row.players
    return [{"seat": int(players[p]["seat"]), "name": players[p].get("name"), "seconds": round(used[p])}
            for p in sorted(used, key=lambda p: int(players[p]["seat"]))]
