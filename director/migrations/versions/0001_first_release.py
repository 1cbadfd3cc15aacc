"""The schema of the first release (git 1ace821), every table as its init-db made it.

A database made by that release's ``init-db`` (``db.create_all()``, no
``alembic_version`` table) is this revision: ``director.migrations.prepare``
stamps it here, then upgrades it.  Nothing here imports the models: a revision
is frozen at the schema it describes.

Revision ID: 0001
Revises: (none)
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# ``director.db.UTCDateTime`` stores into this column type.
UTC_TIME = sa.DateTime(timezone=True)

# In the order of their foreign keys (the downgrade drops them backwards).
TABLES = ("audit_log", "tournament", "dealer_device", "dealer_hand", "dealer_pairing",
          "house_rules", "money_settings", "player", "seating_log", "seating_plan",
          "seating_settings", "seating_table", "dealer_hand_event", "dealer_hand_log",
          "dealer_request", "payment", "seat")


def upgrade() -> None:
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", UTC_TIME, nullable=False),
        sa.Column("actor", sa.String(length=40), nullable=False),
        sa.Column("action", sa.String(length=120), nullable=False),
        sa.Column("target", sa.String(length=300), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("details", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id")
    )
    op.create_index(op.f("ix_audit_log_at"), "audit_log", ["at"], unique=False)

    op.create_table(
        "tournament",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("created_at", UTC_TIME, nullable=False),
        sa.Column("levels", sa.JSON(), nullable=False),
        sa.Column("level_index", sa.Integer(), nullable=False),
        sa.Column("started_at", UTC_TIME, nullable=True),
        sa.Column("elapsed_before", sa.Float(), nullable=False),
        sa.Column("running", sa.Boolean(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id")
    )

    op.create_table(
        "dealer_device",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", UTC_TIME, nullable=False),
        sa.Column("revoked_at", UTC_TIME, nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash")
    )
    op.create_index(op.f("ix_dealer_device_table_id"), "dealer_device", ["table_id"], unique=False)
    op.create_index(op.f("ix_dealer_device_tournament_id"), "dealer_device", ["tournament_id"], unique=False)

    op.create_table(
        "dealer_hand",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("table_number", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=8), nullable=False),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("level", sa.JSON(), nullable=False),
        sa.Column("positions", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("chips_applied", sa.JSON(), nullable=True),
        sa.Column("clock_call", sa.JSON(), nullable=True),
        sa.Column("started_at", UTC_TIME, nullable=False),
        sa.Column("finished_at", UTC_TIME, nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "number")
    )
    op.create_index(op.f("ix_dealer_hand_table_id"), "dealer_hand", ["table_id"], unique=False)
    op.create_index(op.f("ix_dealer_hand_tournament_id"), "dealer_hand", ["tournament_id"], unique=False)

    op.create_table(
        "dealer_pairing",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=12), nullable=False),
        sa.Column("created_at", UTC_TIME, nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id"),
        sa.UniqueConstraint("code")
    )
    op.create_index(op.f("ix_dealer_pairing_tournament_id"), "dealer_pairing", ["tournament_id"], unique=False)

    op.create_table(
        "house_rules",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("hand", sa.JSON(), nullable=False),
        sa.Column("rulings", sa.JSON(), nullable=False),
        sa.Column("updated_at", UTC_TIME, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id")
    )

    op.create_table(
        "money_settings",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("locked_shares", sa.JSON(), nullable=True),
        sa.Column("locked_entries", sa.Integer(), nullable=True),
        sa.Column("deal", sa.JSON(), nullable=True),
        sa.Column("updated_at", UTC_TIME, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id")
    )

    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("chips", sa.BigInteger(), nullable=False),
        sa.Column("entry_chips", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("place_last", sa.Integer(), nullable=True),
        sa.Column("eliminated_at", UTC_TIME, nullable=True),
        sa.Column("created_at", UTC_TIME, nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id")
    )
    op.create_index(op.f("ix_player_tournament_id"), "player", ["tournament_id"], unique=False)

    op.create_table(
        "seating_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("at", UTC_TIME, nullable=False),
        sa.Column("action", sa.String(length=30), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id")
    )
    op.create_index(op.f("ix_seating_log_tournament_id"), "seating_log", ["tournament_id"], unique=False)

    op.create_table(
        "seating_plan",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("plan", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("layout_before", sa.JSON(), nullable=False),
        sa.Column("layout_after", sa.JSON(), nullable=True),
        sa.Column("created_at", UTC_TIME, nullable=False),
        sa.Column("decided_at", UTC_TIME, nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id")
    )
    op.create_index(op.f("ix_seating_plan_tournament_id"), "seating_plan", ["tournament_id"], unique=False)

    op.create_table(
        "seating_settings",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("policy", sa.JSON(), nullable=False),
        sa.Column("hand_for_hand", sa.JSON(), nullable=False),
        sa.Column("starting_chips", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", UTC_TIME, nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id")
    )

    op.create_table(
        "seating_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("button_seat", sa.Integer(), nullable=True),
        sa.Column("sb_seat", sa.Integer(), nullable=True),
        sa.Column("bb_seat", sa.Integer(), nullable=True),
        sa.Column("game_is_stud", sa.Boolean(), nullable=False),
        sa.Column("vacated", sa.JSON(), nullable=False),
        sa.Column("break_position", sa.Integer(), nullable=False),
        sa.Column("halted", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "number")
    )
    op.create_index(op.f("ix_seating_table_tournament_id"), "seating_table", ["tournament_id"], unique=False)

    op.create_table(
        "dealer_hand_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("event", sa.JSON(), nullable=False),
        sa.Column("idempotency_key", sa.String(length=100), nullable=True),
        sa.Column("response", sa.Text(), nullable=True),
        sa.Column("undone", sa.Boolean(), nullable=False),
        sa.Column("created_at", UTC_TIME, nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["dealer_hand.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("hand_id", "seq"),
        sa.UniqueConstraint("idempotency_key")
    )
    op.create_index(op.f("ix_dealer_hand_event_hand_id"), "dealer_hand_event", ["hand_id"], unique=False)

    op.create_table(
        "dealer_hand_log",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("at", UTC_TIME, nullable=False),
        sa.Column("who", sa.String(length=20), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["dealer_hand.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id")
    )
    op.create_index(op.f("ix_dealer_hand_log_hand_id"), "dealer_hand_log", ["hand_id"], unique=False)

    op.create_table(
        "dealer_request",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("idempotency_key", sa.String(length=100), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("response", sa.Text(), nullable=False),
        sa.Column("created_at", UTC_TIME, nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["dealer_hand.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("idempotency_key")
    )

    op.create_table(
        "payment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("player_name", sa.String(length=80), nullable=False),
        sa.Column("person", sa.String(length=80), nullable=False),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("prize", sa.BigInteger(), nullable=False),
        sa.Column("fee", sa.BigInteger(), nullable=False),
        sa.Column("chips", sa.BigInteger(), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("request_key", sa.String(length=64), nullable=True),
        sa.Column("created_at", UTC_TIME, nullable=False),
        sa.Column("undone_at", UTC_TIME, nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "request_key")
    )
    op.create_index(op.f("ix_payment_person"), "payment", ["person"], unique=False)
    op.create_index(op.f("ix_payment_player_id"), "payment", ["player_id"], unique=False)
    op.create_index(op.f("ix_payment_tournament_id"), "payment", ["tournament_id"], unique=False)

    op.create_table(
        "seat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("waiting", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["table_id"], ["seating_table.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("player_id"),
        sa.UniqueConstraint("table_id", "seat")
    )
    op.create_index(op.f("ix_seat_tournament_id"), "seat", ["tournament_id"], unique=False)


def downgrade() -> None:
    for table in reversed(TABLES):
        op.drop_table(table)
