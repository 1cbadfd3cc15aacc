"""The player list searched by the database's index (issue 29).

A search of the player list (the desk's suggestions, the director's list) read
every record to look for the text inside each name and nickname: 20,000 names
for 8 suggestions.  It now finds the records whose name or nickname has a word
that starts with the text, in a table of those words (``person_word``: the name
and nickname casefolded, accents stripped, from each word's start to the end;
see ``director.services.people.words_of``) and its index.

This revision adds the table and fills it for every record on the list (the
rules are copied here: a revision keeps working when the code changes).  The
downgrade drops it (the earlier code reads the names).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

NAME_MAX = 80
BATCH = 1000
# Words compare in code point order (a prefix search is a range of the index):
# SQLite's own order; PostgreSQL's "C" collation.
WORD = sa.String(length=NAME_MAX).with_variant(sa.String(length=NAME_MAX, collation="C"),
                                               "postgresql")
PERSON = sa.table("person", sa.column("id", sa.Integer()), sa.column("name", sa.String()),
                  sa.column("nickname", sa.String()))


def search_text(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(char for char in plain if not unicodedata.combining(char))
    return " ".join(unicodedata.normalize("NFC", plain).split())[:NAME_MAX]


def words_of(name: str, nickname: str | None) -> dict[str, bool]:
    words: dict[str, bool] = {}
    for whole, text in ((True, search_text(name)), (False, search_text(nickname or ""))):
        for at, char in enumerate(text):
            if at == 0 or (char.isalnum() and not text[at - 1].isalnum()):
                words[text[at:]] = words.get(text[at:], False) or (whole and at == 0)
    return words


def upgrade() -> None:
    words = op.create_table(
        "person_word",
        sa.Column("name_start", sa.Boolean(), nullable=False),
        sa.Column("word", WORD, nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["person_id"], ["person.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("name_start", "word", "person_id"),
    )
    op.create_index(op.f("ix_person_word_person_id"), "person_word", ["person_id"],
                    unique=False)
    connection = op.get_bind()
    records = connection.execute(sa.select(PERSON.c.id, PERSON.c.name, PERSON.c.nickname)
                                 .order_by(PERSON.c.id)).all()
    for start in range(0, len(records), BATCH):
        rows = [{"person_id": person_id, "word": word, "name_start": whole}
                for person_id, name, nickname in records[start:start + BATCH]
                for word, whole in words_of(name, nickname).items()]
        if rows:
            connection.execute(words.insert(), rows)


def downgrade() -> None:
    op.drop_index(op.f("ix_person_word_person_id"), table_name="person_word")
    op.drop_table("person_word")
