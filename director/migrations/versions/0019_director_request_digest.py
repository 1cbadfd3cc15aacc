"""A director's request key is kept with a digest of its request.

A key kept by revision 0015 answered any request sent with it as the first one
("done already"): a page's form kept from before (the browser's back button) and
filled in again for another player sent its old key, and the other change was lost
unseen.  Each key is now kept with a digest of the request's route and content
(its key, its form token and its way back left out; ``services.once``): the same
request sent again is answered once, another request with the key is refused.
This revision adds the column, empty for the keys kept before (they are compared
as before); the downgrade drops it.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("director_request") as table:
        table.add_column(sa.Column("digest", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("director_request") as table:
        table.drop_column("digest")
