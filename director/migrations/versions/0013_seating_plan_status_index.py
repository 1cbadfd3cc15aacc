"""The seating plans found by their status through an index.

Every late entry and every elimination looks for the event's pending plan (and
discards it), and the undo of a bust counts the plans confirmed since: each read
every plan the event had made, found by the tournament's index alone.  A plan is
stored for each of them, so at a 2,400-entry event with its busts that is about
6,000 rows and 6 ms a look on SQLite, growing with the event's history.  This
revision adds the index on (tournament, status, id): the newest plan of a status
is one step of it.  The downgrade drops the index.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

INDEX = "ix_seating_plan_tournament_status"


def upgrade() -> None:
    op.create_index(INDEX, "seating_plan", ["tournament_id", "status", "id"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="seating_plan")
