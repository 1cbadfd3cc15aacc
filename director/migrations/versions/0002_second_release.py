"""The columns added after the first release; every one is empty or has its default.

* ``tournament.status`` ("registering": an event whose clock has started reads
  as running, ``director.tournament.lifecycle.status_of``), ``finished_at``,
  ``archived_at``, ``time_zone`` (NULL: the server's), ``announcement`` and
  ``chip_set`` (NULL: none);
* ``payment.stack_before``, ``stack_after`` (a rebuy's or add-on's stack, for
  its undo; NULL on the lines written before: their undo takes the chips back),
  ``bounty`` (the bounty part of an entry; NULL: none);
* ``player.out_table``, ``out_seat`` (where a busted player sat, for the
  director's undo of the bust; NULL: he is seated wherever there is room),
  ``bounty``, ``knockout`` (bounty events; NULL: no bounty);
* ``audit_log.kind`` (indexed), ``message``, ``params`` (the change in the
  director's words; NULL: a technical line, as every line written before).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

UTC_TIME = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("tournament") as table:
        table.add_column(sa.Column("status", sa.String(length=12), nullable=False,
                                   server_default="registering"))
        table.add_column(sa.Column("finished_at", UTC_TIME, nullable=True))
        table.add_column(sa.Column("archived_at", UTC_TIME, nullable=True))
        table.add_column(sa.Column("time_zone", sa.String(length=64), nullable=True))
        table.add_column(sa.Column("announcement", sa.String(length=280), nullable=True))
        table.add_column(sa.Column("chip_set", sa.JSON(), nullable=True))
    with op.batch_alter_table("payment") as table:
        table.add_column(sa.Column("stack_before", sa.BigInteger(), nullable=True))
        table.add_column(sa.Column("stack_after", sa.BigInteger(), nullable=True))
        table.add_column(sa.Column("bounty", sa.BigInteger(), nullable=True))
    with op.batch_alter_table("player") as table:
        table.add_column(sa.Column("out_table", sa.Integer(), nullable=True))
        table.add_column(sa.Column("out_seat", sa.Integer(), nullable=True))
        table.add_column(sa.Column("bounty", sa.BigInteger(), nullable=True))
        table.add_column(sa.Column("knockout", sa.JSON(), nullable=True))
    with op.batch_alter_table("audit_log") as table:
        table.add_column(sa.Column("kind", sa.String(length=20), nullable=True))
        table.add_column(sa.Column("message", sa.String(length=300), nullable=True))
        table.add_column(sa.Column("params", sa.JSON(), nullable=True))
        table.create_index("ix_audit_log_kind", ["kind"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("audit_log") as table:
        table.drop_index("ix_audit_log_kind")
        table.drop_column("params")
        table.drop_column("message")
        table.drop_column("kind")
    with op.batch_alter_table("player") as table:
        table.drop_column("knockout")
        table.drop_column("bounty")
        table.drop_column("out_seat")
        table.drop_column("out_table")
    with op.batch_alter_table("payment") as table:
        table.drop_column("bounty")
        table.drop_column("stack_after")
        table.drop_column("stack_before")
    with op.batch_alter_table("tournament") as table:
        table.drop_column("chip_set")
        table.drop_column("announcement")
        table.drop_column("time_zone")
        table.drop_column("archived_at")
        table.drop_column("finished_at")
        table.drop_column("status")
