"""A hostile room (issue 26): guessing a table's pairing code, locking the director
out, sessions that outlive a logout, and ids used twice.

Each test tries what a player on the room's Wi-Fi tried: his own table's valid
code between guesses at another table, his guesses spread over the server
processes, his failed logins behind the card room's reverse proxy, a copied
director cookie.
"""

from __future__ import annotations

import http.client
import re
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from director.db import db
from director.models import Tournament
from director.models.people import League, Person
from director.models.seating import Player
from director.models.security import DirectorSession, GuessFailure
from tests.conftest import POSTGRES_URL, TOKEN
from tests.web.test_dealer_helpers import seat_table
from tests.web.test_migrations import director_serve

LEVELS = [{"kind": "level", "game": "PO", "duration_seconds": 1200, "small_blind": 100,
           "big_blind": 200}]
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fi", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lu"]


@pytest.fixture
def two_tables(client: FlaskClient, make_tournament: Callable[..., int],
               auth: dict[str, str]) -> list[dict[str, Any]]:
    """An event with tables 1 and 2 and their pairing codes."""
    t = seat_table(client, make_tournament, auth, NAMES, table_size=6)
    tables = client.get(f"/api/tournaments/{t['tournament_id']}/dealer/pairing",
                        headers=auth).get_json()["tables"]
    assert [table["number"] for table in tables] == [1, 2]
    return [{**table, "tournament_id": t["tournament_id"]} for table in tables]


def pair(app: Flask, table: int, code: str, address: str = "10.0.0.66") -> Any:
    return app.test_client().post("/api/dealer/pair", json={"table": table, "code": code},
                                  environ_base={"REMOTE_ADDR": address})


def wrong_code(*right: str) -> str:
    return next(code for code in ("000000", "111111", "222222") if code not in right)


# ---------------------------------------------------------------- pairing codes

def test_a_valid_code_for_ones_own_table_does_not_reset_the_guesses_at_another_table(
        app: Flask, two_tables: list[dict[str, Any]]) -> None:
    """The attack that found table 13's code in 125 s: pair one's own table between
    wrong guesses.  Now the fifth wrong guess locks the guesser and table 2 alike."""
    own, target = two_tables
    wrong = wrong_code(own["code"], target["code"])
    statuses = []
    for _ in range(5):
        assert pair(app, 1, own["code"]).status_code in (201, 429)
        statuses.append(pair(app, 2, wrong).status_code)
    assert statuses == [400, 400, 400, 400, 429]
    assert pair(app, 2, target["code"]).status_code == 429
    # Table 2 itself is locked: the right code from another tablet is refused too...
    refused = pair(app, 2, target["code"], address="10.0.0.7")
    assert refused.status_code == 429
    assert "ask the director to reset it" in refused.get_json()["error"]
    # ...while table 1 still pairs from any other address.
    assert pair(app, 1, own["code"], address="10.0.0.8").status_code == 201


def test_wrong_codes_from_many_addresses_lock_the_table_until_the_director_resets_it(
        app: Flask, client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
        csrf: Callable[[], str], two_tables: list[dict[str, Any]]) -> None:
    """A guesser who changes his address each time still has five guesses per table; the
    director sees the lock on the Dealer tablets page and resets it (a new code)."""
    target = two_tables[1]
    wrong = wrong_code(target["code"])
    statuses = [pair(app, 2, wrong, address=f"10.0.1.{n}").status_code for n in range(1, 6)]
    assert statuses == [400, 400, 400, 400, 429]
    assert pair(app, 2, target["code"], address="10.0.1.99").status_code == 429
    login()
    page = client.get(f"/director/{target['tournament_id']}/dealers").get_data(as_text=True)
    assert re.search(r"Table 2: pairing locked after 5 wrong codes at \d\d:\d\d", page)
    assert "Table 1: pairing locked" not in page
    listed = client.get(f"/api/tournaments/{target['tournament_id']}/dealer/pairing",
                        headers=auth).get_json()["tables"]
    assert [t["locked"] and t["locked"]["failures"] for t in listed] == [None, 5]
    unlock = f"/director/{target['tournament_id']}/dealers/{target['table_id']}/unlock"
    assert app.test_client().post(unlock).status_code == 302      # the login page: director only
    assert client.post(unlock, data={}).status_code == 400         # no CSRF token
    done = client.post(unlock, data={"csrf_token": csrf()}, follow_redirects=True)
    new_code = re.search(r"its new code is (\d{6})", done.get_data(as_text=True))
    assert done.status_code == 200 and new_code and new_code.group(1) != target["code"]
    assert "pairing locked" not in done.get_data(as_text=True)
    assert pair(app, 2, target["code"], address="10.0.1.100").status_code == 400   # old code
    paired = pair(app, 2, new_code.group(1), address="10.0.1.101")
    assert paired.status_code == 201 and paired.get_json()["table_id"] == target["table_id"]


def test_a_locked_table_of_one_event_does_not_lock_the_same_number_in_another(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int]) -> None:
    """Wrong codes for "table 1" count against every table 1; once the director resets
    one event's table 1, it pairs, while the other event's table 1 stays locked."""
    first = seat_table(client, make_tournament, auth, NAMES[:3])
    second = seat_table(client, make_tournament, auth, NAMES[3:6])
    wrong = wrong_code(first["code"], second["code"])
    statuses = [pair(app, 1, wrong, address=f"10.0.7.{n}").status_code for n in range(5)]
    assert statuses == [400, 400, 400, 400, 429]
    reset = client.post(f"/api/tables/{second['id']}/dealer/unlock", headers=auth)
    assert reset.status_code == 200
    paired = pair(app, 1, reset.get_json()["code"], address="10.0.7.50")
    assert paired.status_code == 201 and paired.get_json()["table_id"] == second["id"]
    listed = client.get(f"/api/tournaments/{first['tournament_id']}/dealer/pairing",
                        headers=auth).get_json()["tables"]
    assert listed[0]["locked"]["failures"] == 5


def test_two_server_processes_on_one_database_count_the_same_guesses(
        make_app: Callable[..., Flask], app: Flask, two_tables: list[dict[str, Any]]) -> None:
    """``director serve --workers 2``: guesses spread over both processes add up."""
    other = make_app()          # a second app on the same database file: another process
    target = two_tables[1]
    wrong = wrong_code(target["code"])
    statuses = [pair(app if n % 2 else other, 2, wrong, address=f"10.0.2.{n}").status_code
                for n in range(1, 6)]
    assert statuses == [400, 400, 400, 400, 429]
    assert pair(other, 2, target["code"], address="10.0.2.50").status_code == 429
    assert pair(app, 2, target["code"], address="10.0.2.51").status_code == 429


def test_a_hundred_guesses_sent_at_once_are_counted_before_they_are_tried(
        app: Flask, two_tables: list[dict[str, Any]]) -> None:
    """A guess is counted before it is tried: the sixth guess at a table is not tried even
    when the count was made by guesses that have not answered yet."""
    from director import security
    from director.services import guess_limits

    target = two_tables[1]
    with app.test_request_context(environ_base={"REMOTE_ADDR": "10.0.3.1"}):
        keys = [(security.limit(security.PAIRING_TABLE), str(target["table_id"]))]
        now = security.utcnow()
        pending = [guess_limits.reserve(keys, now) for _ in range(5)]   # five in flight
        assert not any(guess_limits.over(attempt) for attempt in pending)
    tried = []
    answer = pair(app, 2, target["code"], address="10.0.3.2")
    tried.append(answer.status_code)
    assert tried == [429]


def test_a_malformed_pairing_body_counts_against_the_client(
        app: Flask, two_tables: list[dict[str, Any]]) -> None:
    guesser = app.test_client()
    statuses = [guesser.post("/api/dealer/pair", json={"code": "1"},
                             environ_base={"REMOTE_ADDR": "10.0.4.1"}).status_code
                for _ in range(6)]
    assert statuses == [400, 400, 400, 400, 429, 429]


def test_the_pairing_form_names_the_table_and_shows_the_lock(
        app: Flask, two_tables: list[dict[str, Any]]) -> None:
    target = two_tables[1]
    tablet = app.test_client()
    wrong = wrong_code(target["code"])
    for n in range(5):
        tablet.post("/dealer/pair", data={"table": "2", "code": wrong},
                    environ_base={"REMOTE_ADDR": f"10.0.5.{n}"})
    locked = tablet.post("/dealer/pair", data={"table": "2", "code": target["code"]},
                         environ_base={"REMOTE_ADDR": "10.0.5.9"})
    html = locked.get_data(as_text=True)
    assert locked.status_code == 429 and "ask the director to reset it" in html
    assert 'name="table" value="2"' in html


# ---------------------------------------------------------------- the director's login

def test_behind_a_trusted_proxy_one_clients_failed_logins_lock_out_only_that_client(
        make_app: Callable[..., Flask]) -> None:
    """Every request comes from the proxy (127.0.0.1); X-Forwarded-For names the client."""
    app = make_app(TRUSTED_PROXIES="127.0.0.1")
    proxy = {"REMOTE_ADDR": "127.0.0.1"}
    player, director = app.test_client(), app.test_client()
    statuses = [player.post("/login", data={"secret": "guess"}, environ_base=proxy,
                            headers={"X-Forwarded-For": "10.0.0.66"}).status_code
                for _ in range(6)]
    assert statuses == [200, 200, 200, 200, 429, 429]
    answer = director.post("/login", data={"token": TOKEN}, environ_base=proxy,
                           headers={"X-Forwarded-For": "10.0.0.2"})
    assert answer.status_code == 302
    assert director.get("/director/", environ_base=proxy).status_code == 200
    # Two proxies in a row (both trusted): the client is the last address before them.
    chained = app.test_client().post("/login", data={"secret": "guess"}, environ_base=proxy,
                                     headers={"X-Forwarded-For": "10.0.0.66, 127.0.0.1"})
    assert chained.status_code == 429


def test_an_untrusted_x_forwarded_for_is_ignored(make_app: Callable[..., Flask]) -> None:
    """A player who sends X-Forwarded-For himself, with a new address each time, is
    still counted under his own address; with no proxy set, nobody's header counts."""
    for setting in ("127.0.0.1", ""):
        app = make_app(TRUSTED_PROXIES=setting)
        player = app.test_client()
        statuses = [player.post("/login", data={"secret": "guess"},
                                environ_base={"REMOTE_ADDR": "10.0.0.66"},
                                headers={"X-Forwarded-For": f"10.9.0.{n}"}).status_code
                    for n in range(6)]
        assert statuses == [200, 200, 200, 200, 429, 429], setting
        with app.app_context():
            db.session.execute(GuessFailure.__table__.delete())
            db.session.execute(db.metadata.tables["guess_lock"].delete())
            db.session.commit()


def test_a_number_of_proxy_hops_trusts_that_many(make_app: Callable[..., Flask]) -> None:
    app = make_app(TRUSTED_PROXIES="1")
    seen = []

    @app.get("/test-address")
    def address() -> str:
        from flask import request
        seen.append((request.remote_addr, request.scheme))
        return ""

    app.test_client().get("/test-address", environ_base={"REMOTE_ADDR": "127.0.0.1"},
                          headers={"X-Forwarded-For": "10.0.0.5",
                                   "X-Forwarded-Proto": "https"})
    assert seen == [("10.0.0.5", "https")]


def test_a_correct_login_clears_only_that_clients_login_failures(app: Flask) -> None:
    one, two = app.test_client(), app.test_client()
    for _ in range(4):
        one.post("/login", data={"secret": "guess"}, environ_base={"REMOTE_ADDR": "10.0.6.1"})
        two.post("/login", data={"secret": "guess"}, environ_base={"REMOTE_ADDR": "10.0.6.2"})
    assert one.post("/login", data={"token": TOKEN},
                    environ_base={"REMOTE_ADDR": "10.0.6.1"}).status_code == 302
    assert two.post("/login", data={"secret": "guess"},
                    environ_base={"REMOTE_ADDR": "10.0.6.2"}).status_code == 429
    assert one.post("/login", data={"secret": "guess"},
                    environ_base={"REMOTE_ADDR": "10.0.6.1"}).status_code == 200


# ---------------------------------------------------------------- director sessions

def director_client(app: Flask) -> tuple[FlaskClient, str]:
    """A browser logged in as the director, and its CSRF token."""
    browser = app.test_client()
    assert browser.post("/login", data={"token": TOKEN}).status_code == 302
    with browser.session_transaction() as session:
        return browser, str(session["csrf"])


def copy_of(app: Flask, browser: FlaskClient) -> FlaskClient:
    """Another browser holding a copy of ``browser``'s session cookie."""
    thief = app.test_client()
    cookie = browser.get_cookie("session")
    assert cookie is not None
    thief.set_cookie("session", cookie.value)
    return thief


def test_a_copied_cookie_stops_working_after_logout(app: Flask) -> None:
    browser, token = director_client(app)
    thief = copy_of(app, browser)
    assert thief.get("/director/").status_code == 200
    browser.post("/logout", data={"csrf_token": token})
    assert browser.get("/director/").status_code == 302
    assert thief.get("/director/").status_code == 302
    with app.app_context():
        assert db.session.scalars(select(DirectorSession)).all() == []


def test_a_password_change_ends_every_other_director_session(app: Flask,
                                                            auth: dict[str, str]) -> None:
    changer, token = director_client(app)
    other, _ = director_client(app)
    thief = copy_of(app, other)
    answer = changer.post("/director/password", data={
        "csrf_token": token, "current": TOKEN, "password": "246810", "confirm": "246810"})
    assert answer.status_code == 302
    assert changer.get("/director/").status_code == 200
    assert other.get("/director/").status_code == 302
    assert thief.get("/director/").status_code == 302
    assert app.test_client().get("/api/tournaments", headers=auth).status_code == 200


def test_log_out_other_sessions_ends_them_and_keeps_this_one(app: Flask,
                                                             auth: dict[str, str]) -> None:
    mine, token = director_client(app)
    others = [director_client(app)[0] for _ in range(2)]
    page = mine.get("/director/password").get_data(as_text=True)
    assert "Log out other sessions" in page
    assert mine.post("/director/sessions/end-others", data={}).status_code == 400   # CSRF
    done = mine.post("/director/sessions/end-others", data={"csrf_token": token},
                     follow_redirects=True)
    assert "2 other sessions are logged out." in done.get_data(as_text=True)
    assert mine.get("/director/").status_code == 200
    assert [other.get("/director/").status_code for other in others] == [302, 302]
    assert app.test_client().get("/api/tournaments", headers=auth).status_code == 200


def test_director_set_password_on_the_command_line_ends_every_session(
        app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    browser, _ = director_client(app)
    from director import security

    security.set_password("975310", app)
    assert browser.get("/director/").status_code == 302


# ---------------------------------------------------------------- ids

@pytest.mark.parametrize("model", [Tournament, Person, League, Player])
def test_a_deleted_id_is_never_given_again(app: Flask, model: type) -> None:
    """Create three, delete the third, create another: it gets 4, not 3 again."""
    def new(n: int) -> Any:
        if model is Tournament:
            return Tournament(name=f"Event {n}", levels=LEVELS)
        if model is Person:
            return Person(name=f"P {n}", key=f"p {n}")
        if model is League:
            return League(name=f"L {n}", formula="linear", tournament_ids=[])
        return Player(tournament_id=event.id, name=f"P {n}", chips=0, entry_chips=0)

    with app.app_context():
        event = Tournament(name="Home", levels=LEVELS)
        db.session.add(event)
        db.session.commit()
        rows = [new(n) for n in range(3)]
        db.session.add_all(rows)
        db.session.commit()
        ids = [row.id for row in rows]
        db.session.delete(rows[-1])
        db.session.commit()
        again = new(4)
        db.session.add(again)
        db.session.commit()
        assert again.id == ids[-1] + 1


def test_a_league_naming_a_deleted_event_shows_it_as_deleted_and_not_the_next_event(
        client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
        make_tournament: Callable[..., int], csrf: Callable[[], str]) -> None:
    kept, gone = make_tournament(name="Kept"), make_tournament(name="Gone")
    login()
    answer = client.post("/director/players/leagues", data={
        "csrf_token": csrf(), "name": "Season", "formula": "linear",
        "tournament_ids": [str(kept), str(gone)]})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    assert client.post(f"/director/{gone}/delete", data={"csrf_token": csrf()}).status_code == 302
    replacement = make_tournament(name="Next")
    assert replacement > gone
    page = client.get(answer.headers["Location"])
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Kept" in html and "Next" not in html.split("<h2")[0]
    assert f"Deleted events, no longer counted: {gone}" in html


# ---------------------------------------------------------------- behind a real proxy

def _post_login(port: int, secret: str, client: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("POST", "/login", body=urllib.parse.urlencode({"secret": secret}),
                           headers={"Content-Type": "application/x-www-form-urlencoded",
                                    "X-Forwarded-For": client})
        return connection.getresponse().status
    finally:
        connection.close()


@pytest.mark.skipif(bool(POSTGRES_URL), reason="director serve on a SQLite file of its own")
def test_director_serve_passes_the_proxys_client_address_to_the_guess_limits(
        tmp_path: Path) -> None:
    """waitress used to drop X-Forwarded-For before the app saw it: behind nginx, every
    player was 127.0.0.1 and one player's five wrong logins locked the director out."""
    with director_serve(tmp_path / "instance", tmp_path / "serve.log", "--stream-port", "0",
                        TRUSTED_PROXIES="127.0.0.1") as (_url, port):
        statuses = [_post_login(port, "guess", "10.0.0.66") for _ in range(6)]
        assert statuses == [200, 200, 200, 200, 429, 429]
        assert _post_login(port, TOKEN, "10.0.0.2") == 302
