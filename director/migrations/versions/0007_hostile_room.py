"""A hostile room (issue 26): guess limits and director sessions in the database,
and ids that are never used twice.

* ``guess_failure`` and ``guess_lock``: the wrong guesses at a login or a
  table's pairing code, shared by every server process (``models.security``);
* ``director_session``: the director's browser logins, which a logout or a
  password change ends everywhere;
* on SQLite, every table with an integer id of its own is rebuilt with
  ``AUTOINCREMENT`` (its rows and ids kept): SQLite then never hands out an id
  it handed out before.  Copying the rows in sets each table's counter
  (``sqlite_sequence``) to its highest id; the events' counter also goes past
  every event a league still names, so an event deleted before the upgrade is
  not replaced by a new one under its id.  PostgreSQL's sequences never go back,
  so nothing is rebuilt there.

Nothing written before changes; everybody logs in again once (a director cookie
of before names no session).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

UTC_TIME = sa.DateTime(timezone=True)

# The tables of revision 0006 with an integer id of their own (``change_feed`` had
# AUTOINCREMENT from the start, revision 0005).
REBUILT = ("tournament", "audit_log", "person", "league", "player", "payment", "seating_table",
           "seat", "seating_plan", "seating_log", "waiting_list", "dealer_hand",
           "dealer_hand_event", "dealer_request", "dealer_hand_log", "dealer_device",
           "dealer_pairing")
LEAGUES = sa.table("league", sa.column("tournament_ids", sa.JSON()))


def upgrade() -> None:
    op.create_table(
        "guess_failure",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=20), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("at", UTC_TIME, nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_guess_failure_scope_key", "guess_failure", ["scope", "key"])
    op.create_index(op.f("ix_guess_failure_at"), "guess_failure", ["at"])
    op.create_table(
        "guess_lock",
        sa.Column("scope", sa.String(length=20), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("locked_at", UTC_TIME, nullable=False),
        sa.Column("until", UTC_TIME, nullable=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("scope", "key"),
    )
    op.create_table(
        "director_session",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", UTC_TIME, nullable=False),
        sa.Column("address", sa.String(length=100), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
        sqlite_autoincrement=True,
    )
    connection = op.get_bind()
    if connection.dialect.name != "sqlite":
        return
    for name in REBUILT:
        with op.batch_alter_table(name, recreate="always",
                                  table_kwargs={"sqlite_autoincrement": True}):
            pass
    named = [int(tid) for (ids,) in connection.execute(sa.select(LEAGUES.c.tournament_ids))
             for tid in (ids or []) if isinstance(tid, int) and not isinstance(tid, bool)]
    if named:
        past = max(named)
        connection.exec_driver_sql(
            "UPDATE sqlite_sequence SET seq = ? WHERE name = 'tournament' AND seq < ?",
            (past, past))
        connection.exec_driver_sql(
            "INSERT INTO sqlite_sequence (name, seq) SELECT 'tournament', ? "
            "WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'tournament')",
            (past,))


def downgrade() -> None:
    connection = op.get_bind()
    if connection.dialect.name == "sqlite":
        for name in REBUILT:      # without AUTOINCREMENT, as revision 0006 made them
            with op.batch_alter_table(name, recreate="always"):
                pass
        marks = ", ".join("?" * len(REBUILT))
        connection.exec_driver_sql(f"DELETE FROM sqlite_sequence WHERE name IN ({marks})",
                                   REBUILT)
    op.drop_table("director_session")
    op.drop_index(op.f("ix_guess_failure_at"), table_name="guess_failure")
    op.drop_index("ix_guess_failure_scope_key", table_name="guess_failure")
    op.drop_table("guess_failure")
    op.drop_table("guess_lock")
