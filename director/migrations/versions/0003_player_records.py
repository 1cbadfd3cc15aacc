"""The room's player list across events, and leagues; every existing row keeps its values.

* ``person`` (new): the player records (name, its casefolded ``key``, unique;
  nickname, e-mail, phone, note);
* ``league`` (new): a name, a points formula and the ids of its events;
* ``player.person_id`` (indexed; a foreign key to ``person``, NULL when the
  record is deleted): the entries written before read NULL (no record yet).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

UTC_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "person",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("key", sa.String(length=80), nullable=False),
        sa.Column("nickname", sa.String(length=40), nullable=True),
        sa.Column("email", sa.String(length=120), nullable=True),
        sa.Column("phone", sa.String(length=40), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("created_at", UTC_TIME, nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key"),
    )
    op.create_table(
        "league",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("formula", sa.String(length=20), nullable=False),
        sa.Column("tournament_ids", sa.JSON(), nullable=False),
        sa.Column("created_at", UTC_TIME, nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("player") as table:
        table.add_column(sa.Column("person_id", sa.Integer(), nullable=True))
        table.create_index("ix_player_person_id", ["person_id"], unique=False)
        table.create_foreign_key("fk_player_person_id", "person", ["person_id"], ["id"],
                                 ondelete="SET NULL")


def downgrade() -> None:
    with op.batch_alter_table("player") as table:
        table.drop_constraint("fk_player_person_id", type_="foreignkey")
        table.drop_index("ix_player_person_id")
        table.drop_column("person_id")
    op.drop_table("league")
    op.drop_table("person")
