"""One level scheduler per database: a PostgreSQL advisory lock (or a flock with SQLite).

Runs on whichever database the suite uses (``make test-postgres`` for PostgreSQL).
"""

from __future__ import annotations

from click.testing import CliRunner

from director.cli import hold_scheduler_lock, release_scheduler_lock
from director.db import db
from tests.conftest import POSTGRES_URL


def test_only_one_process_holds_the_scheduler_lock(make_app):
    first_app, second_app = make_app(), make_app()
    first = hold_scheduler_lock(first_app)
    assert first is not None
    try:
        assert hold_scheduler_lock(second_app) is None
    finally:
        release_scheduler_lock(first)
    again = hold_scheduler_lock(second_app)
    assert again is not None
    release_scheduler_lock(again)
    with first_app.app_context():
        assert db.engine.dialect.name == ("postgresql" if POSTGRES_URL else "sqlite")


def test_a_second_scheduler_command_refuses_to_start(make_app, tmp_path, monkeypatch):
    app = make_app()
    monkeypatch.setenv("DIRECTOR_INSTANCE_PATH", app.instance_path)
    monkeypatch.setenv("DIRECTOR_DATABASE_URL", app.config["SQLALCHEMY_DATABASE_URI"])
    held = hold_scheduler_lock(app)
    assert held is not None
    try:
        if POSTGRES_URL:  # the command's own app: the same schema and lock key
            options = app.config["SQLALCHEMY_ENGINE_OPTIONS"]["connect_args"]["options"]
            monkeypatch.setenv("PGOPTIONS", options)
            monkeypatch.setenv("DIRECTOR_SCHEDULER_LOCK_KEY", str(app.config["SCHEDULER_LOCK_KEY"]))
        from director.cli import main

        result = CliRunner().invoke(main, ["scheduler"])
        assert result.exit_code != 0
        assert "Another process already runs the level scheduler" in result.output
    finally:
        release_scheduler_lock(held)
