"""A player's name compared for "the same name" by a key kept with the row.

Revision 0017 looked a player up by ``lower(name)``.  SQLite's ``lower()`` folds only
A-Z: "Åsa Öberg" lowered by the database stayed "Åsa öberg" while the name asked for
was "åsa öberg", so on SQLite an event took two active players called "Åsa Öberg"
and a buy-in at the desk did not find the "Åsa Öberg" put on the list unpaid.  Each
player row now keeps its name casefolded by Python (``player.name_key``, made with
the row; a name never changes) and the lookups compare it, from an index on
(tournament, name_key) that replaces 0017's.  This revision adds the column, fills it
for every player and swaps the indexes; the downgrade puts 0017's index back and
drops the column.

Revision ID: 0018
Revises: 0017
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

PLAYERS = sa.table("player", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
                   sa.column("name_key", sa.String()))
OLD_INDEX, INDEX = "ix_player_name", "ix_player_name_key"


def name_key(name: str) -> str:
    """``models.seating.name_key`` as of this revision."""
    return name.casefold()


def upgrade() -> None:
    op.drop_index(OLD_INDEX, table_name="player")
    with op.batch_alter_table("player") as table:
        table.add_column(sa.Column("name_key", sa.Text(), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(PLAYERS.c.id, PLAYERS.c.name)).all()
    if rows:
        connection.execute(sa.update(PLAYERS).where(PLAYERS.c.id == sa.bindparam("pid"))
                           .values(name_key=sa.bindparam("key")),
                           [{"pid": pid, "key": name_key(name or "")} for pid, name in rows])
    op.create_index(INDEX, "player", ["tournament_id", "name_key"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="player")
    with op.batch_alter_table("player") as table:
        table.drop_column("name_key")
    op.create_index(OLD_INDEX, "player", ["tournament_id", sa.text("lower(name)")])
