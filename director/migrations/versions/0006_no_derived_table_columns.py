"""The seating tables lose ``break_position`` and ``halted`` (issue 18).

Both were derived from the whole room whenever the layout was stored, and no
page, screen or rule ever read them (the screens derive the breaking order and
the halted tables from the layout, ``services.seating.overview``).  Since a
table's breaking position depends on every other table, a late entry that
opened a table rewrote the row of every table: about 300 updates at a
300-table event, inside the request that the screens wait for.

The downgrade adds them back holding what the earlier code wrote: the breaking
order and the halted tables of each event's stored layout, by the same rules
(``director.tournament.seating``, which reads the stored policy: the breaking
order and ``halt_short_by`` are saved settings).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import sqlalchemy as sa
from alembic import op

from director.tournament.seating import (
    Layout,
    SeatedPlayer,
    SeatingPolicy,
    TableState,
    halted_tables,
)

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

SETTINGS = sa.table("seating_settings", sa.column("tournament_id", sa.Integer()),
                    sa.column("policy", sa.JSON()))
TABLES = sa.table("seating_table", *(sa.column(name, sa.Integer()) for name in (
    "id", "tournament_id", "number", "size", "button_seat", "sb_seat", "bb_seat",
    "break_position")), sa.column("game_is_stud", sa.Boolean()),
    sa.column("vacated", sa.JSON()), sa.column("halted", sa.Boolean()))
SEATS = sa.table("seat", *(sa.column(name, sa.Integer()) for name in (
    "table_id", "seat", "player_id")), sa.column("waiting", sa.Boolean()))


def upgrade() -> None:
    with op.batch_alter_table("seating_table") as table:
        table.drop_column("halted")
        table.drop_column("break_position")


def downgrade() -> None:
    with op.batch_alter_table("seating_table") as table:
        table.add_column(sa.Column("break_position", sa.Integer(), nullable=False,
                                   server_default="0"))
        table.add_column(sa.Column("halted", sa.Boolean(), nullable=False,
                                   server_default=sa.false()))
    connection = op.get_bind()
    for values in derived(connection):
        connection.execute(TABLES.update().where(TABLES.c.id == values.pop("id")).values(values))
    with op.batch_alter_table("seating_table") as table:   # as the first release made them
        table.alter_column("break_position", server_default=None)
        table.alter_column("halted", server_default=None)


def derived(connection: sa.Connection) -> list[dict[str, Any]]:
    """Each table row's id, breaking position (1: breaks first) and halted flag."""
    policies = {tid: SeatingPolicy.from_json(policy) if policy else SeatingPolicy()
                for tid, policy in connection.execute(sa.select(SETTINGS))}
    seats: dict[int, dict[int, SeatedPlayer]] = defaultdict(dict)
    for table_id, seat, player_id, waiting in connection.execute(sa.select(SEATS)):
        seats[table_id][seat] = SeatedPlayer(player_id, "", bool(waiting))
    events: dict[int, list[tuple[int, TableState]]] = defaultdict(list)
    for row in connection.execute(sa.select(TABLES)):
        events[row.tournament_id].append((row.id, TableState(
            number=row.number, size=row.size, seats=seats[row.id], button_seat=row.button_seat,
            sb_seat=row.sb_seat, bb_seat=row.bb_seat, game_is_stud=bool(row.game_is_stud),
            vacated=tuple(int(s) for s in (row.vacated or ())))))
    values = []
    for tid, rows in events.items():
        policy = policies.get(tid, SeatingPolicy())
        layout = Layout(tuple(table for _id, table in sorted(rows, key=lambda r: r[1].number)))
        halted = set(halted_tables(layout, policy))
        order = sorted(layout.numbers, key=policy.breaking_rank)
        values += [{"id": row_id, "break_position": order.index(table.number) + 1,
                    "halted": table.number in halted} for row_id, table in rows]
    return values
