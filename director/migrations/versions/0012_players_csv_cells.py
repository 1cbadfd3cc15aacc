"""Each player record keeps its cells of the players CSV (issue 29).

The players CSV of a 20,000-record list wrote every record's name, nickname,
e-mail, phone and note on every export (half of its 110 ms).  Each record now
keeps them as the export writes them (``person.csv_cells``: guarded against
formulas, quoted where the CSV writer quotes), made whenever the record is
written.  This revision adds the column and fills it for every record; the
downgrade drops it.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import csv
import io
import re

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

FIELDS = ("name", "nickname", "email", "phone", "note")
PERSONS = sa.table("person", sa.column("id", sa.Integer()),
                   *(sa.column(name, sa.String()) for name in FIELDS),
                   sa.column("csv_cells", sa.Text()))
_GUARDED = re.compile(r"'*[=+\-@]")


def csv_cells(values: tuple[str | None, ...]) -> str:
    """``models.people.csv_cells`` as of this revision."""
    out = io.StringIO()
    csv.writer(out).writerow(
        "'" + value if value and _GUARDED.match(value) else value for value in values)
    return out.getvalue().removesuffix("\r\n")


def upgrade() -> None:
    with op.batch_alter_table("person") as table:
        table.add_column(sa.Column("csv_cells", sa.Text(), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(PERSONS.c.id, *(PERSONS.c[n] for n in FIELDS))).all()
    if rows:
        connection.execute(sa.update(PERSONS).where(PERSONS.c.id == sa.bindparam("pid"))
                           .values(csv_cells=sa.bindparam("cells")),
                           [{"pid": row[0], "cells": csv_cells(tuple(row[1:]))} for row in rows])


def downgrade() -> None:
    with op.batch_alter_table("person") as table:
        table.drop_column("csv_cells")
