"""One unit of work per change (issue 27).

A service changes rows and *records* what its change means beyond them: the log
lines it says (:func:`log`), the screens it changes (:func:`screens`), the clock
job it moves (:func:`reschedule`), an event for the screens it computed itself
(:func:`event`), a cache to forget (:func:`after_commit`).  None of it happens
before the commit, and a rollback forgets it (a savepoint's rollback forgets what
was recorded inside it).  After the commit one place, the dispatcher the app
factory installs (``services.publishing.dispatch``), writes the log lines,
computes each changed event's screen state once, publishes it to the change feed
and reschedules the clock.  So a service never imports the screens, the feed or
the scheduler, and a change is told once however many services it went through.

:func:`commit` is the service's commit: the session's commit, then the dispatch.
A request dispatches whatever is left when it ends (``after_request``), before
its log lines are written and before the answer.  Something recorded while no
transaction is open (after the commit) is dispatched at once.

>>> changes = Changes()
>>> changes.screens_changed(3, "seating", clock=True)
>>> changes.screens_changed(3, "money", clock=False)
>>> changes.screens[3]
Screens(kinds=['seating', 'money'], clock=True)
>>> bool(Changes()), bool(changes)
(False, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app, has_app_context
from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session, SessionTransaction

from director.db import db

EXTENSION = "director.uow"      # app.extensions: the dispatcher
FRAMES = "director.uow.frames"  # session.info: what each open transaction recorded
DONE = "director.uow.done"      # session.info: committed, not yet dispatched
WROTE = "director.uow.wrote"    # session.info: the open transaction has flushed a write
HELD = "director.uow.held"      # session.info: its commits are savepoints of an outer one (take)
RELEASED = "director.uow.released"  # session.info: the savepoint whose release is ending


@dataclass
class Screens:
    """What changed for one event's screens: the change feed's words (``kinds``:
    clock, seating, money, hands, structure ...) and whether the projector's clock
    state changed (``clock``) or only the seating screens'."""

    kinds: list[str] = field(default_factory=list)
    clock: bool = False


@dataclass
class LogLine:
    """A change in the director's words (``audit.SENTENCES`` key and parameters)."""

    key: str
    tournament_id: int | None
    details: dict[str, Any] | None
    params: dict[str, Any]


@dataclass
class Event:
    """An event a service computed itself (the tablet's hand state)."""

    tournament_id: int
    name: str
    data: dict[str, Any]
    version: int | None = None
    kind: str | None = None


@dataclass
class Changes:
    """What one transaction recorded, in order."""

    log: list[LogLine] = field(default_factory=list)
    screens: dict[int, Screens] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    reschedule: list[int] = field(default_factory=list)
    after: list[Callable[[], None]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.log or self.screens or self.events or self.reschedule or self.after)

    def screens_changed(self, tournament_id: int, kind: str, *, clock: bool) -> None:
        screens = self.screens.setdefault(tournament_id, Screens())
        if kind not in screens.kinds:
            screens.kinds.append(kind)
        screens.clock = screens.clock or clock

    def merge(self, other: Changes) -> None:
        self.log.extend(other.log)
        for tid, screens in other.screens.items():
            for kind in screens.kinds:
                self.screens_changed(tid, kind, clock=screens.clock)
        self.events.extend(other.events)
        self.reschedule.extend(t for t in other.reschedule if t not in self.reschedule)
        self.after.extend(other.after)


Dispatcher = Callable[[Changes], None]


# ---------------------------------------------------------------- recording

def log(key: str, tournament_id: int | None, *, details: dict[str, Any] | None = None,
        **params: Any) -> None:
    """A log line in the director's words, written after the commit."""
    _record(lambda c: c.log.append(LogLine(key, tournament_id, details, params)))


def screens(tournament_id: int, kind: str = "seating", *, clock: bool = True) -> None:
    """The event's screens changed: its seating screens, and (``clock``) the clock
    state the projector shows (players left, prize pool, banners ...)."""
    _record(lambda c: c.screens_changed(tournament_id, kind, clock=clock))


def clock_moved(tournament_id: int, kind: str = "clock") -> None:
    """The event's clock changed: its screens, and the scheduler's next level end."""
    screens(tournament_id, kind, clock=True)
    reschedule(tournament_id)


def reschedule(tournament_id: int) -> None:
    """Move the event's level-end job to the clock's next change."""
    _record(lambda c: c.reschedule.append(tournament_id)
            if tournament_id not in c.reschedule else None)


def event(tournament_id: int, name: str, data: dict[str, Any], version: int | None = None,
          *, kind: str | None = None) -> None:
    """An event for the screens whose data the service computed (``events.publish``)."""
    _record(lambda c: c.events.append(Event(tournament_id, name, data, version, kind)))


def notify(tournament_id: int, kind: str, data: dict[str, Any]) -> None:
    """A change no screen shows, for the other server processes' handlers only
    (``events.notify``: a tablet paired, so they forget the table's devices)."""
    _record(lambda c: c.events.append(Event(tournament_id, "", data, None, kind)))


def after_commit(work: Callable[[], None]) -> None:
    """Run ``work`` after the commit (forget a cache); never on a rollback."""
    _record(lambda c: c.after.append(work))


def _record(add: Callable[[Changes], None]) -> None:
    session = db.session()
    if not session.in_transaction():        # recorded after its commit: out at once
        changes = Changes()
        add(changes)
        if session.info.get(HELD):          # ... once the outer transaction commits
            session.info.setdefault(DONE, []).append(changes)
            return
        _dispatch(changes)
        return
    frames = session.info.setdefault(FRAMES, [])
    if not frames:
        frames.append((None, Changes()))
    add(frames[-1][1])


# ---------------------------------------------------------------- committing

def commit() -> None:
    """The session's commit, then the dispatch of what it recorded."""
    db.session.commit()
    dispatch()


def dispatch() -> None:
    """Hand what was committed and not yet dispatched to the dispatcher."""
    if not has_app_context() or not db.session.registry.has():   # no session: nothing recorded
        return
    session = db.session()
    if session.info.get(HELD):              # told by the outer transaction's owner (take)
        return
    done: list[Changes] = session.info.pop(DONE, [])
    if session.info.get(FRAMES) and not session.info.get(WROTE) \
            and not (session.new or session.dirty or session.deleted):
        # Recorded after its commit, in a transaction that has only read since: it
        # tells of that commit (a service that commits, then reads, then records).
        done.append(_merged(session.info.pop(FRAMES)))
    if done:
        _dispatch(_combined(done))


def hold(session: Session) -> None:
    """``session``'s commits release savepoints of one outer transaction (SQLAlchemy's
    ``join_transaction_mode="create_savepoint"``: several services made one unit, the
    event file's import): what they record is kept, not dispatched, until its owner
    commits the outer transaction and dispatches it once (:func:`take`, :func:`tell`)."""
    session.info[HELD] = True


def take(session: Session) -> Changes:
    """Everything ``session`` recorded (after its outer transaction committed), merged."""
    session.info.pop(HELD, None)
    session.info.pop(WROTE, None)
    done: list[Changes] = session.info.pop(DONE, [])
    frames = session.info.pop(FRAMES, None)
    if frames:
        done.append(_merged(frames))
    return _combined([Changes(), *done])


def tell(changes: Changes) -> None:
    """Hand ``changes`` to the dispatcher (:func:`take`'s, after the outer commit)."""
    _dispatch(changes)


def _dispatch(changes: Changes) -> None:
    if not changes:
        return
    dispatcher: Dispatcher | None = current_app.extensions.get(EXTENSION)
    if dispatcher is not None:
        dispatcher(changes)


# ---------------------------------------------------------------- the session's life

def _began(session: Session, transaction: SessionTransaction) -> None:
    if transaction.nested:                   # a savepoint: its own frame
        session.info.setdefault(FRAMES, [(None, Changes())]).append((transaction, Changes()))


def _ended(session: Session, transaction: SessionTransaction) -> None:
    """A savepoint ends: released (:func:`_committed` said so), its frame joins the one
    around it; rolled back, its frame is dropped."""
    frames = session.info.get(FRAMES)
    released = session.info.pop(RELEASED, None) is transaction
    if transaction.nested and frames and frames[-1][0] is transaction and len(frames) > 1:
        _tx, changes = frames.pop()
        if released:
            frames[-1][1].merge(changes)


def _rolled_back(session: Session, previous: SessionTransaction) -> None:
    frames = session.info.get(FRAMES)
    if not frames:
        return
    if previous.nested:
        if frames[-1][0] is previous:
            frames.pop()
        return
    if previous.parent is None:              # the whole transaction: forget it all
        session.info.pop(FRAMES, None)
        session.info.pop(WROTE, None)


def _combined(changes: list[Changes]) -> Changes:
    """The first of ``changes`` with the others merged into it, in order."""
    for more in changes[1:]:
        changes[0].merge(more)
    return changes[0]


def _merged(frames: list[tuple[SessionTransaction | None, Changes]]) -> Changes:
    return _combined([changes for _tx, changes in frames])


def _committed(session: Session) -> None:
    if session.in_nested_transaction():      # a savepoint released, not the transaction
        session.info[RELEASED] = session.get_nested_transaction()
        return
    session.info.pop(WROTE, None)
    frames = session.info.pop(FRAMES, None)
    if frames:
        changes = _merged(frames)
        if changes:
            session.info.setdefault(DONE, []).append(changes)


def _flushed(session: Session, _context: object) -> None:
    session.info[WROTE] = True


_LISTENING = False


def install(app: Flask, dispatcher: Dispatcher) -> None:
    """The app factory: ``dispatcher`` runs after every commit that recorded something."""
    global _LISTENING  # noqa: PLW0603 - the session events are process-wide, listened once
    app.extensions[EXTENSION] = dispatcher
    if not _LISTENING:
        sa_event.listen(Session, "after_transaction_create", _began)
        sa_event.listen(Session, "after_transaction_end", _ended)
        sa_event.listen(Session, "after_soft_rollback", _rolled_back)
        sa_event.listen(Session, "after_commit", _committed)
        sa_event.listen(Session, "after_flush", _flushed)
        _LISTENING = True

    @app.after_request
    def _dispatch_left(response: Any) -> Any:
        dispatch()      # what a service committed without dispatching, before the log is written
        return response
