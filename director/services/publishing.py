"""After the commit (issue 27): the one place a change is told.

``dispatch`` is the unit of work's dispatcher (``services.uow``), installed by
the app factory.  For what a committed transaction recorded, in this order:

1. the log lines, in the director's words (``audit.write_change``: on the request's
   own line, written before the answer);
2. the caches to forget (``uow.after_commit``);
3. the level-end jobs to move (``scheduler.reschedule`` to the clock's next change);
4. each changed event's screens: the seating screens' figures and the clock state,
   each read once (``read_model.refresh``), then told together for every screen of
   every process (one write to a screen, one batch of the change feed);
5. the events a service computed itself (the tablets' hand state).

A failure here never undoes the commit: it is logged and the rest goes on (the
live screens' watcher catches up within a second).
"""

from __future__ import annotations

import logging

from director.db import db, utcnow
from director.models import Tournament
from director.services import audit, dealer, read_model, scheduler, uow
from director.services import clock as clock_service
from director.services import seating as seating_service
from director.services.events import Told, events

logger = logging.getLogger(__name__)


def dispatch(changes: uow.Changes) -> None:
    # Before any step reads an event: a read begun earlier is not kept (read_model.changed).
    began = {tournament_id: read_model.changed(tournament_id)
             for tournament_id, screens in changes.screens.items() if screens.clock}
    for line in changes.log:
        _safely(audit.write_change, line)
    for forget in changes.after:
        _safely(forget)
    for tournament_id in changes.reschedule:
        _safely(_reschedule, tournament_id)
    for tournament_id, screens in changes.screens.items():
        _safely(_tell_screens, tournament_id, screens, began.get(tournament_id))
    broker = events()
    for made in changes.events:
        if not made.name:                       # uow.notify: the other processes only
            _safely(broker.notify, made.tournament_id, made.kind or "", made.data)
            continue
        _safely(broker.publish, made.tournament_id, made.name, made.data, made.version,
                kind=made.kind)


def _reschedule(tournament_id: int) -> None:
    tournament = db.session.get(Tournament, tournament_id)
    if tournament is None:                                    # deleted
        read_model.forget(tournament_id)
        dealer.forget_cached_hands()       # its hand and table ids may be given again
    when = None if tournament is None else clock_service.next_change(tournament, utcnow())
    scheduler.reschedule(tournament_id, when)


def _tell_screens(tournament_id: int, screens: uow.Screens,
                  began: read_model.Began | None = None) -> None:
    """The seating screens' figures and the clock state, each read once, then told
    together."""
    if db.session.get(Tournament, tournament_id) is None:      # deleted
        read_model.forget(tournament_id)
        return
    broker = events()
    kind = screens.kinds[0] if screens.kinds else "seating"
    seating = None
    if any(k != "clock" for k in screens.kinds):
        seating = {"tournament_id": tournament_id, **seating_service.field_stats(tournament_id),
                   "seats_changed": seats_changed(screens)}
    state = read_model.refresh(tournament_id, began) if screens.clock else None
    # Both read first, then told together: each screen here gets them in one write, the
    # other processes in one batch, and no screen is written to while this thread still
    # reads the clock.
    told: list[Told] = []
    if seating is not None:
        told.append(("seating", seating, None))
    if state is not None:
        told.append(("clock", state, state["version"]))
    if told:
        broker.publish_all(tournament_id, told, kind=kind)
    for other in screens.kinds[1:]:     # the other processes' handlers of each kind hear it
        broker.notify(tournament_id, other, {})


def seats_changed(screens: uow.Screens) -> bool:
    """Whether a change may have moved someone in or out of a seat: all but a hand that
    finished and busted nobody (its chips moved, every player kept his seat).  The
    projected draw reads it: at 300 tables a hand finishes every second or so, and
    the draw loaded again for each never got past its first page."""
    return not (screens.kinds == ["hands"] and not screens.clock)


def _safely(step: object, *args: object, **kwargs: object) -> None:
    try:
        step(*args, **kwargs)  # type: ignore[operator]
    except Exception:  # noqa: BLE001 - committed: a screen or a job must not fail the change
        logger.exception("after a commit: %s failed", getattr(step, "__name__", step))
