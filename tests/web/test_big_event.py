"""A big event's pages cost the same whatever its history (issue 29).

The growth is tested on small events with the SQL statements each request
sends (``statements``) and the size of its answer: the same statements with 20
and with 60 entries, an answer that holds what changed.  The big event itself
is ``benchmarks/big_event.py``."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from director.db import db
from director.services import audit

from tests.conftest import ENTRY, EventApi


@pytest.fixture
def statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements the app sends from now on."""
    sent: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        sent.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    yield sent
    event.remove(engine, "before_cursor_execute", record)


# ---------------------------------------------------------------- the audit log

def test_an_audit_line_the_database_refused_as_locked_is_written_on_the_next_try(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    make_tournament(name="Locked out")
    writer = audit.writer(app)
    writer.close()
    with app.app_context():
        from director.db import group_commit
        committer = group_commit()
        real = committer.submit
        refusals = []

        def locked_once(work: Any) -> Any:
            if not refusals:
                refusals.append(1)
                raise sqlite3.OperationalError("database is locked")
            return real(work)

        monkeypatch.setattr(committer, "submit", locked_once)
        audit.record("backup", "the file", actor="system", app=app)
        assert writer.flush() == 0                   # refused: the database was locked
        monkeypatch.setattr(committer, "submit", real)
        lines = audit.recent(actor="system")
    assert refusals == [1]
    assert [line.action for line in lines] == ["backup"]
