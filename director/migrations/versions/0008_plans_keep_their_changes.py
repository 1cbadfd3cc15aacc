"""Seating plans keep what they change, not the room twice (issue 29).

Each plan's record held the whole room before it and, once confirmed, the
whole room after it: at a 2,400-entry event 75 MB of a 107 MB database.  The
code now writes (``services.seating``): ``layout_before`` the room's digest
(and, once confirmed, the tables the plan changed as they were),
``layout_after`` the room's digest after it and the numbers of the tables it
changed.  This revision rewrites the records written before in that form; no
column changes.  The code reads both forms, so the rewrite only gives the
space back (a ``VACUUM``, or the next backup, shrinks the file).

The downgrade writes whole rooms back where the earlier code needs them: the
pending plan and the last confirmed one of each event, from the room in its
tables (when the digests say it is that room).  Older records keep the short
form: the earlier code then refuses to confirm or undo them, as it refuses any
plan made for another room.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import sqlalchemy as sa
from alembic import op

from director.tournament.seating import Layout, SeatedPlayer, TableState

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

PLANS = sa.table("seating_plan", sa.column("id", sa.Integer()),
                 sa.column("tournament_id", sa.Integer()), sa.column("status", sa.String()),
                 sa.column("layout_before", sa.JSON()), sa.column("layout_after", sa.JSON()))
TABLES = sa.table("seating_table", *(sa.column(name, sa.Integer()) for name in (
    "id", "tournament_id", "number", "size", "button_seat", "sb_seat", "bb_seat")),
    sa.column("game_is_stud", sa.Boolean()), sa.column("vacated", sa.JSON()))
SEATS = sa.table("seat", *(sa.column(name, sa.Integer()) for name in (
    "table_id", "seat", "player_id")), sa.column("waiting", sa.Boolean()))
PLAYERS = sa.table("player", sa.column("id", sa.Integer()), sa.column("name", sa.String()))


def digest(layout: Layout) -> str:
    """``services.seating.layout_digest`` as of this revision."""
    text = json.dumps(layout.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def changes(before: Layout, after: Layout) -> tuple[dict[str, Any], dict[str, Any]]:
    """``services.seating._changes`` as of this revision."""
    old = {t.number: t for t in before.tables}
    new = {t.number: t for t in after.tables}
    changed = sorted(n for n in old.keys() | new.keys() if old.get(n) != new.get(n))
    return ({"digest": digest(before), "tables": [old[n].to_json() for n in changed if n in old]},
            {"digest": digest(after), "numbers": changed})


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(sa.select(PLANS.c.id, PLANS.c.status, PLANS.c.layout_before,
                                        PLANS.c.layout_after)).all()
    for plan_id, status, before_json, after_json in rows:
        if not isinstance(before_json, dict) or "digest" in before_json:
            continue
        before = Layout.from_json(before_json)
        if status == "confirmed" and isinstance(after_json, dict) and "digest" not in after_json:
            values = dict(zip(("layout_before", "layout_after"),
                              changes(before, Layout.from_json(after_json)), strict=True))
        else:
            values = {"layout_before": {"digest": digest(before)}, "layout_after": None}
        connection.execute(sa.update(PLANS).where(PLANS.c.id == plan_id).values(**values))


def _room(connection: Any, tournament_id: int) -> Layout:
    """An event's room from its table and seat rows (as ``load_layout`` reads it)."""
    tables = connection.execute(sa.select(TABLES).where(
        TABLES.c.tournament_id == tournament_id).order_by(TABLES.c.number)).all()
    seats: dict[int, dict[int, SeatedPlayer]] = {t.id: {} for t in tables}
    for table_id, seat, waiting, player_id, name in connection.execute(
            sa.select(SEATS.c.table_id, SEATS.c.seat, SEATS.c.waiting, PLAYERS.c.id,
                      PLAYERS.c.name).join(PLAYERS, PLAYERS.c.id == SEATS.c.player_id)
            .where(SEATS.c.table_id.in_([t.id for t in tables]))
            .order_by(SEATS.c.table_id, SEATS.c.seat)):
        seats[table_id][seat] = SeatedPlayer(player_id, name, bool(waiting))
    return Layout(tuple(
        TableState(number=t.number, size=t.size, seats=seats[t.id], button_seat=t.button_seat,
                   sb_seat=t.sb_seat, bb_seat=t.bb_seat, game_is_stud=bool(t.game_is_stud),
                   vacated=tuple(int(s) for s in (t.vacated or ())))
        for t in tables))


def downgrade() -> None:
    connection = op.get_bind()
    events = connection.execute(sa.select(PLANS.c.tournament_id).distinct()).scalars().all()
    for tournament_id in events:
        room = _room(connection, tournament_id)
        for status in ("pending", "confirmed"):
            found = connection.execute(sa.select(PLANS).where(
                PLANS.c.tournament_id == tournament_id, PLANS.c.status == status)
                .order_by(PLANS.c.id.desc()).limit(1)).first()
            if found is None or "digest" not in (found.layout_before or {}):
                continue
            if status == "pending" and found.layout_before["digest"] == digest(room):
                values: dict[str, Any] = {"layout_before": room.to_json()}
            elif status == "confirmed" and (found.layout_after or {}).get("digest") == digest(room):
                changed = set(found.layout_after.get("numbers", ()))
                kept = [t for t in room.tables if t.number not in changed]
                before = Layout(tuple(kept + [TableState.from_json(t) for t in
                                              found.layout_before.get("tables", ())]))
                values = {"layout_before": before.to_json(), "layout_after": room.to_json()}
            else:
                continue
            connection.execute(sa.update(PLANS).where(PLANS.c.id == found.id).values(**values))
