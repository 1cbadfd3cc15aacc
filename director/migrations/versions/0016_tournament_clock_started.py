"""An event keeps that its clock was started, through a cancel.

Whether an event has started was read from its stored status ("running") or from
its clock (running, a time run, a later level).  A cancel stores "cancelled", and
a paused first level whose minutes were all given back shows no time run: such an
event, cancelled and then reopened, came back "registering" (late registration
through level 0 again, rebuys closed).  This revision adds ``tournament.
clock_started``, set by the clock's first start, and fills it for every event the
old rule says started; the downgrade drops it.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

TOURNAMENTS = sa.table("tournament", sa.column("status", sa.String()),
                       sa.column("running", sa.Boolean()),
                       sa.column("started_at", sa.DateTime(timezone=True)),
                       sa.column("elapsed_before", sa.Float()),
                       sa.column("level_index", sa.Integer()),
                       sa.column("clock_started", sa.Boolean()))


def upgrade() -> None:
    # An ALTER TABLE: a batch would rebuild the table on SQLite without its AUTOINCREMENT.
    op.add_column("tournament", sa.Column("clock_started", sa.Boolean(), nullable=False,
                                          server_default=sa.false()))
    t = TOURNAMENTS.c
    op.get_bind().execute(sa.update(TOURNAMENTS).where(sa.or_(    # the rule of before
        t.status == "running", t.running == sa.true(), t.started_at.is_not(None),
        t.elapsed_before > 0, t.level_index > 0)).values(clock_started=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament",
                              table_kwargs={"sqlite_autoincrement": True}) as table:
        table.drop_column("clock_started")
