"""Services: one unit of work each.

A service loads rows, asks the pure engine (``director.tournament``,
``director.poker``), writes the result, records what it means beyond its rows on
the unit of work (``uow``: the log lines, the screens, the clock's job) and
commits once with ``uow.commit``; after the commit one dispatcher
(``publishing``) tells everything.  The modules are layered (``.importlinter``,
contract *services*).  Views call exactly one service and never commit.  Services raise
``Invalid`` (with ``errors``: field -> sentence) or ``NotFound``; the views turn
them into 400 and 404.
"""

from __future__ import annotations

import functools
import random
import time
import uuid
from collections.abc import Callable, Mapping
from typing import ParamSpec, TypeVar

from flask import current_app
from flask_babel import gettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import ObjectDeletedError, StaleDataError

from director.db import db
from director.errors import Invalid, NotFound
from director.models import Tournament

__all__ = ["Invalid", "NotFound", "all_or_nothing", "app_key", "deleted_event", "get_tournament",
           "retry_on_conflict"]

T = TypeVar("T")
P = ParamSpec("P")


def app_key() -> str:
    """Which app this request belongs to, for a process-wide cache: two apps (the
    tests make one per test) must never share entries.  A database URL alone is not
    enough (PostgreSQL schemas share one URL), so each app object gets its own key."""
    key = current_app.extensions.get("director_cache_key")
    if key is None:     # setdefault: two requests that ask first at once get the same key
        key = current_app.extensions.setdefault("director_cache_key", uuid.uuid4().hex)
    return str(key)


DB_ID_MAX = 2**63 - 1


def get_tournament(tournament_id: int) -> Tournament:
    """The tournament row, or ``NotFound`` (every service loads its event this way)."""
    tournament = None
    if 0 < tournament_id <= DB_ID_MAX:
        try:
            tournament = db.session.get(Tournament, tournament_id)
        except ObjectDeletedError:          # deleted since this session read it
            db.session.rollback()
            raise deleted_event(tournament_id) from None
    if tournament is None:
        raise NotFound(gettext("There is no tournament %(id)s", id=tournament_id))
    return tournament


def page_of(total: int, per_page: int, asked: int) -> tuple[int, int]:
    """``(pages, page)``: ``total`` lines in pages of ``per_page`` (one page at least),
    and the page asked for kept within them (a stale link past the last: the last).

    >>> page_of(250, 100, 9), page_of(0, 100, 0)
    ((3, 3), (1, 1))
    """
    pages = max(1, -(-total // per_page))
    return pages, min(max(1, asked), pages)


def deleted_event(tournament_id: int) -> NotFound:
    """The refusal of a write that finds its event deleted under it (issue 26)."""
    return NotFound(gettext("Event %(id)s was deleted: nothing was changed", id=tournament_id))


def _event_gone(args: tuple[object, ...]) -> NotFound | None:
    """After a refused write of an event's service (its first argument the event's id):
    the event's refusal if the event was deleted meanwhile, a truer answer than the
    missing settings or the lost race the service ran into."""
    tournament_id = args[0] if args else None
    if isinstance(tournament_id, bool) or not isinstance(tournament_id, int) \
            or not 0 < tournament_id <= DB_ID_MAX:
        return None
    found = db.session.scalar(select(Tournament.id).where(Tournament.id == tournament_id))
    db.session.rollback()
    return deleted_event(tournament_id) if found is None else None


RETRIES = 30  # a busy room: every tablet and the director racing on one row


def retry_on_conflict(work: Callable[[], T], *,
                      lost: tuple[type[Exception], ...] = (StaleDataError,),
                      retries: int = RETRIES,
                      twin: Callable[[], bool] | None = None) -> T:
    """Run one unit of work (load, change, commit), again if another writer won.

    The ``version`` column of a row is an optimistic lock: a commit that
    would overwrite a newer version raises ``StaleDataError``; the work is
    then rolled back and redone on fresh rows.  ``lost``: the errors that mean
    a lost race for this work; ``retries``: how many tries in all.

    ``twin``: for a keyed request, whether a copy of it (a double click, a retry with
    the same key) has committed meanwhile, asked after a refusal with the session rolled
    back (so it reads what is committed now).  A copy that read before its twin
    committed is refused by what the twin did (a second rebuy finds the stack the first
    one made); when ``twin()`` says so, the work is done once more, finds what its key
    recorded and answers as the first (or, sent for another change, refuses the key).
    """
    try:
        return _retried(work, lost, retries)
    except Invalid:
        if twin is None:
            raise
        db.session.rollback()
        if not twin():
            raise
        return _retried(work, lost, retries)


def _retried(work: Callable[[], T], lost: tuple[type[Exception], ...], retries: int) -> T:
    for attempt in range(retries):
        try:
            return work()
        except lost:
            db.session.rollback()
            if attempt == retries - 1:
                raise
            # Let the winner's commit land before trying again; the jitter keeps the
            # losers from colliding with each other in lock-step.
            time.sleep(random.uniform(0, 0.002) * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover


def all_or_nothing(conflict: Mapping[str, str], *,
                   event: bool = False) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """A decorator for writing services: ``Invalid`` rolls the session back, so bad
    input changes nothing, and a lost race (``StaleDataError``/``IntegrityError``)
    rolls back and becomes ``Invalid(conflict)``, its sentences translated.

    ``event``: the services of one event (the first argument is its id): a refusal
    whose event was deleted meanwhile is that event's ``NotFound`` instead."""

    def decorate(service: Callable[P, T]) -> Callable[P, T]:
        @functools.wraps(service)
        def run(*args: P.args, **kwargs: P.kwargs) -> T:
            try:
                return service(*args, **kwargs)
            except Invalid:
                db.session.rollback()
                gone = _event_gone(args) if event else None
                if gone is not None:
                    raise gone from None
                raise
            except (StaleDataError, IntegrityError, ObjectDeletedError):
                db.session.rollback()
                gone = _event_gone(args) if event else None
                if gone is not None:
                    raise gone from None
                raise Invalid({k: gettext(v) for k, v in conflict.items()}) from None

        return run

    return decorate
