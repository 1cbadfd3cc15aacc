"""Schema migrations: an upgrade between two days of an event keeps the event.

The data is real: ``migration_data/release-1ace821.sql`` is a database that the
first release (git 1ace821) made and wrote through its own API
(``make_release_db.py``): an event mid-level, 16 entries and a rebuy, one bust,
two tables drawn, house rules, a paired tablet, two hands dealt and a third in
play.  Each test runs on the test database in use: a SQLite file, or with
``make test-postgres`` a PostgreSQL schema of its own.
"""

from __future__ import annotations

import os
import random
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import MetaData, inspect, select, text
from sqlalchemy.engine import Connection

from director import migrations
from director.db import db
from director.services import Invalid, seating, tournaments
from director.tournament.seating import deal_hand, remove_players
from tests.conftest import POSTGRES_URL, TOKEN
from tests.web.test_dealer_helpers import drive, passive

DATA = Path(__file__).resolve().parent / "migration_data"
RELEASE_SQL = DATA / "release-1ace821.sql"
sqlite_only = pytest.mark.skipif(bool(POSTGRES_URL), reason="a SQLite file of the release")

# What each revision adds, with the value a row written before it reads: every
# revision after the first has its entry (``test_every_revision_has_an_upgrade_test``).
ADDED: dict[str, dict[str, dict[str, Any]]] = {
    "0002": {
        "tournament": {"status": "registering", "finished_at": None, "archived_at": None,
                       "time_zone": None, "announcement": None, "chip_set": None},
        "payment": {"stack_before": None, "stack_after": None, "bounty": None},
        "player": {"out_table": None, "out_seat": None, "bounty": None, "knockout": None},
        "audit_log": {"kind": None, "message": None, "params": None},
    },
    "0003": {"player": {"person_id": None}},
    "0004": {},    # a new table (the waiting list): no column added to a table of before
    "0005": {},    # a new table (the change feed, empty)
    "0006": {},    # two columns dropped (REMOVED)
    "0007": {},    # new tables (guess limits, director sessions); SQLite: AUTOINCREMENT ids
    "0008": {},    # seating plans rewritten to keep what they change (no column)
    "0009": {},    # player.entries_when_out: filled from the rows (REWRITTEN), not a default
    "0010": {},    # a new table (the player list's search words), filled from the records
    "0011": {},    # player.search_name: each name folded (REWRITTEN), not a default
    "0012": {},    # person.csv_cells: each record's CSV cells (REWRITTEN), not a default
    "0013": {},    # an index (the seating plans by status): no column, no row changed
    "0014": {},    # an index (the chip leaders): no column, no row changed
    "0015": {},    # a new table (the director's applied request keys, empty)
    "0016": {},    # tournament.clock_started: from the clock and status (REWRITTEN)
    "0017": {},    # an index (a player by name in his event): no column, no row changed
    "0018": {},    # player.name_key: each name casefolded (REWRITTEN), not a default
    "0019": {"director_request": {"digest": None}},   # the keys kept before: no digest
    "0020": {"dealer_hand_event": {"digest": None}, "dealer_request": {"digest": None}},   # the same
    "0021": {},    # a new table (the keys of the requests that made an event, a league, a record)
}
# What each revision drops: values derived from others, which its downgrade derives again.
REMOVED: dict[str, dict[str, set[str]]] = {
    "0006": {"seating_table": {"break_position", "halted"}},
}
# What each revision writes in another form (the rows stay, these values change; the
# revision's own test checks them): 0008 keeps what a seating plan changed, not the room.
REWRITTEN: dict[str, dict[str, set[str]]] = {
    "0008": {"seating_plan": {"layout_before", "layout_after"}},
    "0009": {"player": {"entries_when_out"}},     # a new column worked out from the rows
    "0011": {"player": {"search_name"}},          # a new column worked out from the names
    "0012": {"person": {"csv_cells"}},            # a new column worked out from the records
    "0016": {"tournament": {"clock_started"}},    # worked out from the clock and the status
    "0018": {"player": {"name_key"}},             # a new column worked out from the names
}


# ---------------------------------------------------------------- helpers

def release_file(path: Path) -> Path:
    """The release's own SQLite file (its DDL, its rows), as its ``init-db`` left it."""
    connection = sqlite3.connect(path)
    try:
        connection.executescript(RELEASE_SQL.read_text(encoding="utf-8"))
    finally:
        connection.close()
    return path


def _utc(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value


def read_rows(connection: Connection) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table (but Alembic's), in primary-key order, times in UTC."""
    meta = MetaData()
    with warnings.catch_warnings():      # SQLite does not reflect an index on lower(name)
        warnings.filterwarnings("ignore", message=".*expression-based index")
        meta.reflect(connection)
    rows = {}
    for table in meta.sorted_tables:
        if table.name == migrations.VERSION_TABLE:
            continue
        found = connection.execute(select(table).order_by(*table.primary_key.columns))
        rows[table.name] = [{key: _utc(value) for key, value in row._mapping.items()}
                            for row in found]
    return rows


def release_rows(tmp_path: Path) -> dict[str, list[dict[str, Any]]]:
    import sqlalchemy

    engine = sqlalchemy.create_engine(f"sqlite:///{release_file(tmp_path / 'release.sqlite')}")
    try:
        with engine.connect() as connection:
            return read_rows(connection)
    finally:
        engine.dispose()


def write_rows(connection: Connection, rows: dict[str, list[dict[str, Any]]]) -> None:
    """Insert ``rows`` as they are (ids included) into the tables of this revision."""
    meta = MetaData()
    with warnings.catch_warnings():      # SQLite does not reflect an index on lower(name)
        warnings.filterwarnings("ignore", message=".*expression-based index")
        meta.reflect(connection)
    sqlite = connection.dialect.name == "sqlite"
    for table in meta.sorted_tables:
        if rows.get(table.name):
            connection.execute(table.insert(), [
                {key: value.replace(tzinfo=None) if sqlite and isinstance(value, datetime)
                 else value for key, value in row.items()} for row in rows[table.name]])
        if not sqlite and "id" in table.c and rows.get(table.name):   # the next id
            connection.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                                    f"(SELECT max(id) FROM {table.name}))"))
    connection.commit()


def rows_of(app: Flask) -> dict[str, list[dict[str, Any]]]:
    with app.app_context(), db.engine.connect() as connection:
        return read_rows(connection)


def columns_of(app: Flask) -> dict[str, set[str]]:
    with app.app_context(), db.engine.connect() as connection:
        found = inspect(connection)
        return {name: {c["name"] for c in found.get_columns(name)}
                for name in found.get_table_names()}


def assert_every_row_survives(before: dict[str, list[dict[str, Any]]],
                              after: dict[str, list[dict[str, Any]]],
                              added: dict[str, dict[str, Any]],
                              removed: dict[str, set[str]] | None = None,
                              rewritten: dict[str, set[str]] | None = None) -> None:
    """Each row is still there with every value it had, but in the columns dropped
    (``removed``) or written in another form (``rewritten``); each new column holds its
    default."""
    for table, rows in before.items():
        assert len(after[table]) == len(rows), table
        gone = (removed or {}).get(table, set())
        other = gone | (rewritten or {}).get(table, set())
        for old, new in zip(rows, after[table], strict=True):
            assert not gone & new.keys(), table
            assert {key: new[key] for key in old if key not in other} == \
                {key: value for key, value in old.items() if key not in other}, table
            assert {key: new[key] for key in new if key not in old and key not in other} == \
                added.get(table, {}), table


def _up_to(changes: dict[str, dict[str, Any]], revision: str) -> dict[str, Any]:
    """What every revision up to ``revision`` changed in the release's tables, table by
    table (the release's rows are written at the revision before, so they have the
    earlier ones)."""
    merged: dict[str, Any] = {}
    for name in sorted(changes):
        if name <= revision:
            for table, columns in changes[name].items():
                merged.setdefault(table, type(columns)()).update(columns)
    return merged


def removed_up_to(revision: str) -> dict[str, set[str]]:
    """The columns every revision up to ``revision`` dropped from the release's tables."""
    return _up_to(REMOVED, revision)


def added_up_to(revision: str) -> dict[str, dict[str, Any]]:
    """The columns every revision up to ``revision`` added, with their defaults."""
    return _up_to(ADDED, revision)


@pytest.fixture
def empty_app(make_app: Callable[..., Flask]) -> Flask:
    """An app on this test's database, with no table in it."""
    return make_app(tables=False)


@pytest.fixture
def release(tmp_path: Path) -> dict[str, list[dict[str, Any]]]:
    return release_rows(tmp_path)


def at_revision(app: Flask, revision: str, rows: dict[str, list[dict[str, Any]]]) -> None:
    """Build the database revision by revision up to ``revision``, then write ``rows``."""
    migrations.migrate(app, revision, backup=False)
    with app.app_context(), db.engine.connect() as connection:
        write_rows(connection, rows)


def schema_of(path: Path) -> dict[str, Any]:
    """A SQLite file's tables, columns, keys and indexes, as sets (the order of the
    constraints in CREATE TABLE is not the schema)."""
    connection = sqlite3.connect(path)
    try:
        names = [row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'alembic_version'")]
        schema = {}
        for name in names:
            schema[name] = {
                "columns": connection.execute(f"PRAGMA table_info('{name}')").fetchall(),
                "foreign_keys": sorted(row[1:] for row in connection.execute(  # not its number
                    f"PRAGMA foreign_key_list('{name}')")),
                "indexes": sorted(
                    (unique, origin, tuple(col[2] or "(expression)" for col in connection.execute(
                        f"PRAGMA index_info('{index}')")),
                     index if origin == "c" else "")
                    for _, index, unique, origin, _ in connection.execute(
                        f"PRAGMA index_list('{name}')")),
            }
        return schema
    finally:
        connection.close()


# ---------------------------------------------------------------- the revisions

@sqlite_only
def test_the_first_revision_is_the_schema_the_first_release_made(
        empty_app: Flask, tmp_path: Path) -> None:
    migrations.migrate(empty_app, migrations.FIRST, backup=False)
    with empty_app.app_context():
        built = Path(str(db.engine.url.database))
    assert schema_of(built) == schema_of(release_file(tmp_path / "release.sqlite"))


def test_the_head_revision_builds_exactly_the_models(empty_app: Flask) -> None:
    """A column added to a model without its revision fails here."""
    done = migrations.migrate(empty_app, "head", backup=False)
    assert (done.before, done.after) == (None, migrations.head())
    with empty_app.app_context(), db.engine.connect() as connection:
        assert migrations.differences(connection) == []


def test_every_revision_has_an_upgrade_test() -> None:
    revisions = [script.revision for script in migrations.scripts().walk_revisions()]
    assert revisions[-1] == migrations.FIRST
    assert sorted(revisions[:-1]) == sorted(ADDED)


@pytest.mark.parametrize("revision", sorted(ADDED))
def test_each_revision_keeps_every_row_written_before_it(
        revision: str, empty_app: Flask, release: dict[str, list[dict[str, Any]]]) -> None:
    script = migrations.scripts().get_revision(revision)
    assert script is not None and isinstance(script.down_revision, str)
    at_revision(empty_app, script.down_revision, release)
    done = migrations.migrate(empty_app, revision, backup=False)
    assert (done.before, done.after) == (script.down_revision, revision)
    assert_every_row_survives(release, rows_of(empty_app), added_up_to(revision),
                              removed_up_to(revision), _up_to(REWRITTEN, revision))


def test_0003_keeps_every_entry_unlinked_and_the_next_buy_in_gets_a_record(
        empty_app: Flask, release: dict[str, list[dict[str, Any]]], auth: dict[str, str]) -> None:
    """The player records start empty: the entries of the event in the database keep
    their names and read no record; the event goes on, and a new buy-in makes one."""
    at_revision(empty_app, "0002", release)
    migrations.migrate(empty_app, "0003", backup=False)
    after = rows_of(empty_app)
    assert [row["name"] for row in after["player"]] == [row["name"] for row in release["player"]]
    assert {row["person_id"] for row in after["player"]} == {None}
    assert after["person"] == [] and after["league"] == []
    migrations.migrate(empty_app, "head", backup=False)     # the code of today goes on
    client: FlaskClient = empty_app.test_client()
    answer = client.post("/api/tournaments/1/money/entries", headers=auth,
                         json={"kind": "buy-in", "name": "Late Larry"})
    assert answer.status_code == 201, answer.get_json()
    records = rows_of(empty_app)["person"]
    assert [(row["name"], row["key"]) for row in records] == [("Late Larry", "late larry")]


def test_a_downgrade_drops_the_new_columns_and_keeps_every_row(
        empty_app: Flask, release: dict[str, list[dict[str, Any]]]) -> None:
    """SQLite drops a column by copying the table: with the foreign keys on, dropping the
    old ``tournament`` would delete every player, seat and hand (``ON DELETE CASCADE``)."""
    at_revision(empty_app, migrations.FIRST, release)
    migrations.migrate(empty_app, "head", backup=False)
    done = migrations.migrate(empty_app, migrations.FIRST, down=True, backup=False)
    assert (done.before, done.after) == (migrations.head(), migrations.FIRST)
    assert_every_row_survives(release, rows_of(empty_app), {}, {},
                              _up_to(REWRITTEN, migrations.head()))
    assert "status" not in columns_of(empty_app)["tournament"]


def test_0006_downgrade_writes_back_the_breaking_order_and_the_halted_tables(
        empty_app: Flask) -> None:
    """The two dropped columns come back as the rules derive them: the director's
    breaking order, and a table 3 players short whose big blind has gone (TDA 11-D)."""
    migrations.migrate(empty_app, "head", backup=False)
    with empty_app.app_context():
        level = {"game": "PO", "duration_seconds": 1200, "small_blind": 100, "big_blind": 200}
        tid = tournaments.create_tournament("Derived", [level]).id
        seating.configure(tid, {"table_size": 6, "breaking_order": [2, 3, 1]})
        for i in range(18):
            seating.register_player(tid, f"Player {i + 1:02d}", 10_000)
        seating.draw(tid, random.Random(6))
        layout = seating.load_layout(tid)
        table = deal_hand(layout.table(1))
        gone = sorted(table.seats, key=lambda seat: seat != table.bb_seat)[:3]  # the big blind first
        layout = remove_players(layout.with_table(table),
                                [table.seats[seat].player_id for seat in gone])
        seating.store_layout(tid, layout)
        db.session.commit()
        view = seating.overview(tid)
        assert (view.halted, view.breaking_order) == ([1], [2, 3, 1])
    migrations.migrate(empty_app, "0005", down=True, backup=False)
    assert {row["number"]: (row["break_position"], bool(row["halted"]))
            for row in rows_of(empty_app)["seating_table"]} == {
        1: (3, True), 2: (1, False), 3: (2, False)}


def autoincrement_tables(app: Flask) -> set[str]:
    """The SQLite tables made with AUTOINCREMENT (their ids are never used twice)."""
    with app.app_context(), db.engine.connect() as connection:
        return {name for name, sql in connection.exec_driver_sql(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table'")
            if "AUTOINCREMENT" in (sql or "").upper()}


def unordered(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema_of`` without the order of the columns (a column added by a revision
    comes last) and without SQLite's own counters table."""
    return {name: {**table, "columns": sorted(column[1:] for column in table["columns"])}
            for name, table in schema.items() if name != "sqlite_sequence"}


@sqlite_only
def test_0007_gives_every_id_autoincrement_and_never_reuses_a_deleted_event_s_id(
        empty_app: Flask, make_app: Callable[..., Flask], tmp_path: Path,
        release: dict[str, list[dict[str, Any]]]) -> None:
    """The release's tables are rebuilt with AUTOINCREMENT, as ``create_all`` makes them
    now; their counters start past the highest id, and past an event a league names
    that was deleted before the upgrade (event 8)."""
    rows = {**release, "league": [{"id": 1, "name": "Season", "formula": "simple",
                                   "tournament_ids": [1, 8],
                                   "created_at": datetime(2026, 12, 1, tzinfo=UTC)}]}
    at_revision(empty_app, "0006", rows)
    assert autoincrement_tables(empty_app) == {"change_feed"}
    migrations.migrate(empty_app, "0007", backup=False)
    assert "tournament" in autoincrement_tables(empty_app)
    migrations.migrate(empty_app, "head", backup=False)      # then compared with today's
    fresh = make_app(SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'fresh.sqlite'}")
    with empty_app.app_context():
        built = Path(str(db.engine.url.database))
    assert autoincrement_tables(empty_app) == autoincrement_tables(fresh)
    assert "tournament" in autoincrement_tables(empty_app)
    assert unordered(schema_of(built)) == unordered(schema_of(tmp_path / "fresh.sqlite"))
    with empty_app.app_context():
        created = tournaments.create_tournament("After the upgrade", [
            {"game": "PO", "duration_seconds": 1200, "small_blind": 100, "big_blind": 200}])
        assert created.id == 9
        counters = dict(db.session.execute(text("SELECT name, seq FROM sqlite_sequence")).all())
    highest = {table: max(row["id"] for row in found) for table, found in release.items()
               if found and "id" in found[0] and table != "dealer_pairing"}
    assert all(counters[table] >= top for table, top in highest.items()), (counters, highest)
    migrations.migrate(empty_app, "0006", down=True, backup=False)
    assert autoincrement_tables(empty_app) == {"change_feed"}


def test_0008_rewrites_the_plans_written_before_and_their_undo_still_works(
        empty_app: Flask) -> None:
    """A plan confirmed before the upgrade (the whole room before and after it) keeps the
    tables it changed; undoing it after the upgrade gives the room back as it was, and
    the downgrade writes the pending plan's room back for the earlier code."""
    from director.models.seating import SeatingPlanRecord
    from director.tournament.seating import Layout
    migrations.migrate(empty_app, "head", backup=False)   # the event made by today's code
    client, auth = empty_app.test_client(), {"Authorization": f"Bearer {TOKEN}"}
    tid = client.post("/api/tournaments", headers=auth, json={"name": "Before", "levels": [
        {"game": "PO", "duration_seconds": 1200, "small_blind": 100, "big_blind": 200}]}
    ).get_json()["id"]
    assert client.post(f"/api/tournaments/{tid}/money/settings", headers=auth, json={
        "buy_in": "100", "starting_stack": 20_000, "late_registration_level": 6}).status_code == 200
    for i in range(30):
        assert client.post(f"/api/tournaments/{tid}/money/entries", headers=auth, json={
            "kind": "buy-in", "name": f"Player {i:02d}"}).status_code == 201
    assert client.post(f"/api/tournaments/{tid}/seating/draw", headers=auth).status_code == 200

    def room() -> Any:
        with empty_app.app_context():
            return seating.load_layout(tid)

    tables = client.get(f"/api/tournaments/{tid}/seating").get_json()["tables"]
    short = min(tables, key=lambda t: len(t["seats"]))
    plan = client.post(f"/api/tournaments/{tid}/seating/eliminate", headers=auth, json={
        "player_ids": [short["seats"][0]["player_id"]]}).get_json()["pending_plan"]
    before = room()
    assert client.post(f"/api/tournaments/{tid}/seating/plans/{plan['id']}/confirm",
                       headers=auth).status_code == 200
    after = room()
    migrations.migrate(empty_app, "0007", down=True, backup=False)
    with empty_app.app_context():     # the record as the code before this revision wrote it
        record = db.session.get(SeatingPlanRecord, plan["id"])
        record.layout_before, record.layout_after = before.to_json(), after.to_json()
        db.session.commit()
    migrations.migrate(empty_app, "0008", backup=False)
    with empty_app.app_context():
        record = db.session.get(SeatingPlanRecord, plan["id"])
        changed = record.layout_after["numbers"]
        assert record.layout_after["digest"] == seating.layout_digest(after)
        assert 0 < len(changed) < len(after.tables)
        assert [t["number"] for t in record.layout_before["tables"]] == \
            [n for n in changed if n in before.numbers]
    migrations.migrate(empty_app, "head", backup=False)
    assert client.post(f"/api/tournaments/{tid}/seating/undo", headers=auth).status_code == 200
    assert room() == before
    migrations.migrate(empty_app, "0007", down=True, backup=False)
    with empty_app.app_context():
        record = db.session.get(SeatingPlanRecord, plan["id"])
        assert record.status == "pending"
        assert Layout.from_json(record.layout_before) == before


def test_0009_stores_the_entries_at_each_bust_and_the_final_place_counts_later_entries(
        empty_app: Flask, release: dict[str, list[dict[str, Any]]], auth: dict[str, str]) -> None:
    """The release's bust (Oda, 16th of 16) is given the entries made up to it; an entry
    made after her bust (here one more row, before the upgrade) moves her final place
    down to 17th, as the registration times said before the upgrade."""
    oda = next(row for row in release["player"] if row["status"] == "eliminated")
    late = {**release["player"][-1], "id": 99, "name": "Late Lou", "status": "active",
            "created_at": oda["eliminated_at"] + timedelta(minutes=5)}
    at_revision(empty_app, "0008", {**release, "player": [*release["player"], late]})
    migrations.migrate(empty_app, "0009", backup=False)
    stored = {row["id"]: row["entries_when_out"] for row in rows_of(empty_app)["player"]}
    assert stored[oda["id"]] == len(release["player"]) == 16
    assert {value for pid, value in stored.items() if pid != oda["id"]} == {None}
    migrations.migrate(empty_app, "head", backup=False)
    results = empty_app.test_client().get("/api/tournaments/1/results").get_json()["results"]
    assert [(r["name"], r["place"]) for r in results] == [(oda["name"], 17)]
    migrations.migrate(empty_app, "0008", down=True, backup=False)
    assert "entries_when_out" not in columns_of(empty_app)["player"]
    assert len(rows_of(empty_app)["player"]) == 17


def test_0010_fills_the_search_words_of_every_record_and_the_search_finds_them(
        empty_app: Flask, release: dict[str, list[dict[str, Any]]], auth: dict[str, str]) -> None:
    """The records written before the upgrade are found by any word's start, case and
    accents aside, by the desk's suggestions and the director's list; the downgrade drops
    the words and keeps the records."""
    added = datetime(2026, 12, 1, tzinfo=UTC)
    people = [{"id": 1, "name": "Dan Öberg", "key": "dan öberg", "nickname": "Danny Boy",
               "email": None, "phone": None, "note": None, "created_at": added},
              {"id": 2, "name": "Ann-Marie Berg", "key": "ann-marie berg", "nickname": None,
               "email": None, "phone": None, "note": None, "created_at": added}]
    at_revision(empty_app, "0009", {**release, "person": people})
    migrations.migrate(empty_app, "0010", backup=False)
    words = {(row["person_id"], row["word"]) for row in rows_of(empty_app)["person_word"]}
    assert words == {(1, "dan oberg"), (1, "oberg"), (1, "danny boy"), (1, "boy"),
                     (2, "ann-marie berg"), (2, "marie berg"), (2, "berg")}
    migrations.migrate(empty_app, "head", backup=False)     # the code of today searches
    client: FlaskClient = empty_app.test_client()

    def suggested(query: str) -> list[str]:
        found = client.get(f"/api/players/suggest?q={query}", headers=auth).get_json()
        return [p["name"] for p in found["players"]]

    assert suggested("OBE") == ["Dan Öberg"] and suggested("boy") == ["Dan Öberg"]
    assert suggested("mar") == ["Ann-Marie Berg"]
    assert suggested("berg") == ["Ann-Marie Berg"]       # Öberg's "berg" is inside a word
    listed = client.get("/api/players?q=dan", headers=auth).get_json()
    assert [p["name"] for p in listed["players"]] == ["Dan Öberg"] and listed["matches"] == 1
    migrations.migrate(empty_app, "0009", down=True, backup=False)
    assert "person_word" not in columns_of(empty_app)
    assert [row["name"] for row in rows_of(empty_app)["person"]] == ["Dan Öberg",
                                                                   "Ann-Marie Berg"]


def with_asa(release: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The release's players, Ann renamed "Åsa Öberg" (letters beyond A-Z)."""
    return [{**row, "name": "Åsa Öberg"} if row["name"] == "Ann" else row
            for row in release["player"]]


def test_0011_folds_every_players_name_and_find_my_seat_finds_them(
        empty_app: Flask, release: dict[str, list[dict[str, Any]]]) -> None:
    """The release's players get their names folded; after the upgrade a player finds his
    seat by any part of his name, case and accents aside; the downgrade drops the column
    and keeps the players."""
    players = with_asa(release)
    at_revision(empty_app, "0010", {**release, "player": players})
    migrations.migrate(empty_app, "0011", backup=False)
    folded = {row["name"]: row["search_name"] for row in rows_of(empty_app)["player"]}
    assert folded["Åsa Öberg"] == "asa oberg" and folded["Gus"] == "gus"
    assert None not in folded.values()
    migrations.migrate(empty_app, "head", backup=False)
    client: FlaskClient = empty_app.test_client()
    found = client.get("/seats/1?q=OBERG").get_data(as_text=True)
    assert "Åsa Öberg" in found
    migrations.migrate(empty_app, "0010", down=True, backup=False)
    assert "search_name" not in columns_of(empty_app)["player"]
    assert len(rows_of(empty_app)["player"]) == len(release["player"])


def _player_name_indexes(app: Flask) -> set[str]:
    """The player table's indexes by name (SQLite's own list: it cannot reflect one on
    an expression)."""
    with app.app_context(), db.engine.connect() as connection:
        if connection.dialect.name == "sqlite":
            return {row[0] for row in connection.execute(text(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'player'"))}
        return {index["name"] for index in inspect(connection).get_indexes("player")}


def test_0018_keys_every_players_name_and_the_same_name_is_refused_in_any_case(
        empty_app: Flask, release: dict[str, list[dict[str, Any]]]) -> None:
    """The release's players get their names' keys (casefolded: "Åsa Öberg" -> "åsa
    öberg", on SQLite too) and the index on them; after the upgrade the event refuses
    a second "ÅSA ÖBERG"; the downgrade drops the column, puts 0017's index back and
    keeps the players."""
    players = with_asa(release)
    at_revision(empty_app, "0017", {**release, "player": players})
    migrations.migrate(empty_app, "0018", backup=False)
    keys = {row["name"]: row["name_key"] for row in rows_of(empty_app)["player"]}
    assert keys["Åsa Öberg"] == "åsa öberg" and keys["Gus"] == "gus"
    assert None not in keys.values()
    indexes = _player_name_indexes(empty_app)
    assert "ix_player_name_key" in indexes and "ix_player_name" not in indexes
    migrations.migrate(empty_app, "head", backup=False)
    with empty_app.app_context():
        tournament_id = next(row["tournament_id"] for row in players
                             if row["name"] == "Åsa Öberg")
        with pytest.raises(Invalid) as refused:
            seating.register_player(tournament_id, "ÅSA ÖBERG", 10_000)
        assert "name" in refused.value.errors
    migrations.migrate(empty_app, "0017", down=True, backup=False)
    assert "name_key" not in columns_of(empty_app)["player"]
    indexes = _player_name_indexes(empty_app)
    assert "ix_player_name" in indexes and "ix_player_name_key" not in indexes
    assert len(rows_of(empty_app)["player"]) == len(release["player"])


def test_0012_keeps_each_records_csv_cells_and_the_export_writes_them(
        empty_app: Flask, release: dict[str, list[dict[str, Any]]], auth: dict[str, str]) -> None:
    """The release's records get their CSV cells (a formula guarded, a comma quoted);
    the export after the upgrade is the same file as one made from the records
    themselves; the downgrade drops the column and keeps the records."""
    added = datetime(2026, 12, 1, tzinfo=UTC)
    persons = [{"id": 1, "name": "Dan Öberg", "key": "dan öberg", "nickname": "=1+1",
                "email": None, "phone": None, "note": 'says "hi"', "created_at": added},
               {"id": 2, "name": "Berg, Ann", "key": "berg, ann", "nickname": None,
                "email": None, "phone": "+46 70", "note": None, "created_at": added}]
    at_revision(empty_app, "0011", {**release, "person": persons})
    migrations.migrate(empty_app, "0012", backup=False)
    cells = {row["name"]: row["csv_cells"] for row in rows_of(empty_app)["person"]}
    assert cells == {"Dan Öberg": "Dan Öberg,'=1+1,,,\"says \"\"hi\"\"\"",
                     "Berg, Ann": "\"Berg, Ann\",,,'+46 70,"}
    migrations.migrate(empty_app, "head", backup=False)
    client: FlaskClient = empty_app.test_client()
    exported = client.get("/api/players.csv", headers=auth).get_data(as_text=True)
    lines = exported.splitlines()
    assert lines[1].startswith("2,\"Berg, Ann\",,,'+46 70,,0,") and \
        lines[2].startswith("1,Dan Öberg,'=1+1,,,\"says \"\"hi\"\"\",0,")
    migrations.migrate(empty_app, "0011", down=True, backup=False)
    assert "csv_cells" not in columns_of(empty_app)["person"]
    assert len(rows_of(empty_app)["person"]) == len(persons)


# ---------------------------------------------------------------- the event goes on

def test_0016_keeps_which_events_started_and_a_cancelled_one_reopens_as_it_was(
        empty_app: Flask, release: dict[str, list[dict[str, Any]]], auth: dict[str, str]) -> None:
    """The release's event (its clock running) started; an event cancelled at its second
    level started; a cancelled one whose clock never ran and one still registering did
    not.  After the upgrade each reopens as the rule of before said."""
    first = {**release["tournament"][0], "status": "running"}   # each row the same columns
    never = {**first, "running": False, "started_at": None, "elapsed_before": 0.0,
             "level_index": 0}
    events = [first,
              {**never, "id": 2, "status": "cancelled", "level_index": 1},
              {**never, "id": 3, "status": "cancelled"},
              {**never, "id": 4, "status": "registering"}]
    at_revision(empty_app, "0015", {**release, "tournament": events})
    migrations.migrate(empty_app, "0016", backup=False)
    started = {row["id"]: row["clock_started"] for row in rows_of(empty_app)["tournament"]}
    assert {tid: bool(value) for tid, value in started.items()} == \
        {1: True, 2: True, 3: False, 4: False}
    migrations.migrate(empty_app, "head", backup=False)
    client: FlaskClient = empty_app.test_client()
    for tid, status in ((2, "running"), (3, "registering")):
        answer = client.post(f"/api/tournaments/{tid}/reopen", headers=auth)
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["status"] == status
    migrations.migrate(empty_app, "0015", down=True, backup=False)
    assert "clock_started" not in columns_of(empty_app)["tournament"]
    assert len(rows_of(empty_app)["tournament"]) == 4


def test_an_event_mid_level_goes_on_after_the_upgrade_to_the_head(
        empty_app: Flask, release: dict[str, list[dict[str, Any]]], auth: dict[str, str]) -> None:
    at_revision(empty_app, migrations.FIRST, release)
    done = migrations.prepare(empty_app, backup=False)
    assert (done.before, done.after) == (migrations.FIRST, migrations.head())
    assert_every_row_survives(release, rows_of(empty_app), added_up_to(migrations.head()),
                              removed_up_to(migrations.head()),
                              _up_to(REWRITTEN, migrations.head()))

    client: FlaskClient = empty_app.test_client()
    money = client.get("/api/tournaments/1/money", headers=auth).get_json()
    assert client.get("/api/tournaments/1/clock").get_json()["running"] is True
    assert money["entries"] == 16 and money["rebuys"] == 1
    seating = client.get("/api/tournaments/1/seating").get_json()
    assert sum(len(table["seats"]) for table in seating["tables"]) == 15
    hand = client.get("/api/tables/1/hand", headers=auth).get_json()
    assert hand["hand_id"] == 3 and not hand["finished"]
    hand = drive(client, "/api/tables/1", auth, hand, passive)   # the hand in play goes on
    winner = hand["seats"][0]["seat"]
    answer = client.post("/api/tables/1/hand/award", headers=auth,
                         json={"high": [[winner]], "version": hand["version"]})
    assert answer.status_code == 200 and answer.get_json()["finished"], answer.get_json()
    assert client.post("/api/tournaments/1/clock/pause", headers=auth).status_code == 200
    out = seating["tables"][1]["seats"][0]["player_id"]        # new rows: the next ids
    answer = client.post("/api/tournaments/1/seating/eliminate", headers=auth,
                         json={"player_id": out})
    assert answer.status_code == 200, answer.get_json()
    assert len(rows_of(empty_app)["seating_log"]) > len(release["seating_log"])


def test_init_db_stamps_a_database_of_the_first_release_and_upgrades_it(
        make_app: Callable[..., Flask], app_config: dict[str, Any], tmp_path: Path,
        release: dict[str, list[dict[str, Any]]]) -> None:
    """The release made its tables with ``create_all``: no ``alembic_version``."""
    if POSTGRES_URL:
        app = make_app(tables=False)
        at_revision(app, migrations.FIRST, release)
        with app.app_context(), db.engine.begin() as connection:
            connection.execute(text("DROP TABLE alembic_version"))
    else:
        database = Path(app_config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///"))
        release_file(database)
        app = make_app(tables=False)
    output = app.test_cli_runner().invoke(args=["init-db"]).output
    assert f"Database upgraded from revision {migrations.FIRST} to {migrations.head()}" in output
    assert len(rows_of(app)["payment"]) == 17
    if not POSTGRES_URL:       # the copy is the release's file, as it was (pg_dump: best effort)
        copies = list((tmp_path / "instance" / "backups").glob("before-upgrade-0001-*"))
        assert len(copies) == 1 and str(copies[0]) in output
        assert schema_of(copies[0]) == schema_of(release_file(tmp_path / "again.sqlite"))
    again = app.test_cli_runner().invoke(args=["init-db"]).output
    assert again.strip() == f"Database ready (revision {migrations.head()})."


def test_init_db_creates_a_new_database_at_the_head(empty_app: Flask) -> None:
    output = empty_app.test_cli_runner().invoke(args=["init-db"]).output
    assert output.strip() == f"Database created (revision {migrations.head()})."
    with empty_app.app_context(), db.engine.connect() as connection:
        assert migrations.current(connection) == migrations.head()
        assert migrations.differences(connection) == []


def test_a_database_made_by_create_all_of_this_version_is_stamped_at_the_head(
        app: Flask, tmp_path: Path) -> None:
    output = app.test_cli_runner().invoke(args=["init-db"]).output
    assert output.strip() == f"Database ready (revision {migrations.head()})."
    assert not (tmp_path / "instance" / "backups").exists()


@sqlite_only
def test_no_copy_no_upgrade(make_app: Callable[..., Flask], app_config: dict[str, Any],
                            tmp_path: Path) -> None:
    database = Path(app_config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///"))
    release_file(database)
    app = make_app(tables=False)
    (tmp_path / "instance" / "backups").write_text("a file where the folder should be")
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 1
    assert "No migration: the database could not be copied first" in result.output
    assert "Traceback" not in result.output
    assert schema_of(database) == schema_of(release_file(tmp_path / "again.sqlite"))


@sqlite_only
def test_a_database_of_another_program_is_left_alone(make_app: Callable[..., Flask],
                                                     app_config: dict[str, Any]) -> None:
    database = Path(app_config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///"))
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE recipes (id INTEGER PRIMARY KEY)")
    connection.close()
    result = make_app(tables=False).test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 1
    assert "This is not a director database (no tournament table): its tables are recipes" \
        in result.output


# ---------------------------------------------------------------- director db ...

def test_db_commands_upgrade_downgrade_and_show_the_history(
        empty_app: Flask, release: dict[str, list[dict[str, Any]]], tmp_path: Path) -> None:
    runner = empty_app.test_cli_runner()
    history = runner.invoke(args=["db", "history"]).output
    assert history.splitlines()[0].startswith(f"{migrations.FIRST}  The schema of the first")
    assert "The database has no revision yet" in history
    at_revision(empty_app, migrations.FIRST, release)
    history = runner.invoke(args=["db", "history"]).output
    assert history.splitlines()[0].startswith(f"{migrations.FIRST} (current)  ")
    assert history.splitlines()[-1].startswith(f"{migrations.head()} (head)  ")

    up = runner.invoke(args=["db", "upgrade"]).output
    assert f"Database upgraded from revision {migrations.FIRST} to {migrations.head()}" in up
    assert runner.invoke(args=["db", "upgrade"]).output.strip() == \
        f"Database ready (revision {migrations.head()})."
    refused = runner.invoke(args=["db", "downgrade"], input="n\n")
    assert refused.exit_code == 1 and "Aborted" in refused.output
    down = runner.invoke(args=["db", "downgrade", "--yes"]).output
    assert f"Database downgraded from revision {migrations.head()} to " in down
    wrong = runner.invoke(args=["db", "upgrade", "9999"])
    assert wrong.exit_code == 1 and "9999" in wrong.output and "Traceback" not in wrong.output
    assert len(rows_of(empty_app)["payment"]) == 17
    copies = sorted(path.name.rsplit("-", 2)[0] for path in (tmp_path / "instance" / "backups").iterdir())
    # On PostgreSQL too: pg_dump copies only this server's schema, so the other
    # schemas the parallel test workers create and drop meanwhile cannot fail it.
    assert copies == [f"before-downgrade-{migrations.head()}", "before-upgrade-0001"]


def test_the_director_command_has_the_db_group() -> None:
    from director import cli

    result = CliRunner().invoke(cli.main, ["db", "--help"])
    assert result.exit_code == 0
    assert {"upgrade", "downgrade", "history"} <= set(result.output.split())


# ---------------------------------------------------------------- director serve

def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def director_serve(instance: Path, log: Path, *args: str,
                   **settings: str) -> Iterator[tuple[str, int]]:
    """``director serve`` in a process of its own on ``instance`` (its SQLite file there),
    with ``DIRECTOR_<settings>``; yields its address and port once it answers."""
    port = _free_port()
    env = {**os.environ, "DIRECTOR_INSTANCE_PATH": str(instance), "DIRECTOR_TOKEN": TOKEN,
           "DIRECTOR_SCHEDULER": "off", "HOST": "127.0.0.1", "PORT": str(port),
           **{f"DIRECTOR_{name}": value for name, value in settings.items()}}
    env.pop("DIRECTOR_DATABASE_URL", None)
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-c", "from director.cli import main; main()",
                                    "serve", *args], env=env, stdout=out,
                                   stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, log.read_text()
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}", port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def served_release(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """``director serve`` started on the release's database file (no init-db first)."""
    instance = tmp_path / "instance"
    instance.mkdir()
    release_file(instance / "director.sqlite")
    log = tmp_path / "serve.log"
    with director_serve(instance, log) as (url, _port):
        yield url, log


@sqlite_only
def test_serve_upgrades_the_database_on_start_after_copying_it(
        served_release: tuple[str, Path], tmp_path: Path) -> None:
    url, log = served_release
    request = urllib.request.Request(f"{url}/api/tournaments/1/money",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
    copies = list((tmp_path / "instance" / "backups").glob("before-upgrade-0001-*.sqlite"))
    assert len(copies) == 1
    assert f"Database upgraded from revision 0001 to {migrations.head()}" in log.read_text()
    assert schema_of(copies[0]) == schema_of(release_file(tmp_path / "again.sqlite"))
