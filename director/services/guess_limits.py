"""Limits on guessing a secret (a login, a table's pairing code), kept in the database.

Each wrong guess is a row (``models.security.GuessFailure``) under a scope and a
key: the client's address for ``login`` and ``pairing``, the table's id for
``pairing-table``.  Every server process and every machine on one PostgreSQL
counts the same rows, so ``director serve --workers 4`` gives a guesser no more
tries than one process does.  A key with ``max_failures`` failures within
``window`` seconds is locked (``GuessLock``): for ``lock`` seconds, or until the
director resets it when ``lock`` is None (a table's pairing).

A guess is counted before it is tried (``reserve``, committed): a hundred guesses
sent at once count as a hundred, and only ``max_failures`` of them are tried.  A
right guess takes back only its own row: it never clears another key's failures
(a valid code for the guesser's own table leaves the table he is guessing, and
his address, as they were).  Clearing a key is for the one who proved it
(``clear``: the director's right password clears that client's login failures)
and for the director (``reset``).

Times are arguments (``now``): the web layer passes ``utcnow()``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from director.db import db
from director.models.security import KEY_MAX, GuessFailure, GuessLock


@dataclass(frozen=True)
class Limit:
    """``max_failures`` within ``window`` seconds lock the key for ``lock`` seconds
    (None: until reset)."""

    scope: str
    max_failures: int
    window: float
    lock: float | None


@dataclass(frozen=True)
class Lock:
    scope: str
    key: str
    locked_at: datetime
    until: datetime | None
    failures: int

    def seconds_left(self, now: datetime) -> int | None:
        """Whole seconds until it ends (at least 1), or None: until reset."""
        if self.until is None:
            return None
        return max(1, int((self.until - now).total_seconds() + 0.999))


@dataclass
class Attempt:
    """The guess being tried: its reserved rows and each key's count, itself included."""

    keys: list[tuple[Limit, str]]
    rows: list[int] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)


def _key(key: str) -> str:
    return str(key)[:KEY_MAX]


def _as_lock(row: GuessLock) -> Lock:
    return Lock(row.scope, row.key, row.locked_at, row.until, row.failures)


def lock_of(keys: list[tuple[Limit, str]], now: datetime) -> Lock | None:
    """The first of ``keys`` that is locked now (an ended lock is forgotten)."""
    for limit, key in keys:
        row = db.session.get(GuessLock, (limit.scope, _key(key)))
        if row is None:
            continue
        if row.until is not None and row.until <= now:
            db.session.delete(row)
            db.session.commit()
            continue
        return _as_lock(row)
    return None


def locks(scope: str, keys: list[str]) -> dict[str, Lock]:
    """The locks of ``keys`` in ``scope`` (for the director's page)."""
    if not keys:
        return {}
    rows = db.session.scalars(select(GuessLock).where(
        GuessLock.scope == scope, GuessLock.key.in_([_key(k) for k in keys])))
    return {row.key: _as_lock(row) for row in rows}


def reserve(keys: list[tuple[Limit, str]], now: datetime) -> Attempt:
    """Count a guess against every key before it is tried (committed), forgetting the
    failures older than each window; the counts include this guess."""
    attempt = Attempt(keys)
    for limit, key in keys:
        db.session.execute(delete(GuessFailure).where(
            GuessFailure.scope == limit.scope,
            GuessFailure.at < now - timedelta(seconds=limit.window)))
        row = GuessFailure(scope=limit.scope, key=_key(key), at=now)
        db.session.add(row)
        db.session.flush()
        attempt.rows.append(row.id)
    db.session.commit()
    for limit, key in keys:
        attempt.counts.append(int(db.session.scalar(select(func.count()).where(
            GuessFailure.scope == limit.scope, GuessFailure.key == _key(key),
            GuessFailure.at >= now - timedelta(seconds=limit.window))) or 0))
    return attempt


def over(attempt: Attempt) -> list[tuple[Limit, str]]:
    """The keys this guess went past the limit of (others guessed meanwhile): not tried."""
    return [key for key, count in zip(attempt.keys, attempt.counts, strict=True)
            if count > key[0].max_failures]


def failed(attempt: Attempt, now: datetime) -> list[Lock]:
    """The guess was wrong: its rows stay; each key at its limit is locked (its
    failures then start again from none).  Returns the locks made."""
    made = []
    for (limit, key), count in zip(attempt.keys, attempt.counts, strict=True):
        if count >= limit.max_failures:
            made.append(_lock(limit, _key(key), count, now))
    db.session.commit()
    return made


def locked_now(keys: list[tuple[Limit, str]], now: datetime) -> list[Lock]:
    """Lock ``keys`` (a guess that came past their limit)."""
    made = [_lock(limit, _key(key), limit.max_failures, now) for limit, key in keys]
    db.session.commit()
    return made


def _lock(limit: Limit, key: str, count: int, now: datetime) -> Lock:
    until = None if limit.lock is None else now + timedelta(seconds=limit.lock)
    row = db.session.get(GuessLock, (limit.scope, key))
    if row is None:
        row = GuessLock(scope=limit.scope, key=key, locked_at=now, until=until, failures=count)
        try:
            with db.session.begin_nested():
                db.session.add(row)
        except IntegrityError:     # another process locked it first: keep its lock
            row = db.session.get(GuessLock, (limit.scope, key))
            assert row is not None
    db.session.execute(delete(GuessFailure).where(
        GuessFailure.scope == limit.scope, GuessFailure.key == key))
    return _as_lock(row)


def succeeded(attempt: Attempt, clear: Sequence[tuple[Limit, str]] = ()) -> None:
    """The guess was right: its own rows go (nobody else's), and the failures of
    ``clear`` (keys this guess proved) with them."""
    if attempt.rows:
        db.session.execute(delete(GuessFailure).where(GuessFailure.id.in_(attempt.rows)))
    for limit, key in clear:
        db.session.execute(delete(GuessFailure).where(
            GuessFailure.scope == limit.scope, GuessFailure.key == _key(key)))
    db.session.commit()


def reset(scope: str, key: str, *, commit: bool = True) -> bool:
    """The director ends a lock and forgets its key's failures.  Whether it was locked."""
    found = db.session.get(GuessLock, (scope, _key(key)))
    if found is not None:
        db.session.delete(found)
    db.session.execute(delete(GuessFailure).where(
        GuessFailure.scope == scope, GuessFailure.key == _key(key)))
    if commit:
        db.session.commit()
    return found is not None
