"""A director's write sent again is applied once (``models.requests``).

A service that takes a request's ``idempotency_key`` asks :func:`applied` (or
:func:`verify_new`, which raises :class:`Applied`) before it changes anything
(the request was applied already: it changes nothing, and the event is answered
as it is now) and :func:`remember` in the change's own transaction.  Two copies of
one request racing each other both find no key; the second to commit breaks the
unique key (or the event's version) and is redone by ``retry_on_conflict`` with
:data:`LOST`, and then finds the key; or, the unit of work turning the lost race
into a refusal, :func:`twin_answered` finds it after the refusal.

A key is kept with a digest of the request that brought it (:func:`request_digest`:
its route and content, but the key, the form's token and its way back).  The same key
with another request (a page's form kept from before by the browser's back button and
filled in again, a client reusing its key) is refused, naming ``idempotency_key``:
answered as the first, the other change would be lost unseen.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
from collections.abc import Callable
from typing import Any, NoReturn, ParamSpec, TypeVar

from flask import has_request_context, request
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from director.db import Base, db
from director.errors import Invalid
from director.models.requests import DirectorRequest, MadeRequest
from director.schemas import FORM_TYPES, IDEMPOTENCY_KEY, Schema

BODY = Schema({"idempotency_key": IDEMPOTENCY_KEY})
"""The body of a write that takes nothing but its key (a clock control, a cancel)."""

LOST = (StaleDataError, IntegrityError)
"""The errors that mean another copy of the request won (``retry_on_conflict(lost=)``)."""


class Applied(Exception):  # noqa: N818 - a state, not a failure
    """The request of this key was applied already: nothing more was done (the page
    says what was done, ``action`` as :func:`remember` kept it; the API answers the
    state as it is now)."""

    def __init__(self, key: str, action: str = "") -> None:
        super().__init__(key)
        self.key, self.action = key, action


def applied(tournament_id: int, key: str | None) -> bool:
    """Was the request of ``key`` applied to this event already?"""
    return applied_as(tournament_id, key) is not None


def applied_as(tournament_id: int, key: str | None) -> str | None:
    """The action the request of ``key`` was applied as (``remember``'s), or None.  A
    key kept with another request than this one is refused (``Invalid``)."""
    if key is None:
        return None
    row = db.session.execute(select(DirectorRequest.action, DirectorRequest.digest).where(
        DirectorRequest.tournament_id == tournament_id,
        DirectorRequest.idempotency_key == key)).first()
    if row is None:
        return None
    _same_request(row.digest)
    return str(row.action or "")


def _same_request(kept: str | None) -> None:
    """Refuse a key kept with another request than this one (``Invalid``)."""
    digest = request_digest()
    if kept is not None and digest is not None and kept != digest:
        _another_request()


def _another_request() -> NoReturn:
    raise Invalid({"idempotency_key": _(
        "This form was sent before, for another change: reload the page and send it again")})


M = TypeVar("M", bound=Base)


def made_once(model: type[M], key: str | None,
              make: Callable[[str | None], M]) -> tuple[M, bool]:
    """``make(key)``, a request that makes a row of ``model`` outside any event (an
    event, a league, a player's record), once for its key: sent again (a double click
    on *Create*, a script's retry after a lost answer), the row the first one made,
    and True.  ``make`` keeps the key with what it made in its
    own transaction (:func:`remember_made`), so that a crash keeps both or neither; the
    key is unique, so of two copies racing each other (in any process) the second to
    commit breaks it (or its own unit of work's lock: a refusal), and answers what the
    first made.  The same key with another request is refused (``Invalid``, naming
    ``idempotency_key``)."""
    if key is None:
        return make(None), False
    found = _made(model, key)
    if found is not None:
        return found, True
    try:
        return make(key), False
    except (IntegrityError, Invalid):   # a unit of work says a lost race as a conflict
        db.session.rollback()
        found = _made(model, key)
        if found is None:
            raise
        return found, True


def _made(model: type[M], key: str) -> M | None:
    row = db.session.scalars(select(MadeRequest).where(MadeRequest.idempotency_key == key)).first()
    if row is None:
        return None
    if row.kind != model.__tablename__:
        _another_request()
    _same_request(row.digest)
    found = db.session.get(model, row.made_id)
    if found is None:              # made, then deleted: the request makes it again
        db.session.delete(row)
        db.session.flush()
    return found


def remember_made(made: Any, key: str | None) -> None:
    """Keep ``key`` with the row its request made (flushed: it has its id), in the open
    transaction (nothing without a key)."""
    if key is not None:
        db.session.add(MadeRequest(idempotency_key=key, kind=made.__tablename__,
                                   made_id=made.id, digest=request_digest()))


LEFT_OUT = frozenset({"idempotency_key", "request_key", "csrf_token", "back"})
"""A request's fields that are not what it asks for: its key, the form's token, the
page to go back to."""


def request_digest() -> str | None:
    """The request's route and content, but ``LEFT_OUT`` (a form's fields, or the JSON
    body as parsed, keys in order): equal for a request sent again, whatever its
    spacing; None outside a request or for a body that is not JSON."""
    if not has_request_context():
        return None
    content: Any
    if request.mimetype in FORM_TYPES:
        content = sorted((k, v) for k, v in request.form.items(multi=True) if k not in LEFT_OUT)
    else:
        try:        # as the route's body parsed it (kept by the request: not parsed again)
            content = request.get_json(force=True, silent=True)
        except RecursionError:
            return None
        if isinstance(content, dict):
            content = {k: v for k, v in content.items() if k not in LEFT_OUT}
    query = sorted((k, v) for k, v in request.args.items(multi=True) if k not in LEFT_OUT)
    text = json.dumps([request.method, request.path, query, content], sort_keys=True,
                      ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def verify_new(tournament_id: int, key: str | None) -> None:
    """Raise :class:`Applied` (the transaction rolled back) if ``key`` was applied.
    Call it once the event's lock is taken, so that a copy waiting for the lock
    finds the key its twin committed."""
    action = applied_as(tournament_id, key)
    if action is not None:
        db.session.rollback()
        raise Applied(str(key), action)


def remember(tournament_id: int, key: str | None, action: str) -> None:
    """Keep ``key`` in the open transaction (nothing without a key)."""
    if key is not None:
        db.session.add(DirectorRequest(tournament_id=tournament_id, idempotency_key=key,
                                       action=action[:40], digest=request_digest()))


P = ParamSpec("P")
T = TypeVar("T")


def twin_answered(service: Callable[P, T]) -> Callable[P, T]:
    """A keyed write (its ``tournament_id`` and ``idempotency_key`` arguments) refused
    because a copy of it came first is :class:`Applied`, as if it had come second.

    Copies racing each other (a double click, 20 at once from a script) each read the
    event before one of them commits: the others then lose the event's optimistic lock
    ("someone else changed the seating at the same moment") or read what their twin
    did ("this plan was already confirmed").  A refusal (``Invalid``, the session
    rolled back by the unit of work below this) is looked at again: if the key is
    now applied, the request was done once, by its twin.  Put it above
    ``unit_of_work``."""
    signature = inspect.signature(service)

    @functools.wraps(service)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return service(*args, **kwargs)
        except Invalid:
            bound = signature.bind(*args, **kwargs)
            key = bound.arguments.get("idempotency_key")
            if key is not None:
                db.session.rollback()
                action = applied_as(bound.arguments["tournament_id"], key)
                if action is not None:
                    raise Applied(key, action) from None
            raise

    return run
