"""The screens' read model (issue 27): the state every screen of an event shows.

The clock state (the API contract: the level, the time, the field, the money, the
banners) is read from the database once per change, not once per screen or per
request: after a unit of work commits, the dispatcher (``services.publishing``)
computes it with :func:`refresh` and sends it to every screen, and keeps it here.
A screen that opens, and a poll, get the kept state while it is fresh
(``FRESH_SECONDS``) with its time fields brought to the moment they are read
(:func:`_aged`); a change in another process forgets it (``forget``, called by the
change feed's handler), and the clock's own level end makes it stale.

Read once, kept right: screens that find no fresh state read it one at a time per
event (the second finds the first's), and a read that began before a change is
not kept over that change's state (each change and each ``forget`` starts a new
generation of the event's state; a read keeps its state only in the generation
it began in; a change's generation begins before its dispatch reads anything, and
a screen's read is made in a session of its own, which has read nothing before).

Read-only: nothing here writes or commits.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import select

from director.db import db, utcnow
from director.models import Tournament
from director.services import Invalid, app_key, banners, get_tournament
from director.services import clock as clock_service
from director.services import money as money_service
from director.services import seating as seating_service
from director.services import tournaments as tournament_service
from director.tournament import clock
from director.tournament.lifecycle import Status

FRESH_SECONDS = 1.0   # the live screens' watcher looks at the versions as often
ROOM_MAX = 6

Key = tuple[str, int]                                   # (app, event)
Began = tuple[int, int]                                 # (epoch, generation) a read began in
_lock = threading.Lock()
_kept: dict[Key, tuple[float, dict[str, Any]]] = {}     # -> (when, state)
_generations: dict[Key, int] = {}                       # -> changes and forgets so far
_epoch = [0]                                            # forget(None) so far
_readers = tuple(threading.RLock() for _ in range(64))  # one reader per event at a time


def clock_json(tournament: Tournament, now: datetime) -> dict[str, Any]:
    """The public clock state (the API contract), computed as of ``now``.

    Level ends that are due are applied here too, so a reader is right even
    before the scheduler has written them.  ``ends_at`` and ``break_at`` are
    absolute, so that every screen counts down from its own clock.
    """
    structure = tournament.structure
    state = clock.advance_due(tournament.clock, structure, now)
    index = min(state.level_index, len(structure.levels) - 1)
    remaining = clock.remaining(state, structure, now)
    ends = clock.ends_at(state, structure, now)
    next_break = structure.next_break(index)
    to_break: float | None = None
    if next_break is not None:
        to_break = remaining + sum(
            level.duration_seconds for level in structure.levels[index + 1 : next_break]
        )
    started = tournament.started
    status = tournament.lifecycle
    data = {
        "tournament_id": tournament.id,
        "name": tournament.name,
        "version": tournament.version,
        "running": state.running,
        "started": started,
        "level_index": index,
        "level_count": len(structure.levels),
        "level": clock_service.level_json(structure, index),
        "next_level": clock_service.level_json(structure, index + 1),
        "seconds_remaining": round(remaining, 3),
        "ends_at": clock_service.iso(ends),
        "seconds_to_break": None if to_break is None else round(to_break, 3),
        "break_at": clock_service.iso(now + timedelta(seconds=to_break))
        if to_break is not None and state.running
        else None,
        "server_time": clock_service.iso(now),
        # The event's life (registering, running, finished, cancelled) and, once it
        # is finished by the last elimination, its winner: the projector's winner screen.
        "status": status.value,
        "winner": clock_service.winner(tournament.id) if status is Status.FINISHED else None,
        # Filled by the registration issue; the projector shows them when set.
        **seating_service.field_stats(tournament.id),
        **money_service.clock_stats(tournament, now),
    }
    return data | banners.state(tournament, data, now)  # the screens' banners (issue 15)


def clock_state(tournament_id: int) -> dict[str, Any]:
    """The event's clock state now: the kept one while fresh, else read (404 for an
    unknown event)."""
    key = (app_key(), tournament_id)
    aged = _fresh(key)
    if aged is not None:
        return aged
    with _readers[hash(key) % len(_readers)]:
        aged = _fresh(key)              # another screen read it meanwhile
        if aged is not None:
            return aged
        with _lock:
            began = _generation(key)
        # A session of its own: the request's may hold the event's row from before a
        # change (a page that read the event first), and a state computed from that
        # row would be kept as this generation's.
        with current_app.app_context():
            return _read(key, began=began)


def changed(tournament_id: int) -> Began:
    """A change to the event is committed: reads that began before it are not kept.

    The dispatcher calls it first, before any of its steps reads the event: the
    session's identity map keeps the event's row from the first read after the
    commit, so a read model computed later from that row is as old as that read,
    not as the moment it is computed.  Pass what it returns to :func:`refresh`."""
    key = (app_key(), tournament_id)
    with _lock:
        _generations[key] = _generations.get(key, 0) + 1
        return _generation(key)


def refresh(tournament_id: int, began: Began | None = None) -> dict[str, Any]:
    """Read the event's clock state from the database and keep it (after a change:
    ``began`` is what :func:`changed` returned for it; without it, the change is now)."""
    return _read((app_key(), tournament_id),
                 began=changed(tournament_id) if began is None else began)


def forget(tournament_id: int | None = None) -> None:
    """A change this process did not make (or the event is gone): read it again."""
    with _lock:
        if tournament_id is None:
            _kept.clear()
            _epoch[0] += 1
            return
        key = (app_key(), tournament_id)
        _kept.pop(key, None)
        _generations[key] = _generations.get(key, 0) + 1


def _generation(key: Key) -> Began:
    """The event's generation now (``_lock`` held)."""
    return (_epoch[0], _generations.get(key, 0))


def _fresh(key: Key) -> dict[str, Any] | None:
    with _lock:
        kept = _kept.get(key)
    return None if kept is None else _aged(kept[1], time.monotonic() - kept[0])


def _read(key: Key, *, began: Began) -> dict[str, Any]:
    """Read the state; keep it unless a change (or a forget) came since ``began``."""
    state = clock_json(get_tournament(key[1]), utcnow())
    with _lock:
        if _generation(key) == began:
            _kept[key] = (time.monotonic(), state)
    return state


def _aged(state: dict[str, Any], seconds: float) -> dict[str, Any] | None:
    """``state`` as of ``seconds`` after it was read, or None if it must be read again
    (too old, or a level or a break ends meanwhile: the scheduler changes it then)."""
    if seconds > FRESH_SECONDS:
        return None
    if not state.get("running"):
        return {**state, "server_time": clock_service.iso(utcnow())}
    remaining = float(state.get("seconds_remaining") or 0) - seconds
    if remaining <= 0:
        return None
    aged = {**state, "seconds_remaining": round(remaining, 3),
            "server_time": clock_service.iso(utcnow())}
    if state.get("seconds_to_break") is not None:
        aged["seconds_to_break"] = round(max(0.0, float(state["seconds_to_break"]) - seconds), 3)
    return aged


def versions(tournament_ids: list[int]) -> dict[int, int]:
    """``{id: version}`` for the given tournaments (the live screens' change check)."""
    rows = db.session.execute(
        select(Tournament.id, Tournament.version).where(Tournament.id.in_(tournament_ids))
    ).all()
    return {row[0]: row[1] for row in rows}


def money_standing(tournament_id: int) -> dict[str, Any] | None:
    """Where the field stands against the places paid, for the director's pages:
    ``{"kind": "bubble" | "in_the_money", "places_paid", "players_left",
    "hand_for_hand"}``, or None (not there yet, no payouts, or the event is over).

    The screens' banners decide it (``services.banners``): one player more than
    the places paid is the bubble, every player left paid is in the money.
    """
    state = clock_state(tournament_id)
    kinds = {banner["kind"]: banner for banner in state.get("banners") or []}
    for kind in ("bubble", "in_the_money"):
        if kind in kinds:
            return {"kind": kind, "places_paid": kinds[kind]["places_paid"],
                    "players_left": state.get("players_left") or 0,
                    "hand_for_hand": "hand_for_hand" in kinds}
    return None


def room(ids: Any = None) -> list[dict[str, Any]]:
    """The clock state of each tournament on the room screen (at most ``ROOM_MAX``).

    ``ids``: "1,4,7" (the order kept), or None for every running event, oldest first.
    """
    if ids:
        wanted = []
        for part in str(ids).split(","):
            part = part.strip()
            if not part.isdigit() or len(part) > 18:
                raise Invalid({"ids": _("Give the tournaments as numbers separated by commas, "
                                        "for example 1,4")})
            if int(part) not in wanted:
                wanted.append(int(part))
        if len(wanted) > ROOM_MAX:
            raise Invalid({"ids": _("The room screen shows at most %(count)s tournaments",
                                    count=ROOM_MAX)})
        return [clock_state(tid) for tid in wanted]
    running = [t for t in reversed(tournament_service.list_events())
               if t.lifecycle is Status.RUNNING]
    return [clock_state(t.id) for t in running[:ROOM_MAX]]
