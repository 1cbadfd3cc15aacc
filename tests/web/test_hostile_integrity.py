"""Issue 26, a hostile room: nothing acknowledged is lost.

* items 4 and 12: a buy-in that races the event's delete is either refused or in the
  delete's backup, never a 201 that is then lost, and never a 500; two deletes in the
  same second keep two backups; a backup that fails leaves nothing half-written;
* item 9: two desks selling seats at the same moment both get one (the server retries
  its own lost race), and a desk request sent again with its key answers the seat the
  first answer gave;
* item 11: starting on a damaged database (garbage, or 0 bytes) says so in one line,
  exits non-zero and leaves the file as it was.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from director import cli
from director.services import backup, tournaments
from director.services import seating as seating_service
from director.services import waiting_list as waiting_list_service
from director.services.seating import entries as seating_entries
from tests.conftest import POSTGRES_URL, EventApi

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"]


@pytest.fixture
def api(client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> EventApi:
    """An event with six players bought in and seated at one table of nine."""
    event = EventApi(client, auth, make_entry_tournament())
    assert event.post("seating/settings", table_size=9).status_code == 200
    for name in NAMES:
        event.buy_in(name)
    assert event.post("seating/draw").status_code == 200
    return event


def backed_up(path: Path, name: str) -> bool:
    """Whether the player ``name`` is in the backup (a SQLite file, or a pg_dump)."""
    if path.suffix == ".pgdump":
        sql = subprocess.run(["pg_restore", "--data-only", "--file=-", str(path)],  # noqa: S603,S607
                             capture_output=True, text=True, check=True).stdout
        return name in sql
    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT count(*) FROM player WHERE name = ?",
                                  (name,)).fetchone()[0] > 0


def in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    answers: list[Any] = []
    thread = threading.Thread(target=lambda: answers.append(work()), daemon=True)
    thread.start()
    return thread, answers


# ---------------------------------------------------------------- a buy-in racing the delete

@pytest.mark.skipif(bool(POSTGRES_URL) and shutil.which("pg_restore") is None,
                    reason="reads the pg_dump with pg_restore")
def test_a_buy_in_made_while_the_event_is_deleted_is_refused_or_kept_in_the_backup(
        app: Flask, api: EventApi, auth: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The buy-in arrives right after the delete's backup is written: before the fix it
    was answered 201 and then deleted with the event, in no backup."""
    real_backup = backup.backup
    started: list[tuple[threading.Thread, list[Any]]] = []

    def backup_then_a_buy_in(app_: Flask, target: Any, **kwargs: Any) -> Path:
        path = real_backup(app_, target, **kwargs)
        desk = app.test_client()
        started.append(in_thread(lambda: desk.post(
            f"/api/tournaments/{api.id}/desk/buy-in", json={"name": "Late Larry"},
            headers=auth)))
        started[0][0].join(timeout=1.0)   # the delete holds the event: the buy-in waits
        return path

    monkeypatch.setattr(backup, "backup", backup_then_a_buy_in)
    deleted = api.client.delete(f"/api/tournaments/{api.id}", headers=auth)
    assert deleted.status_code == 200, deleted.get_json()
    [(thread, answers)] = started
    thread.join(timeout=15)
    assert not thread.is_alive()
    [answer] = answers
    kept = backed_up(Path(deleted.get_json()["backup"]), "Late Larry")
    assert backed_up(Path(deleted.get_json()["backup"]), "Ann")
    if answer.status_code in (200, 201):
        assert kept, "an acknowledged buy-in is in no backup"
    else:
        assert answer.status_code in (404, 409), answer.get_data(as_text=True)
        assert answer.get_json()["error"] or answer.get_json()["errors"]
        assert not kept


HELD_FROM_ITS_FIRST_CHECK = pytest.mark.skipif(
    bool(POSTGRES_URL), reason="PostgreSQL: the buy-in holds its event (FOR KEY SHARE) from "
    "its first check, so the delete waits for it and cannot come in between (see the next test)")


@pytest.mark.parametrize("where", [
    pytest.param("after its reads", marks=HELD_FROM_ITS_FIRST_CHECK),
    pytest.param("before its writes", marks=HELD_FROM_ITS_FIRST_CHECK)])
def test_a_buy_in_that_finds_its_event_deleted_half_way_answers_404_with_a_sentence(
        app: Flask, api: EventApi, auth: dict[str, str], monkeypatch: pytest.MonkeyPatch,
        where: str) -> None:
    """The event is deleted after the buy-in has read it: before the fix the answer was a
    500 (the session's copy of the event could not be refreshed: ObjectDeletedError) or
    a 400 about the money settings the delete had taken away."""
    module, name = ((waiting_list_service, "room") if where == "after its reads"
                    else (seating_service, "register_player"))
    real = getattr(module, name)
    deleted: list[Any] = []

    def then_the_delete(tournament_id: int, *args: Any, **kwargs: Any) -> Any:
        if not deleted:
            other = app.test_client()
            thread, answers = in_thread(lambda: other.delete(
                f"/api/tournaments/{tournament_id}", headers=auth))
            thread.join(timeout=15)
            deleted.extend(answers)
        return real(tournament_id, *args, **kwargs)

    monkeypatch.setattr(module, name, then_the_delete)
    answer = api.post("desk/buy-in", name="Late Larry")
    assert deleted and deleted[0].status_code == 200, deleted
    assert answer.status_code == 404, answer.get_data(as_text=True)
    assert answer.get_json()["error"] in (f"Event {api.id} was deleted: nothing was changed",
                                          f"There is no tournament {api.id}")


@pytest.mark.skipif(not POSTGRES_URL, reason="PostgreSQL's row locks (SQLite: the test above)")
def test_on_postgresql_a_delete_waits_for_the_buy_in_that_holds_its_event(
        app: Flask, api: EventApi, auth: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The delete arrives after the buy-in's first check, before its writes: it waits for
    the buy-in's transaction (the event's row FOR KEY SHARE), the buy-in is answered 201,
    and only then is the event deleted."""
    real = seating_service.register_player
    started: list[tuple[threading.Thread, list[Any]]] = []
    waiting: list[bool] = []

    def then_the_delete(tournament_id: int, *args: Any, **kwargs: Any) -> Any:
        if not started:
            other = app.test_client()
            started.append(in_thread(lambda: other.delete(
                f"/api/tournaments/{tournament_id}", headers=auth)))
            started[0][0].join(timeout=1.0)
            waiting.append(started[0][0].is_alive())
        return real(tournament_id, *args, **kwargs)

    monkeypatch.setattr(seating_service, "register_player", then_the_delete)
    answer = api.post("desk/buy-in", name="Late Larry")
    assert answer.status_code == 201, answer.get_data(as_text=True)
    assert waiting == [True], "the delete did not wait for the buy-in's transaction"
    [(thread, answers)] = started
    thread.join(timeout=15)
    assert not thread.is_alive()
    assert answers[0].status_code == 200, answers[0].get_data(as_text=True)
    assert api.post("desk/buy-in", name="Later Lou").status_code == 404


def test_a_buy_in_on_a_deleted_event_answers_404_with_a_sentence(
        api: EventApi, auth: dict[str, str]) -> None:
    assert api.client.delete(f"/api/tournaments/{api.id}", headers=auth).status_code == 200
    answer = api.post("desk/buy-in", name="Late Larry")
    assert answer.status_code == 404
    assert str(api.id) in answer.get_json()["error"]


# ---------------------------------------------------------------- the delete's backups

@pytest.mark.skipif(bool(POSTGRES_URL), reason="reads the SQLite backup files")
def test_two_deletes_of_one_id_in_the_same_second_keep_two_complete_backups(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The backup's name was the event's id and the second: a second event under the same
    id (ids were reused, issue 26 item 7) deleted in the same second overwrote the first
    one's backup, and the first event was then in no backup."""
    from director.db import db
    from director.models import Tournament
    from tests.conftest import level

    tid = make_tournament(name="Friday PLO")
    frozen = datetime(2026, 12, 3, 8, 0, 0, tzinfo=UTC)
    monkeypatch.setattr(tournaments, "utcnow", lambda: frozen)
    monkeypatch.setattr(backup, "utcnow", lambda: frozen)
    paths = []
    for name in ("Friday PLO", "Saturday Stud"):
        if name != "Friday PLO":
            with app.app_context():
                db.session.add(Tournament(id=tid, name=name, levels=[level()]))
                db.session.commit()
        deleted = client.delete(f"/api/tournaments/{tid}", headers=auth)
        assert deleted.status_code == 200, deleted.get_json()
        paths.append(Path(deleted.get_json()["backup"]))
    assert paths[0] != paths[1]
    for path, name in zip(paths, ("Friday PLO", "Saturday Stud"), strict=True):
        with sqlite3.connect(path) as connection:
            assert connection.execute("SELECT name FROM tournament WHERE id = ?",
                                      (tid,)).fetchone() == (name,)
            assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)


@pytest.mark.skipif(bool(POSTGRES_URL), reason="SQLite backup files")
def test_a_backup_that_fails_leaves_no_partial_file_and_refuses_the_delete(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    tid = make_tournament(name="Friday PLO")

    def broken_check(path: Path) -> None:
        raise backup.BackupError(f"{path} failed the integrity check")

    monkeypatch.setattr(backup, "_check", broken_check)
    refused = client.delete(f"/api/tournaments/{tid}", headers=auth)
    assert refused.status_code == 400
    assert refused.get_json()["errors"]["backup"].startswith(
        "The backup before deleting failed, so nothing was deleted")
    folder = Path(app.instance_path) / "backups"
    assert sorted(p.name for p in folder.iterdir()) == []
    assert client.get(f"/api/tournaments/{tid}/clock").status_code == 200


@pytest.mark.skipif(bool(POSTGRES_URL), reason="SQLite backup files")
def test_a_partial_backup_left_by_a_killed_process_is_swept_by_the_next_backup(
        app: Flask, tmp_path: Path) -> None:
    folder = Path(app.instance_path) / "backups"
    folder.mkdir(parents=True, exist_ok=True)
    dead = 2**22 + 12345                      # above pid_max's default: no such process
    left = folder / f"director-20261203-080000.sqlite.{dead}-140000.partial"
    left.write_bytes(b"half a copy")
    ours = folder / f"director-20261203-080000.sqlite.{os.getpid()}-1.partial"
    ours.write_bytes(b"a copy this process is still writing")
    made = backup.backup(app, tmp_path / "copy.sqlite")
    assert made.is_file()
    assert not left.exists() and ours.exists()


# ---------------------------------------------------------------- two desks at once

def test_two_desks_selling_seats_at_the_same_moment_both_get_a_seat(
        app: Flask, api: EventApi, auth: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Both desks have read the seating before either writes it: the second one's write
    loses the race, and the server tries it again instead of telling the desk."""
    real_settings = seating_entries.locked_settings   # the lock a new entry's seat takes
    together = threading.Barrier(2, timeout=3)
    waited: set[int] = set()

    def read_then_meet(tournament_id: int) -> Any:
        if threading.get_ident() not in waited:
            waited.add(threading.get_ident())
            from director.db import db
            from director.models.seating import SeatingSettings

            db.session.get(SeatingSettings, tournament_id)     # this desk's version
            with contextlib.suppress(threading.BrokenBarrierError):
                together.wait()
        return real_settings(tournament_id)

    monkeypatch.setattr(seating_entries, "locked_settings", read_then_meet)

    def desk(name: str) -> Callable[[], Any]:
        client = app.test_client()
        return lambda: client.post(f"/api/tournaments/{api.id}/desk/buy-in",
                                   json={"name": name, "request_key": f"k-{name}"},
                                   headers=auth)

    threads = [in_thread(desk(name)) for name in ("Gus", "Hal")]
    for thread, _answers in threads:
        thread.join(timeout=20)
    answers = [answers[0] for _thread, answers in threads]
    for answer in answers:
        assert answer.status_code == 201, answer.get_json()
        assert answer.get_json()["sale"]["seat"] is not None
    seats = {(a.get_json()["sale"]["seat"]["table"], a.get_json()["sale"]["seat"]["seat"])
             for a in answers}
    assert len(seats) == 2


def test_a_desk_buy_in_sent_again_with_its_key_answers_the_same_seat(api: EventApi) -> None:
    first = api.post("desk/buy-in", name="Gus", request_key="desk-gus")
    assert first.status_code == 201, first.get_json()
    again = api.post("desk/buy-in", name="Gus", request_key="desk-gus")
    assert again.status_code == 200 and again.get_json()["repeated"] is True
    seat = first.get_json()["sale"]["seat"]
    assert seat is not None
    assert again.get_json()["sale"]["seat"] == seat
    assert again.get_json()["sale"]["payment_id"] == first.get_json()["sale"]["payment_id"]


def test_a_sale_sent_again_with_its_key_answers_the_same_seat(api: EventApi) -> None:
    first = api.post("money/entries", kind="buy-in", name="Gus", request_key="sale-gus")
    assert first.status_code == 201, first.get_json()
    again = api.post("money/entries", kind="buy-in", name="Gus", request_key="sale-gus")
    assert again.status_code == 200 and again.get_json()["repeated"] is True
    assert first.get_json()["seat"] is not None
    assert again.get_json()["seat"] == first.get_json()["seat"]


# ---------------------------------------------------------------- starting on a damaged file

@pytest.fixture
def damaged(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[bytes], Path]:
    """``damaged(content)``: the configured database file holds ``content``."""
    monkeypatch.setenv("DIRECTOR_INSTANCE_PATH", str(tmp_path / "instance"))
    path = tmp_path / "director.sqlite"
    monkeypatch.setenv("DIRECTOR_DATABASE_URL", f"sqlite:///{path}")

    def fail_if_served(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the server started on a damaged database")

    monkeypatch.setattr(cli.asgi, "server_settings", fail_if_served)

    def make(content: bytes) -> Path:
        path.write_bytes(content)
        os.utime(path, (1_700_000_000, 1_700_000_000))
        return path

    return make


@pytest.mark.skipif(bool(POSTGRES_URL), reason="a SQLite file")
@pytest.mark.parametrize("content", [b"this is not a database at all " * 200, b""],
                         ids=["garbage", "empty"])
@pytest.mark.parametrize("command", [["init-db"], ["init-db", "--demo-if-empty"],
                                     ["serve", "--port", "0", "--stream-port", "0"],
                                     ["db", "upgrade"]],
                         ids=["init-db", "init-db-demo", "serve", "db-upgrade"])
def test_starting_on_a_damaged_database_says_so_in_one_line_and_leaves_it_untouched(
        damaged: Callable[[bytes], Path], content: bytes, command: list[str]) -> None:
    path = damaged(content)
    before = path.stat()
    result = CliRunner().invoke(cli.main, command)
    assert result.exit_code == 2, (result.output, result.exception)
    assert not isinstance(result.exception, AssertionError)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert str(path) in lines[0] and "director restore" in lines[0]
    assert "Traceback" not in result.output
    assert path.read_bytes() == content
    assert path.stat().st_mtime_ns == before.st_mtime_ns
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0


@pytest.mark.skipif(bool(POSTGRES_URL), reason="SQLite's busy timeout")
def test_a_delete_that_cannot_get_the_write_lock_is_refused_with_a_sentence(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Another process holds the database's write lock past the busy timeout: a 400 that
    says so (it was a 500), and nothing is deleted."""
    import director.db
    from director.db import db

    tid = make_tournament(name="Friday PLO")
    monkeypatch.setattr(director.db, "BUSY_TIMEOUT_MS", 50)
    with app.app_context():
        db.engine.dispose()                            # new connections: the short timeout
    path = str(app.config["SQLALCHEMY_DATABASE_URI"]).removeprefix("sqlite:///")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        refused = client.delete(f"/api/tournaments/{tid}", headers=auth)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert refused.status_code == 400, refused.get_data(as_text=True)
    assert refused.get_json()["errors"]["event"] == (
        "The database is busy with another write: nothing was deleted. Try again in a moment")
    assert client.get(f"/api/tournaments/{tid}/clock").status_code == 200


@pytest.mark.skipif(bool(POSTGRES_URL), reason="a SQLite file")
def test_restore_replaces_a_damaged_database_and_keeps_its_bytes(
        damaged: Callable[[bytes], Path], tmp_path: Path) -> None:
    """The way out the refusal names works: ``director restore`` could not copy the damaged
    file first (it stopped in a traceback); its bytes are kept as they were instead."""
    runner = CliRunner()
    path = damaged(b"")
    path.unlink()
    assert runner.invoke(cli.main, ["init-db"]).exit_code == 0
    good = tmp_path / "good.sqlite"
    assert runner.invoke(cli.main, ["backup", str(good)]).exit_code == 0
    garbage = b"this is not a database at all " * 200
    path.write_bytes(garbage)
    Path(f"{path}-wal").unlink(missing_ok=True)
    Path(f"{path}-shm").unlink(missing_ok=True)
    assert runner.invoke(cli.main, ["init-db"]).exit_code == 2
    restored = runner.invoke(cli.main, ["restore", "--yes", str(good)])
    assert restored.exit_code == 0, (restored.output, restored.exception)
    kept = [p for p in (tmp_path / "instance" / "backups").iterdir() if p.read_bytes() == garbage]
    assert len(kept) == 1 and kept[0].name.startswith("before-restore-")
    assert str(kept[0]) in restored.output
    ready = runner.invoke(cli.main, ["init-db"])
    assert ready.exit_code == 0 and "Database ready" in ready.output
