"""Final places stored when they are decided (issue 29).

A player who went out while late registration was still open finishes behind
every entry made after him: his final place is his place at the bust plus the
entries registered since.  The code worked that out on every request from every
entry's registration time (the results, a player's history and a league read
the event's whole history).  It now stores, with the bust, how many entries the
event had then (``player.entries_when_out``): the final place is ``place`` plus
the entries now minus that count, one column read, and the results page reads
its own 100 lines.

This revision adds the column and fills it for every player already out:
the entries registered up to his elimination.  The downgrade drops it (the
earlier code works the places out from the registration times, as before).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player") as table:
        table.add_column(sa.Column("entries_when_out", sa.Integer(), nullable=True))
    op.execute(
        "UPDATE player SET entries_when_out = (SELECT count(*) FROM player AS entry "
        "WHERE entry.tournament_id = player.tournament_id "
        "AND entry.created_at <= player.eliminated_at) "
        "WHERE eliminated_at IS NOT NULL")


def downgrade() -> None:
    with op.batch_alter_table("player") as table:
        table.drop_column("entries_when_out")
