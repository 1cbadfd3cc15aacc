"""The waiting list of a full room (issue 17 item 7): the ``waiting_list`` table.

Nothing written before changes: an event upgraded here has an empty list.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

UTC_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "waiting_list",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("request_key", sa.String(length=64), nullable=True),
        sa.Column("created_at", UTC_TIME, nullable=False),
        sa.Column("decided_at", UTC_TIME, nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "request_key"),
    )
    op.create_index(op.f("ix_waiting_list_tournament_id"), "waiting_list", ["tournament_id"],
                    unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_waiting_list_tournament_id"), table_name="waiting_list")
    op.drop_table("waiting_list")
