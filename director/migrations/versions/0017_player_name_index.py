"""A player looked for by name in his event from an index.

Every entry asks whether the event already has an active player of that name
(any case), and a new entry's record is looked for among the event's earlier
entries of the name; a re-entry, a bust's re-entry offer and the waiting list ask
the same.  Each was a scan of every entry the event has had: on PostgreSQL at
2,000 entries 0.7 ms of the database's time for one of them, growing with the
event.  This revision adds the index on (tournament, lower(name)): one lookup.
The downgrade drops the index.

Revision ID: 0017
Revises: 0016
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

INDEX = "ix_player_name"


def upgrade() -> None:
    op.create_index(INDEX, "player", ["tournament_id", sa.text("lower(name)")])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="player")
