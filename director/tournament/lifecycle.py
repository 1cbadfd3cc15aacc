"""An event's life: registering -> running -> finished, or cancelled.

* **registering**: created, the clock not started yet;
* **running**: the clock has been started;
* **finished**: one player is left (the last elimination crowned a winner)
  once late registration is closed, or a saved deal shared out all the
  money left;
* **cancelled**: the director called the event off.

A finished or cancelled event is frozen: its clock stays paused at the level
it reached, and the desk, the money settings, deals and seating refuse every
change with the reason ("The event is finished: reopen it to change it").
Only the director's explicit *reopen* brings it back (to running, or to
registering if the clock never started).  Paying the prizes already won is
not a change to the event: it stays allowed once it is finished.

The clock's first start stores ``running`` (``services.clock``): time added back
to a paused first level shows no time run, and the event has started all the same.
A stored ``registering`` whose clock shows it has run reads as ``running`` (events
created before the status existed, and clocks started by any path).

>>> status_of("registering", started=True)
<Status.RUNNING: 'running'>
>>> verify_open(Status.FINISHED)
Traceback (most recent call last):
  ...
director.tournament.lifecycle.EventClosed: The event is finished: reopen it to change it
>>> reopen(Status.FINISHED, started=True)
<Status.RUNNING: 'running'>
"""

from __future__ import annotations

from enum import StrEnum

from director.poker.errors import N_, RuleViolation

__all__ = ["EventClosed", "Status", "can_change", "cancel", "ends_with_one_player_left", "finish",
           "reopen", "status_of", "verify_open"]


class Status(StrEnum):
    REGISTERING = "registering"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


CLOSED = frozenset({Status.FINISHED, Status.CANCELLED})

REFUSALS = {
    Status.FINISHED: N_("The event is finished: reopen it to change it"),
    Status.CANCELLED: N_("The event is cancelled: reopen it to change it"),
}


class EventClosed(RuleViolation):
    """A change to a finished or cancelled event."""


def status_of(stored: str | None, *, started: bool) -> Status:
    """The status as the screens show it: a stored one, or registering/running by the clock."""
    try:
        status = Status(stored or Status.REGISTERING)
    except ValueError:
        status = Status.REGISTERING
    if status in CLOSED:
        return status
    return Status.RUNNING if started else Status.REGISTERING


def can_change(status: Status) -> bool:
    """May the event's registration, money, seating or clock change now?"""
    return status not in CLOSED


def verify_open(status: Status) -> None:
    """Raise ``EventClosed`` with the reason when the event may not change."""
    if status in CLOSED:
        raise EventClosed(REFUSALS[status])


def finish(status: Status) -> Status:
    """One player left, or a deal shared out everything: the event is finished.

    Finishing a finished event changes nothing; a cancelled one stays cancelled.

    >>> finish(Status.RUNNING)
    <Status.FINISHED: 'finished'>
    """
    return status if status is Status.CANCELLED else Status.FINISHED


def ends_with_one_player_left(*, late_registration_open: bool) -> bool:
    """Does the last elimination, leaving one player, finish the event?

    Not while late registration is still open: more entries may come, so the
    field is not final yet (the player left is crowned by the seating, and the
    event goes on).  House policy, written down here once.

    >>> ends_with_one_player_left(late_registration_open=False)
    True
    """
    return not late_registration_open


def cancel(status: Status) -> Status:
    """The director calls the event off (a finished one must be reopened first).

    >>> cancel(Status.REGISTERING)
    <Status.CANCELLED: 'cancelled'>
    """
    verify_open(status)
    return Status.CANCELLED


def reopen(status: Status, *, started: bool) -> Status:
    """The director's explicit reopen of a finished or cancelled event.

    >>> reopen(Status.RUNNING, started=True)
    Traceback (most recent call last):
      ...
    director.poker.errors.RuleViolation: The event is not finished: there is nothing to reopen
    """
    if status not in CLOSED:
        raise RuleViolation(N_("The event is not finished: there is nothing to reopen"))
    return Status.RUNNING if started else Status.REGISTERING
