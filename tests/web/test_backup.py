"""Backups: ``director backup PATH`` while the server writes, the scheduled
backup into ``instance/backups/``, and ``director restore``."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
from click.testing import CliRunner

from director import create_app
from director.cli import main as director_cli
from director.db import db
from director.services import audit, backup
from director.services import tournaments as tournament_service
from tests.conftest import POSTGRES_URL, level

pytestmark = pytest.mark.skipif(bool(POSTGRES_URL), reason="SQLite files (pg_dump on PostgreSQL)")


@pytest.fixture
def cli_env(tmp_path, monkeypatch):
    monkeypatch.setenv("DIRECTOR_INSTANCE_PATH", str(tmp_path / "instance"))
    monkeypatch.setenv("DIRECTOR_DATABASE_URL", f"sqlite:///{tmp_path / 'live.sqlite'}")
    app = create_app()
    with app.app_context():
        db.create_all()
    return app


def names(path):
    with sqlite3.connect(path) as connection:
        return sorted(row[0] for row in connection.execute("SELECT name FROM tournament"))


def create(app, name):
    with app.app_context():
        tournament_service.create_tournament(name, [level()])


def test_backup_while_the_server_writes_then_restore(cli_env, tmp_path):
    app = cli_env
    create(app, "Before")
    stop = threading.Event()
    written = []

    def writer():
        while not stop.is_set():
            create(app, f"During {len(written)}")
            written.append(1)

    thread = threading.Thread(target=writer)
    thread.start()
    time.sleep(0.2)
    result = CliRunner().invoke(director_cli, ["backup", str(tmp_path / "copy.sqlite")])
    stop.set()
    thread.join()
    assert result.exit_code == 0, result.output
    assert "Backup written" in result.output
    copied = names(tmp_path / "copy.sqlite")
    assert "Before" in copied and len(copied) >= 2  # a consistent snapshot mid-writes
    with sqlite3.connect(tmp_path / "copy.sqlite") as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    create(app, "After the backup")
    audit.writer(app).close()  # the log's writer thread is done with the file
    with app.app_context():
        db.engine.dispose()
    restored = CliRunner().invoke(director_cli, ["restore", "--yes",
                                                 str(tmp_path / "copy.sqlite")])
    assert restored.exit_code == 0, restored.output
    assert names(tmp_path / "live.sqlite") == copied
    safety = next((tmp_path / "instance" / "backups").glob("before-restore-*.sqlite"))
    assert "After the backup" in names(safety)


def test_restore_refuses_a_file_that_is_not_a_backup(cli_env, tmp_path):
    create(cli_env, "Keep me")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    result = CliRunner().invoke(director_cli, ["restore", "--yes", str(junk)])
    assert result.exit_code != 0 and "not a director database" in result.output
    assert names(tmp_path / "live.sqlite") == ["Keep me"]


def test_restore_while_the_database_is_in_use_says_so_and_changes_nothing(
        cli_env, tmp_path, monkeypatch):
    create(cli_env, "Backed up")
    assert CliRunner().invoke(director_cli, ["backup", str(tmp_path / "copy.sqlite")]
                              ).exit_code == 0
    create(cli_env, "Live")
    audit.writer(cli_env).close()
    monkeypatch.setattr(backup, "RESTORE_WAIT_SECONDS", 0.2)
    server = sqlite3.connect(tmp_path / "live.sqlite")
    try:
        server.execute("BEGIN IMMEDIATE")  # a server in the middle of a write
        result = CliRunner().invoke(director_cli, ["restore", "--yes",
                                                   str(tmp_path / "copy.sqlite")])
    finally:
        server.rollback()
        server.close()
    assert result.exit_code == 1 and "is in use" in result.output
    assert "Traceback" not in result.output
    assert names(tmp_path / "live.sqlite") == ["Backed up", "Live"]


def test_backup_refuses_to_overwrite_the_database(cli_env, tmp_path):
    result = CliRunner().invoke(director_cli, ["backup", str(tmp_path / "live.sqlite")])
    assert result.exit_code != 0 and "must not overwrite" in result.output


def test_scheduled_backups_run_in_the_scheduler_and_keep_the_newest(make_app, tmp_path):
    from director.services.scheduler import start_backups, start_scheduler

    app = make_app(BACKUP_MINUTES=0.01, BACKUP_KEEP=2)  # every 0.6 s
    create(app, "Scheduled")
    start_scheduler(app)
    assert start_backups(app)
    folder = tmp_path / "instance" / "backups"
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and len(list(folder.glob("director-*.sqlite"))) < 2:
        time.sleep(0.2)
    made = backup.backups(app)
    assert 1 <= len(made) <= 2
    assert names(made[0][0]) == ["Scheduled"]
    for _ in range(3):  # more backups: still at most two kept
        backup.scheduled_backup(app)
        time.sleep(1.05)  # the file names are stamped to the second
    assert len(list(folder.glob("director-*.sqlite"))) == 2


def test_backups_are_off_with_zero_minutes(make_app):
    from director.services.scheduler import start_backups, start_scheduler

    app = make_app(BACKUP_MINUTES=0)
    start_scheduler(app)
    assert start_backups(app) is False
