"""The seating plans on record: the one pending, the last confirmed, and the next
step the rules propose after any change (:func:`replan`)."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import select, update
from sqlalchemy.orm import defer

from director.db import db, utcnow
from director.models.seating import (
    SeatingPlanRecord,
)
from director.services.seating.layout import Kept
from director.services.seating.writes import apply_rule
from director.tournament.seating import (
    Layout,
    PlanKind,
    SeatingPlan,
    SeatingPolicy,
    TableState,
    plan_seating,
)


def pending_record(tournament_id: int) -> SeatingPlanRecord | None:
    return _newest_plan(tournament_id, "pending")


def last_confirmed_record(tournament_id: int) -> SeatingPlanRecord | None:
    return _newest_plan(tournament_id, "confirmed")


def _newest_plan(tournament_id: int, status: str) -> SeatingPlanRecord | None:
    # The layout before it is read only when it is confirmed or undone: the
    # seating page shows the plan, and at a 300-table event that layout is 1,800 seats.
    return db.session.scalars(select(SeatingPlanRecord).options(
        defer(SeatingPlanRecord.layout_before)).where(
        SeatingPlanRecord.tournament_id == tournament_id,
        SeatingPlanRecord.status == status).order_by(SeatingPlanRecord.id.desc()).limit(1)).first()


# What a plan's record keeps of the room (issue 29: each plan stored the whole room
# twice, 75 MB of a 107 MB database at 2,400 entries).  ``layout_before``: the room's
# digest (a plan proposed for another room is refused) and, once confirmed, the tables
# the plan changed as they were; ``layout_after``: the room's digest after it and the
# numbers of the tables it changed.  Undo puts those tables back.  A record of an
# earlier version (the whole room, ``{"tables": [...]}``) is read as before.

def layout_digest(layout: Layout) -> str:
    """A fingerprint of the whole room: equal digests, equal seating.

    Worked out once for each of the last few rooms (a ``Layout`` is never changed in
    place): a confirm checks the room before it, stores both rooms' and proposes the
    next step on the room after it, and every seating page and API answer checks the
    room against the last plan's (2 ms at 120 tables).  The room read again from equal
    rows is the same object (``layout.load_layout``), so its digest is kept across
    requests too."""
    return _kept_with(_digests, layout, _room_digest)


def _room_digest(layout: Layout) -> str:
    # The text of ``json.dumps(layout.to_json(), sort_keys=True, separators=(",", ":"))``,
    # made of each table's own text: a room after a change shares all but a few of its
    # tables (the same objects) with the room before, whose texts are kept.
    text = '{"tables":[' + ",".join(_kept_with(_table_texts, t, _table_text)
                                    for t in layout.tables) + "]}"
    return hashlib.sha256(text.encode()).hexdigest()


def _table_text(table: TableState) -> str:
    return json.dumps(table.to_json(), sort_keys=True, separators=(",", ":"))


T = TypeVar("T")
R = TypeVar("R")


def _kept_with(kept: Kept[int, tuple[T, R]], thing: T, make: Callable[[T], R]) -> R:
    """``make(thing)`` once for an object never changed in place, kept with it (held,
    its id is not reused while it is kept)."""
    found = kept.get(id(thing))
    if found is not None and found[0] is thing:
        return found[1]
    value = make(thing)
    kept.put(id(thing), (thing, value))
    return value


_digests: Kept[int, tuple[Layout, str]] = Kept(16)                   # the last few rooms
_table_texts: Kept[int, tuple[TableState, str]] = Kept(2000)   # their tables, at a big event


def is_room(stored: Mapping[str, Any] | None, layout: Layout) -> bool:
    """Whether a record's ``layout_before``/``layout_after`` is the room ``layout``."""
    if stored is None:
        return not layout.tables
    if "digest" in stored:
        return bool(stored["digest"] == layout_digest(layout))
    return Layout.from_json(stored) == layout


def plan_changes(before: Layout, after: Layout) -> tuple[dict[str, Any], dict[str, Any]]:
    """``layout_before`` and ``layout_after`` of a plan that made ``after`` of ``before``."""
    old = {t.number: t for t in before.tables}
    new = {t.number: t for t in after.tables}
    changed = sorted(n for n in old.keys() | new.keys() if old.get(n) != new.get(n))
    return ({"digest": layout_digest(before),
             "tables": [old[n].to_json() for n in changed if n in old]},
            {"digest": layout_digest(after), "numbers": changed})


def room_before(record: SeatingPlanRecord, now: Layout) -> Layout:
    """The room before the confirmed plan of ``record``, from the room ``now`` after it."""
    stored = record.layout_before
    if "digest" not in stored:
        return Layout.from_json(stored)
    changed = set((record.layout_after or {}).get("numbers", ()))
    kept = [t for t in now.tables if t.number not in changed]
    return Layout(tuple(kept + [TableState.from_json(t) for t in stored.get("tables", ())]))


def discard_pending(tournament_id: int, now: datetime) -> None:
    # One UPDATE: loading the plan to change its status read its layout too (a
    # late entry at a 300-table event discards one, 1,800 seats of JSON).
    db.session.execute(update(SeatingPlanRecord).where(
        SeatingPlanRecord.tournament_id == tournament_id,
        SeatingPlanRecord.status == "pending").values(status="discarded", decided_at=now))


def propose(tournament_id: int, layout: Layout, plan: SeatingPlan) -> SeatingPlanRecord | None:
    """Store ``plan`` as the one pending plan (nothing when the rules propose nothing)."""
    discard_pending(tournament_id, utcnow())
    if plan.kind is PlanKind.NONE:
        return None
    record = SeatingPlanRecord(tournament_id=tournament_id, kind=plan.kind.value,
                               plan=plan.to_json(), status="pending",
                               layout_before={"digest": layout_digest(layout)})
    db.session.add(record)
    return record


def replan(tournament_id: int, layout: Layout, policy: SeatingPolicy,
           rng: random.Random | None = None) -> SeatingPlanRecord | None:
    """After any change: the rules' next step (TDA 10, 11) becomes the pending plan."""
    if not layout.tables:
        discard_pending(tournament_id, utcnow())
        return None
    plan = apply_rule("plan", lambda: plan_seating(layout, policy, rng))
    return propose(tournament_id, layout, plan)
