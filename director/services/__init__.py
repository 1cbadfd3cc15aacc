"""Services: one unit of work each.

A service loads rows, asks the pure engine (``director.tournament``,
``director.poker``), writes the result, commits, and then publishes an event.
Views call exactly one service and never commit.  Services raise
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
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from director.db import db
from director.errors import Invalid, NotFound
from director.models import Tournament

__all__ = ["Invalid", "NotFound", "all_or_nothing", "app_key", "get_tournament",
           "retry_on_conflict"]

T = TypeVar("T")
P = ParamSpec("P")


def app_key() -> str:
    """Which app this request belongs to, for a process-wide cache: two apps (the
    tests make one per test) must never share entries.  A database URL alone is not
    enough (PostgreSQL schemas share one URL), so each app object gets its own key."""
    key = current_app.extensions.get("director_cache_key")
    if key is None:
        key = current_app.extensions["director_cache_key"] = uuid.uuid4().hex
    return str(key)


DB_ID_MAX = 2**63 - 1


def get_tournament(tournament_id: int) -> Tournament:
    """The tournament row, or ``NotFound`` (every service loads its event this way)."""
    tournament = None
    if 0 < tournament_id <= DB_ID_MAX:
        tournament = db.session.get(Tournament, tournament_id)
    if tournament is None:
        raise NotFound(gettext("There is no tournament %(id)s", id=tournament_id))
    return tournament


RETRIES = 30  # a busy room: every tablet and the director racing on one row


def retry_on_conflict(work: Callable[[], T]) -> T:
    """Run one unit of work (load, change, commit), again if another writer won.

    The ``version`` column of a row is an optimistic lock: a commit that
    would overwrite a newer version raises ``StaleDataError``; the work is
    then rolled back and redone on fresh rows.
    """
    for attempt in range(RETRIES):
        try:
            return work()
        except StaleDataError:
            db.session.rollback()
            if attempt == RETRIES - 1:
                raise
            # Let the winner's commit land before trying again; the jitter keeps the
            # losers from colliding with each other in lock-step.
            time.sleep(random.uniform(0, 0.002) * (attempt + 1))
    raise AssertionError("unreachable")  # pragma: no cover


def all_or_nothing(conflict: Mapping[str, str]) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """A decorator for writing services: ``Invalid`` rolls the session back, so bad
    input changes nothing, and a lost race (``StaleDataError``/``IntegrityError``)
    rolls back and becomes ``Invalid(conflict)``, its sentences translated."""

    def decorate(service: Callable[P, T]) -> Callable[P, T]:
        @functools.wraps(service)
        def run(*args: P.args, **kwargs: P.kwargs) -> T:
            try:
                return service(*args, **kwargs)
            except Invalid:
                db.session.rollback()
                raise
            except (StaleDataError, IntegrityError):
                db.session.rollback()
                raise Invalid({k: gettext(v) for k, v in conflict.items()}) from None

        return run

    return decorate
