"""A dealer tablet's request key is kept with a digest of its request.

A tablet's key was compared by itself: a write sent with a key already kept at its
table was answered as the first write of that key, whatever it asked for, so a
tablet reusing a key (a fault of its own, or a client sending keys of its own
making) had its other tap answered "done" and lost unseen.  Each key is now kept
with a digest of the request's route and content (its key left out;
``services.once.request_digest``), on the event that carries the key and on the
request rows of writes without an event: the same request sent again gets its
answer once more, another request with the key is refused, naming
``idempotency_key``.  This revision adds the columns, empty for the keys kept
before (they are compared as before); the downgrade drops them.

Revision ID: 0020
Revises: 0019
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

TABLES = ("dealer_hand_event", "dealer_request")


def upgrade() -> None:
    for name in TABLES:
        with op.batch_alter_table(name) as table:
            table.add_column(sa.Column("digest", sa.String(64), nullable=True))


def downgrade() -> None:
    for name in TABLES:
        with op.batch_alter_table(name) as table:
            table.drop_column("digest")
