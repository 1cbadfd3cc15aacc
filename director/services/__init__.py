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

T = TypeVar("T")
P = ParamSpec("P")


class Invalid(ValueError):
    """The input names fields that are wrong: ``errors`` maps field -> sentence."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = dict(errors)
        super().__init__("; ".join(f"{field}: {message}" for field, message in self.errors.items()))


class NotFound(LookupError):
    """No such row."""


def app_key() -> str:
    """Which app this request belongs to, for a process-wide cache: two apps (the
    tests make one per test) must never share entries.  A database URL alone is not
    enough (PostgreSQL schemas share one URL), so each app object gets its own key."""
    from flask import current_app  # noqa: PLC0415

    key = current_app.extensions.get("director_cache_key")
    if key is None:
        key = current_app.extensions["director_cache_key"] = uuid.uuid4().hex
    return str(key)


RETRIES = 30  # a busy room: every tablet and the director racing on one row


def retry_on_conflict(work: Callable[[], T]) -> T:
    """Run one unit of work (load, change, commit), again if another writer won.

    The ``version`` column of a row is an optimistic lock: a commit that
    would overwrite a newer version raises ``StaleDataError``; the work is
    then rolled back and redone on fresh rows.
    """
    from sqlalchemy.orm.exc import StaleDataError  # noqa: PLC0415

    from director.db import db  # noqa: PLC0415

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
        from flask_babel import gettext  # noqa: PLC0415
        from sqlalchemy.exc import IntegrityError  # noqa: PLC0415
        from sqlalchemy.orm.exc import StaleDataError  # noqa: PLC0415

        from director.db import db  # noqa: PLC0415

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
