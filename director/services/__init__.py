"""Services: one unit of work each.

A service loads rows, asks the pure engine (``director.tournament``,
``director.poker``), writes the result, commits, and then publishes an event.
Views call exactly one service and never commit.  Services raise
``Invalid`` (with ``errors``: field -> sentence) or ``NotFound``; the views turn
them into 400 and 404.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Invalid(ValueError):
    """The input names fields that are wrong: ``errors`` maps field -> sentence."""

    def __init__(self, errors: dict[str, str]) -> None:
        self.errors = dict(errors)
        super().__init__("; ".join(f"{field}: {message}" for field, message in self.errors.items()))


class NotFound(LookupError):
    """No such row."""


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
