"""The change feed (issue 18): a change committed through one server process reaches
the screens of another, whatever its kind (clock, seating, money, hands), and a
tablet revoked through one is refused by the other at once.

Two "processes" are two app objects on one database (the test's SQLite file, with
``CHANGE_FEED=table``; or with ``make test-postgres`` a PostgreSQL schema, where the
feed is LISTEN/NOTIFY), and one test makes the change from a real second process.
The version watcher is slowed down to an hour, so only the feed can tell."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from flask import Flask
from flask.testing import FlaskClient

from director import ROOT
from director.db import db
from director.services import change_feed, dealer_pairing
from director.services.events import events
from tests.conftest import POSTGRES_URL, TOKEN
from tests.web.test_dealer_helpers import seat_table
from tests.web.test_events import Stream

DEADLINE = 2.0   # seconds: the feed's poll is 0.2 s on SQLite; NOTIFY is immediate


@pytest.fixture
def app_config(app_config: dict[str, Any]) -> dict[str, Any]:
    return {**app_config, "CHANGE_FEED": "auto" if POSTGRES_URL else "table",
            "SSE_WATCH_SECONDS": 3600}


@pytest.fixture
def other(make_app: Callable[..., Flask]) -> Flask:
    """The second server process (the ``app`` fixture is the first)."""
    return make_app()


class Screen(Stream):
    """A stream that knows its events' names."""

    def next_named(self, name: str, timeout: float = DEADLINE) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            block = self.next_block(max(0.01, deadline - time.monotonic())).decode()
            lines = block.splitlines()
            if f"event: {name}" in lines:
                return dict(json.loads("".join(line[5:] for line in lines if line.startswith("data:"))))


@pytest.fixture
def screen_on(request: pytest.FixtureRequest) -> Iterator[Callable[..., Screen]]:
    screens: list[tuple[Flask, Screen]] = []

    def open_(app: Flask, tournament_id: int, table: int | None = None) -> Screen:
        asked = "" if table is None else f"?table={table}"
        response = app.test_client().get(f"/clock/{tournament_id}/events{asked}", buffered=False)
        assert response.status_code == 200
        screen = Screen(response)
        screens.append((app, screen))
        screen.next_named("clock")      # the state it starts from
        return screen

    yield open_
    for app, screen in screens:
        events(app).close()
        screen.close()


def test_one_process_on_sqlite_keeps_the_feed_in_memory(make_app: Callable[..., Flask],
                                                        tmp_path: Path) -> None:
    app = make_app(tables=False, CHANGE_FEED="auto", SQLALCHEMY_ENGINE_OPTIONS={"pool_pre_ping": True},
                   SQLALCHEMY_DATABASE_URI=f"sqlite:///{tmp_path / 'one.sqlite'}")
    assert change_feed.backend(app) == "memory"
    assert isinstance(events(app).feed, change_feed.MemoryFeed)


def test_postgresql_tells_the_other_processes_by_notify(make_app: Callable[..., Flask]) -> None:
    pytest.importorskip("psycopg", reason="the PostgreSQL driver (pip install -e '.[postgres]')")
    app = make_app(tables=False, CHANGE_FEED="auto",
                   SQLALCHEMY_DATABASE_URI="postgresql://u:p@127.0.0.1:1/none")
    assert change_feed.backend(app) == "postgres"


def test_an_unknown_backend_is_refused_with_the_setting_named(make_app: Callable[..., Flask]) -> None:
    with pytest.raises(ValueError, match="DIRECTOR_CHANGE_FEED must be one of"):
        make_app(tables=False, CHANGE_FEED="carrier pigeon")


def test_a_clock_change_through_one_process_reaches_the_screens_of_the_other(
        other: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], screen_on: Callable[..., Screen]) -> None:
    tid = make_tournament()
    screen = screen_on(other, tid)
    started = time.monotonic()
    assert client.post(f"/api/tournaments/{tid}/clock/start", headers=auth).status_code == 200
    state = screen.next_named("clock")
    assert state["running"] is True and state["tournament_id"] == tid
    assert time.monotonic() - started < DEADLINE


def test_seating_money_and_a_dealer_action_reach_the_screens_of_the_other(
        other: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], screen_on: Callable[..., Screen]) -> None:
    table = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    tid = table["tournament_id"]
    screen = screen_on(other, tid, table["id"])        # the table's tablet
    clock = screen_on(other, tid)                       # a screen of no table
    # money: a buy-in seats a player (the seating screens and the players left)
    r = client.post(f"/api/tournaments/{tid}/money/entries", json={"kind": "buy-in", "name": "Eve"},
                    headers=auth)
    assert r.status_code == 201, r.get_json()
    assert screen.next_named("seating")["tournament_id"] == tid
    assert screen.next_named("clock")["players_left"] == 5
    # a dealer deals and acts: the other process's tablets hear of the hand
    hand = client.post(f"/api/tables/{table['id']}/hands", json={}, headers=auth).get_json()
    dealt = screen.next_named("dealer")
    assert (dealt["table_id"], dealt["hand_id"]) == (table["id"], hand["hand_id"])
    r = client.post(f"/api/tables/{table['id']}/hand/actions", headers=auth, json={
        "seat": hand["to_act"], "action": "fold", "version": hand["version"]})
    assert r.status_code == 200, r.get_json()
    acted = screen.next_named("dealer")
    assert acted["version"] == r.get_json()["version"] > hand["version"]
    # the screen of no table was told the buy-in and the clock, never the hand
    assert client.post(f"/api/tournaments/{tid}/clock/start", headers=auth).status_code == 200
    names: list[str] = []
    while not names or names[-1] != "running":
        block = clock.next_block(DEADLINE).decode()
        names += [line[7:] for line in block.splitlines() if line.startswith("event: ")]
        names += ["running"] if '"running":true' in block else []
    assert "seating" in names and "dealer" not in names, names


def test_a_tablet_revoked_through_one_process_is_refused_by_the_other_at_once(
        other: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dealer_pairing, "DEVICE_TTL", 3600.0)   # only the feed can tell
    table = seat_table(client, make_tournament, auth, ["Ann", "Bo", "Cy", "Di"])
    token = client.post("/api/dealer/pair", json={"table": table["number"],
                                                   "code": table["code"]}).get_json()["token"]
    tablet = {"Authorization": f"Bearer {token}"}
    on_other = other.test_client()
    events(other).start_feed()
    assert on_other.post(f"/api/tables/{table['id']}/hands", json={}, headers=tablet).status_code == 201
    assert client.post(f"/api/tables/{table['id']}/dealer/revoke", headers=auth).status_code == 200
    revoked = time.monotonic()
    while on_other.post(f"/api/tables/{table['id']}/hand/undo", json={},
                        headers=tablet).status_code != 401:
        assert time.monotonic() - revoked < DEADLINE, "the other process still lets the tablet in"
        time.sleep(0.05)


SECOND_PROCESS = """
import json, os, sys
from director import create_app
app = create_app(json.loads(os.environ["DIRECTOR_TEST_APP"]))
answer = app.test_client().post(f"/api/tournaments/{sys.argv[1]}/clock/start",
                                headers={"Authorization": "Bearer " + app.config["TOKEN"]})
print(answer.status_code)
"""


def test_a_change_made_by_another_os_process_reaches_the_screens(
        app: Flask, app_config: dict[str, Any], make_tournament: Callable[..., int],
        screen_on: Callable[..., Screen]) -> None:
    tid = make_tournament()
    screen = screen_on(app, tid)
    config = {**app_config, "SQLALCHEMY_DATABASE_URI": app.config["SQLALCHEMY_DATABASE_URI"],
              "TOKEN": TOKEN}
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DIRECTOR_TEST_APP": json.dumps(config)}
    done = subprocess.run([sys.executable, "-c", SECOND_PROCESS, str(tid)], env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.stdout.strip() == "200", done.stderr[-2000:]
    assert screen.next_named("clock")["running"] is True


def test_a_change_is_still_told_after_the_database_dropped_the_senders_connection(
        app: Flask, other: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], screen_on: Callable[..., Screen]) -> None:
    """The NOTIFY goes out on a connection the feed keeps; one the database ended (a
    restart, a dropped link) is opened again for the next change, none is lost."""
    if not POSTGRES_URL:
        pytest.skip("LISTEN/NOTIFY: make test-postgres")
    tid = make_tournament()
    screen = screen_on(other, tid)
    assert client.post(f"/api/tournaments/{tid}/clock/start", headers=auth).status_code == 200
    assert screen.next_named("clock")["running"] is True
    with app.app_context(), db.engine.connect() as connection:
        ended = connection.scalar(sqlalchemy.text(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = :name AND query LIKE 'SELECT pg_notify%' "
            "AND pid <> pg_backend_pid()"), {"name": app.config["TEST_SCHEMA"]})
    assert ended == 1                  # the feed's one sending connection
    assert client.post(f"/api/tournaments/{tid}/clock/pause", headers=auth).status_code == 200
    assert screen.next_named("clock", timeout=DEADLINE + 1)["running"] is False



def test_postgresql_connections_find_a_link_that_died_silently_within_a_minute(
        app: Flask, make_app: Callable[..., Flask]) -> None:
    """The feed keeps its connections for the process's life: on a link that died without
    a word (a second machine's cable) they waited for the kernel, about 15 minutes.  Every
    PostgreSQL connection is opened with libpq's keepalives (dead within 30 + 3 x 10 s
    when idle) and a 30 s timeout on an unacknowledged write; a URL's own value wins."""
    pytest.importorskip("psycopg", reason="the PostgreSQL driver (pip install -e '.[postgres]')")
    configured = make_app(tables=False, SQLALCHEMY_ENGINE_OPTIONS={
        "pool_pre_ping": True, "connect_args": {"application_name": "x"}},
        SQLALCHEMY_DATABASE_URI="postgresql://u:p@127.0.0.1:1/none?keepalives_idle=5")
    assert configured.config["SQLALCHEMY_ENGINE_OPTIONS"]["connect_args"] == {
        "keepalives": 1, "keepalives_interval": 10, "keepalives_count": 3,
        "tcp_user_timeout": 30_000, "application_name": "x"}
    if not POSTGRES_URL:
        return                       # no server here to open a connection to
    with app.app_context():          # the test's database: what a connection is opened with
        raw = db.engine.raw_connection()
        try:
            opened = raw.driver_connection.info.get_parameters()
        finally:
            raw.close()
    assert (opened["keepalives"], opened["keepalives_idle"], opened["keepalives_count"],
            opened["tcp_user_timeout"]) == ("1", "30", "3", "30000")
