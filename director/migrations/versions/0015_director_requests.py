"""A director's clock control or status change sent again is applied once.

The director's page puts an ``idempotency_key`` on each clock control (start,
pause, resume, next, previous, time added or removed) and on cancel and reopen,
and sends the same request again when its answer is lost on the room's Wi-Fi.
This revision adds the table that keeps each applied key of an event, written in
the change's own transaction (``models.requests``, ``services.once``); nothing
written before changes.  The downgrade drops the table.

Revision ID: 0015
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "director_request",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("idempotency_key", sa.String(length=100), nullable=False),
        sa.Column("action", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "idempotency_key"),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    op.drop_table("director_request")
