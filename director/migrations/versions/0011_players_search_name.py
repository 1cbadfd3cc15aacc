"""Find-my-seat searches the players' folded names in the database (issue 29).

The players' search (``/seats/<id>?q=``) folded every seated player's name on
every request (at 2,400 entries about a thousand names a search).  Each player
row now keeps its name folded (``player.search_name``: casefolded, accents
removed; a name never changes), made with the row, and the search compares it
in the database.  This revision adds the column and fills it for every player;
the downgrade drops it.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

PLAYERS = sa.table("player", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
                   sa.column("search_name", sa.String()))


def folded(text: str) -> str:
    """``models.seating.folded`` as of this revision."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def upgrade() -> None:
    with op.batch_alter_table("player") as table:
        table.add_column(sa.Column("search_name", sa.Text(), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(PLAYERS.c.id, PLAYERS.c.name)).all()
    if rows:
        connection.execute(sa.update(PLAYERS).where(PLAYERS.c.id == sa.bindparam("pid"))
                           .values(search_name=sa.bindparam("folded")),
                           [{"pid": pid, "folded": folded(name or "")} for pid, name in rows])


def downgrade() -> None:
    with op.batch_alter_table("player") as table:
        table.drop_column("search_name")
