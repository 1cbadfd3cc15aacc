"""The director's browser logins, kept in the database so that they can end.

A login makes a row with the hash of a random id; the session cookie holds the
id.  Flask's signed cookie alone cannot be taken back: a copied cookie, or the
laptop's browser left logged in, kept working for the cookie's seven days after
a logout or a password change.  Now a logout deletes its row (the copied cookie
ends with it), a password change deletes every row but the one that changed it,
and "Log out other sessions" does the same on demand.  A row older than the
session's lifetime is no longer valid and is deleted at the next login.

Requests with the director token (``Authorization: Bearer``) need no row.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, select

from director.db import db
from director.models.security import KEY_MAX, DirectorSession


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def start(now: datetime, lifetime: float, address: str | None = None) -> str:
    """A new session: returns the id for the cookie (only its hash is stored)."""
    db.session.execute(delete(DirectorSession).where(
        DirectorSession.created_at < now - timedelta(seconds=lifetime)))
    token = secrets.token_urlsafe(32)
    db.session.add(DirectorSession(token_hash=_hash(token), created_at=now,
                                   address=(address or "")[:KEY_MAX] or None))
    db.session.commit()
    return token


def valid(token: object, now: datetime, lifetime: float) -> bool:
    """Whether ``token`` (the cookie's id) is a session that has not ended."""
    if not isinstance(token, str) or not token:
        return False
    created = db.session.scalar(select(DirectorSession.created_at).where(
        DirectorSession.token_hash == _hash(token)))
    return created is not None and created >= now - timedelta(seconds=lifetime)


def end(token: object) -> None:
    """Log out this session (a copied cookie of it ends too)."""
    if isinstance(token, str) and token:
        db.session.execute(delete(DirectorSession).where(
            DirectorSession.token_hash == _hash(token)))
        db.session.commit()


def end_others(token: object) -> int:
    """End every director session but ``token``'s; returns how many ended."""
    keep = _hash(token) if isinstance(token, str) and token else ""
    ended = db.session.execute(delete(DirectorSession).where(
        DirectorSession.token_hash != keep))
    db.session.commit()
    return int(getattr(ended, "rowcount", 0) or 0)
