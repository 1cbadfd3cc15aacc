"""The keys of the director's requests that make something outside any event.

A new event, a copy of one, a league and a player's record were made again by each
copy of their request (a double click on *Create*, a script's retry after a lost
answer).  Such a request's ``idempotency_key`` is now kept with what it made
(``services.once.made_once``): sent again, the request answers what the first one
made.  The key is unique, so copies racing each other in several processes make one
thing.  This revision adds the table, empty; the downgrade drops it.

Revision ID: 0021
Revises: 0020
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "made_request",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("idempotency_key", sa.String(100), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("made_id", sa.Integer(), nullable=False),
        sa.Column("digest", sa.String(64), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("idempotency_key"),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    op.drop_table("made_request")
