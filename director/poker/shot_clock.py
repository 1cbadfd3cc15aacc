"""The shot clock: a time per action the hand itself runs (a house rule; TDA is silent, so
the default is off), with time-bank cards as at televised events.

When the action reaches a player his time starts; the server records that moment (the
write that gave him the action) and the engine is given it, and ``now``: it reads no
clock.  Each time-bank card he plays adds ``TIME_BANK_SECONDS``.  At ``WARN_SECONDS`` left
the table is warned.  When his time has run out (a tie goes to the player, as TDA 29 does
for a called clock) the house rule is applied: his hand is dead, or he checks if he can
and folds if he cannot.

>>> from datetime import UTC, datetime, timedelta
>>> start = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
>>> turn = turn_clock(2, start, 30, cards_used=1)
>>> turn.ends_at - start
datetime.timedelta(seconds=60)
>>> turn.expired(start + timedelta(seconds=60)), turn.expired(start + timedelta(seconds=61))
(False, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from director.poker.errors import RuleViolation
from director.poker.events import Action, ActionKind, CheckByClock, Event, Kill

SHOT_CLOCK_CHOICES = ("off", "30", "45", "60")
EXPIRY_CHOICES = ("dead", "check-fold")
TIME_BANK_CARD_CHOICES = ("0", "1", "2", "3", "4")
TIME_BANK_PER_CHOICES = ("level", "day")
TIME_BANK_SECONDS = 30
WARN_SECONDS = 10
SHOT_CLOCK_KILL = "shot clock"


def _aware(*times: datetime) -> None:
    if any(t.tzinfo is None for t in times):
        raise RuleViolation("Times must be timezone-aware (UTC)")


@dataclass(frozen=True, slots=True)
class TurnClock:
    """One player's time to act: from ``started_at`` (the action reached him) for
    ``seconds``, plus a time-bank card's ``TIME_BANK_SECONDS`` per card he played on this
    turn, plus the time the tournament clock stood still (``paused``)."""

    player: int
    started_at: datetime
    seconds: int
    cards_used: int = 0
    paused: float = 0.0

    @property
    def ends_at(self) -> datetime:
        return self.started_at + timedelta(
            seconds=self.seconds + self.cards_used * TIME_BANK_SECONDS + self.paused)

    def left(self, now: datetime) -> int:
        """Whole seconds left (0 once it has run out)."""
        _aware(now, self.started_at)
        return max(0, math.ceil((self.ends_at - now).total_seconds()))

    def warning(self, now: datetime) -> bool:
        """The last ``WARN_SECONDS``: the table is warned."""
        return 0 < self.left(now) <= WARN_SECONDS

    def expired(self, now: datetime) -> bool:
        """Run out; exactly at the end he still has time (the tie goes to the player)."""
        _aware(now, self.started_at)
        return now > self.ends_at


def turn_clock(player: int, started_at: datetime, seconds: int, *, cards_used: int = 0,
               paused: float = 0.0) -> TurnClock:
    """The clock of ``player``, whose turn began at ``started_at`` (timezone-aware UTC)."""
    _aware(started_at)
    if seconds <= 0:
        raise RuleViolation("The shot clock is off: there is no time per action")
    if cards_used < 0 or paused < 0:
        raise RuleViolation("Time-bank cards and pauses cannot be negative")
    return TurnClock(player, started_at, seconds, cards_used, paused)


def paused_seconds(started: datetime, now: datetime,
                   pauses: Sequence[tuple[datetime, datetime | None]]) -> float:
    """Seconds of his turn (``started`` to ``now``) during which his time stood still:
    the tournament clock paused, or his table's tablet offline.  Each pause is (from, to),
    ``to`` None while it lasts; pauses that overlap are counted once, and only the part
    within his turn counts.

    >>> from datetime import UTC, datetime, timedelta
    >>> t = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
    >>> s = lambda n: t + timedelta(seconds=n)
    >>> paused_seconds(t, s(80), [(s(10), s(70))]), paused_seconds(t, s(80), [(s(-9), s(5)), (s(60), None)])
    (60.0, 25.0)
    """
    _aware(started, now)
    spans = []
    for begin, end in pauses:
        end = now if end is None else end
        _aware(begin, end)
        begin, end = max(begin, started), min(end, now)
        if end > begin:
            spans.append((begin, end))
    total, reach = 0.0, started
    for begin, end in sorted(spans):
        begin = max(begin, reach)
        if end > begin:
            total += (end - begin).total_seconds()
            reach = end
    return total


def verify_time_bank(cards_left: int, *, player: int, seats: Sequence[int] | None = None) -> None:
    """A time-bank card is played only by a player who has one left (house rule: so many
    cards per player per level or per day)."""
    if cards_left <= 0:
        seat = seats[player] if seats else player + 1
        raise RuleViolation("Seat {seat} has no time-bank card left", seat=seat)


def expiry_event(turn: TurnClock, now: datetime, *, rule: str, can_check: bool,
                 seats: Sequence[int] | None = None, paused: bool = False) -> Event:
    """What the house rule does when ``turn`` has run out at ``now``: "dead" kills his hand
    (his chips stay in the pot); "check-fold" checks if he may check, else folds.  Refused
    while he has time left, and while the tournament clock is paused (the shot clock stands
    still with it; when play resumes he has the time he had left: ``paused_seconds``).

    >>> from datetime import UTC, datetime, timedelta
    >>> start = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
    >>> expiry_event(turn_clock(1, start, 30), start + timedelta(seconds=31), rule="dead",
    ...              can_check=True)
    Kill(player=1, reason='shot clock')
    """
    if rule not in EXPIRY_CHOICES:
        raise RuleViolation("The shot clock's rule is one of {choices}, not {rule}",
                            choices=", ".join(EXPIRY_CHOICES), rule=rule)
    if paused:
        raise RuleViolation("The tournament clock is paused: the shot clock stands still")
    if not turn.expired(now):
        raise RuleViolation("Seat {seat} still has {left} seconds to act",
                            seat=seats[turn.player] if seats else turn.player + 1, left=turn.left(now))
    if rule == "dead":
        return Kill(turn.player, SHOT_CLOCK_KILL)
    if can_check:
        return CheckByClock(turn.player)
    return Action(turn.player, ActionKind.FOLD)


def time_used(turns: Sequence[tuple[int, datetime, datetime]]) -> dict[int, float]:
    """Seconds each player took, summed over his turns (player, the action reached him,
    he acted).

    >>> from datetime import UTC, datetime, timedelta
    >>> t = datetime(2026, 12, 3, 20, 0, tzinfo=UTC)
    >>> time_used([(0, t, t + timedelta(seconds=4)), (1, t, t + timedelta(seconds=9)),
    ...            (0, t, t + timedelta(seconds=2))])
    {0: 6.0, 1: 9.0}
    """
    used: dict[int, float] = {}
    for player, reached, acted in turns:
        _aware(reached, acted)
        used[player] = used.get(player, 0.0) + max(0.0, (acted - reached).total_seconds())
    return used
