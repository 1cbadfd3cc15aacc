"""The director's password or PIN, the token, the lock-out, the session cookie, CSRF."""

from __future__ import annotations

from pathlib import Path

import pytest

from director import create_app, security
from director.cli import main as director_cli
from tests.conftest import TOKEN


def set_password(app, secret="correct horse 42"):
    with app.app_context():
        security.set_password(secret)


def test_the_password_logs_in_and_is_stored_hashed(app, client):
    set_password(app)
    stored = (Path(app.instance_path) / "director_password").read_text()
    assert "correct horse" not in stored and stored.startswith("scrypt:")
    assert oct((Path(app.instance_path) / "director_password").stat().st_mode)[-3:] == "600"
    response = client.post("/login", data={"secret": "correct horse 42", "next": "/director/"})
    assert response.status_code == 302 and response.headers["Location"] == "/director/"
    assert client.get("/director/").status_code == 200


def test_the_token_still_logs_in_and_works_as_bearer(app, client, auth):
    set_password(app)
    assert client.post("/login", data={"secret": TOKEN}).status_code == 302
    assert client.get("/api/tournaments", headers=auth).status_code == 200


def test_a_wrong_password_is_refused_and_nothing_is_granted(app, client):
    set_password(app)
    response = client.post("/login", data={"secret": "correct horse 43"})
    assert b"not the director token, password or PIN" in response.data
    assert client.get("/director/").status_code == 302


def test_five_failures_lock_the_address_out_even_for_the_right_password(app, client):
    set_password(app)
    for _ in range(4):
        assert client.post("/login", data={"secret": "guess"}).status_code == 200
    locked = client.post("/login", data={"secret": "guess"})
    assert locked.status_code == 429 and int(locked.headers["Retry-After"]) == 300
    assert b"Too many wrong attempts" in locked.data
    refused = client.post("/login", data={"secret": "correct horse 42"})
    assert refused.status_code == 429
    assert client.get("/director/").status_code == 302
    # Another address is not locked out.
    other = client.post("/login", data={"secret": "correct horse 42"},
                        environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 302


def test_the_lock_out_ends_after_its_time(app):
    """Kept in the database (services.guess_limits): the times are arguments."""
    from datetime import UTC, datetime, timedelta

    from director.services import guess_limits

    limit = guess_limits.Limit("login", max_failures=3, window=60, lock=30)
    keys = [(limit, "a")]
    start = datetime(2026, 12, 3, 21, 0, tzinfo=UTC)

    def wrong(at):
        return guess_limits.failed(guess_limits.reserve(keys, at), at)

    with app.app_context():
        assert [bool(wrong(start)) for _ in range(3)] == [False, False, True]
        assert guess_limits.lock_of(keys, start).seconds_left(start) == 30
        later = start + timedelta(seconds=29.5)
        assert guess_limits.lock_of(keys, later).seconds_left(later) == 1
        assert guess_limits.lock_of(keys, start + timedelta(seconds=30)) is None
        # Failures older than the window are forgotten.
        wrong(start + timedelta(seconds=31))
        far = start + timedelta(seconds=100)
        assert not wrong(far) and not wrong(far)
        guess_limits.succeeded(guess_limits.reserve(keys, far), clear=keys)
        assert not wrong(far) and not wrong(far)
        assert wrong(far)


def test_set_password_on_the_page(client, login, csrf):
    login()
    page = client.get("/director/password")
    assert page.status_code == 200 and b"Set the director password" in page.data
    short = client.post("/director/password", data={"csrf_token": csrf(), "password": "123",
                                                    "confirm": "123"})
    assert short.status_code == 400 and b"at least 6" in short.data
    differ = client.post("/director/password", data={"csrf_token": csrf(),
                                                     "password": "246810", "confirm": "246811"})
    assert differ.status_code == 400 and b"differ" in differ.data
    done = client.post("/director/password", data={"csrf_token": csrf(), "password": "246810",
                                                   "confirm": "246810"})
    assert done.status_code == 302
    client.post("/logout", data={"csrf_token": csrf()})
    assert client.post("/login", data={"secret": "246810"}).status_code == 302


def test_set_password_on_the_command_line(tmp_path, monkeypatch):
    from click.testing import CliRunner

    monkeypatch.setenv("DIRECTOR_INSTANCE_PATH", str(tmp_path / "inst"))
    monkeypatch.setenv("DIRECTOR_DATABASE_URL", f"sqlite:///{tmp_path / 'cli.sqlite'}")
    result = CliRunner().invoke(director_cli, ["set-password", "--password", "975310"])
    assert result.exit_code == 0, result.output
    app = create_app()
    assert security.password_matches("975310", app)
    assert not security.password_matches("975311", app)
    short = CliRunner().invoke(director_cli, ["set-password", "--password", "12"])
    assert short.exit_code != 0 and "at least 6" in short.output


def test_session_cookie_is_httponly_and_samesite_lax(client):
    response = client.post("/login", data={"secret": TOKEN})
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_a_new_secret_key_ends_the_sessions_signed_with_the_old_one(app, client):
    """The session's signer is kept from one request to the next (``SigningKept``), and
    made again for a new key: a cookie signed with the key before is no longer a
    director's session, unless that key is kept as a fallback."""
    assert client.post("/login", data={"secret": TOKEN}).status_code == 302
    assert client.get("/director/").status_code == 200
    assert client.get("/director/").status_code == 200          # the kept signer reads it
    old = app.config["SECRET_KEY"]
    app.secret_key = "another key of at least thirty-two characters"
    assert client.get("/director/").status_code == 302          # to the login page
    app.config["SECRET_KEY_FALLBACKS"] = [old]
    assert client.get("/director/").status_code == 200
    app.config["SECRET_KEY_FALLBACKS"] = []
    assert client.get("/director/").status_code == 302


def test_the_secret_key_is_generated_into_the_instance_folder(tmp_path):
    config = {"TESTING": True, "INSTANCE_PATH": str(tmp_path / "inst"),
              "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'k.sqlite'}"}
    first = create_app(config)
    key_file = tmp_path / "inst" / "secret_key"
    assert key_file.read_text().strip() == first.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) >= 32
    assert oct(key_file.stat().st_mode)[-3:] == "600"
    assert create_app(config).config["SECRET_KEY"] == first.config["SECRET_KEY"]


def test_a_session_write_needs_the_csrf_token_and_bearer_does_not(client, login, csrf, auth,
                                                                  make_tournament):
    tournament_id = make_tournament()
    url = f"/api/tournaments/{tournament_id}/clock/start"
    login()
    missing = client.post(url, json={})
    assert missing.status_code == 400 and "csrf_token" in missing.get_json()["errors"]
    forged = client.post(url, json={}, headers={"X-CSRF-Token": "forged." + csrf()})
    assert forged.status_code == 400
    assert client.post(url, json={}, headers={"X-CSRF-Token": csrf()}).status_code == 200
    client.post("/logout", data={"csrf_token": csrf()})
    pause = f"/api/tournaments/{tournament_id}/clock/pause"
    assert client.post(pause, json={}, headers=auth).status_code == 200


def test_the_csrf_token_stays_the_same_for_the_session(client, login, csrf):
    login()
    first = csrf()
    client.get("/director/")
    client.get("/director/new")
    assert csrf() == first


@pytest.mark.parametrize("target", ["//evil.example/", "https://evil.example/", "/\\evil"])
def test_login_never_redirects_elsewhere(client, target):
    response = client.post("/login", data={"secret": TOKEN, "next": target})
    assert response.headers["Location"] == "/director/"


def test_a_dealer_session_is_scoped_to_its_table(make_app):
    app = make_app()
    calls = []

    @security.dealer_or_director_required
    def act(table_id):
        calls.append(table_id)
        return {"ok": table_id}

    app.add_url_rule("/api/tables/<int:table_id>/test-act", "test_act", act, methods=["POST"])
    client = app.test_client()
    assert client.post("/api/tables/3/test-act", json={}).status_code == 401
    with client.session_transaction() as session:
        session[security.DEALER_SESSION_KEY] = 3
        session["csrf"] = "will-not-validate"
    assert client.post("/api/tables/3/test-act", json={}).status_code == 400  # no CSRF token
    # A fresh dealer login: the session gets a CSRF token.
    with app.test_request_context():
        security.login_dealer(3)
        token = security.csrf_token()
        from flask import session as live

        saved = dict(live)
    with client.session_transaction() as session:
        session.clear()
        session.update(saved)
    headers = {"X-CSRF-Token": token}
    assert client.post("/api/tables/3/test-act", json={}, headers=headers).status_code == 200
    forbidden = client.post("/api/tables/4/test-act", json={}, headers=headers)
    assert forbidden.status_code == 403 and "another table" in forbidden.get_json()["error"]
    assert calls == [3]
    assert act.required_role == security.DEALER


def test_a_dealer_bearer_token_is_scoped_by_the_registered_lookup(make_app, auth):
    app = make_app()

    def lookup(token):
        return {"tablet-7": 7}.get(token)

    security.register_dealer_token_lookup(lookup)
    try:
        @security.dealer_or_director_required
        def act(table_id):
            return {"table": table_id, "who": security.actor()}

        app.add_url_rule("/api/tables/<int:table_id>/test-act", "test_act", act,
                         methods=["POST"])
        client = app.test_client()
        tablet = {"Authorization": "Bearer tablet-7"}
        ok = client.post("/api/tables/7/test-act", json={}, headers=tablet)
        assert ok.status_code == 200 and ok.get_json()["who"] == "dealer:table 7"
        assert client.post("/api/tables/8/test-act", json={}, headers=tablet).status_code == 403
        bad = {"Authorization": "Bearer tablet-8"}
        assert client.post("/api/tables/7/test-act", json={}, headers=bad).status_code == 401
        director = client.post("/api/tables/8/test-act", json={}, headers=auth)
        assert director.get_json()["who"] == "director"
    finally:
        security._dealer_lookups.remove(lookup)
