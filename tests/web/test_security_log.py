"""The log of state changes: who, what, when; no secrets, no cards before showdown."""

from __future__ import annotations

import json

from director.services import audit
from tests.conftest import TOKEN


def entries(app):
    with app.app_context():
        return [entry.to_json() for entry in audit.recent(limit=500)]


def test_each_accepted_write_is_logged_with_who_what_and_when(app, client, auth, login, csrf,
                                                              make_tournament):
    tournament_id = make_tournament(name="Logged")
    client.post(f"/api/tournaments/{tournament_id}/clock/start", headers=auth)
    client.post(f"/api/tournaments/{tournament_id}/clock/adjust", headers=auth,
                json={"seconds": "bad"})  # refused: not a state change
    login()
    client.post(f"/api/tournaments/{tournament_id}/clock/pause",
                headers={"X-CSRF-Token": csrf()})
    log = entries(app)
    actions = [(e["actor"], e["action"], e["target"]) for e in reversed(log)]
    assert actions == [
        ("director", "POST api.create_tournament", "/api/tournaments"),
        ("director", "POST api.clock_control", f"/api/tournaments/{tournament_id}/clock/start"),
        ("director", "login", "director"),
        ("director", "POST api.clock_control", f"/api/tournaments/{tournament_id}/clock/pause"),
    ]
    assert log[-1]["details"]["name"] == "Logged" and log[-1]["status"] == 201
    assert all(e["at"].endswith("+00:00") for e in log)


def test_no_secret_and_no_card_is_stored():
    clean = audit.redact({"password": "hunter22", "confirm": "x", "token": TOKEN,
                          "csrf_token": "abc", "seat": 4, "hole_cards": ["As", "Kd"],
                          "nested": {"secret": 1, "cards": "AsKd"}, "idempotency_key": "k1"})
    text = json.dumps(clean)
    for secret in ("hunter22", TOKEN, "abc", "As", "Kd"):
        assert secret not in text
    assert clean["seat"] == 4 and clean["idempotency_key"] == "k1"
    shown = audit.redact({"cards": ["As", "Kd"]}, show_cards=True)
    assert shown == {"cards": ["As", "Kd"]}


def test_passwords_never_reach_the_log(app, client, login, csrf):
    login()
    client.post("/director/password", data={"csrf_token": csrf(), "password": "s3cret-pin",
                                            "confirm": "s3cret-pin"})
    client.post("/login", data={"secret": "wrong-guess-1"})
    text = json.dumps(entries(app))
    assert "s3cret-pin" not in text and "wrong-guess-1" not in text and TOKEN not in text
    assert '"password changed"' in text and '"login failed"' in text


def test_the_director_reads_the_log_on_a_page(app, client, auth, login, make_tournament):
    make_tournament(name="On the page")
    assert client.get("/director/log").status_code == 302  # not for the public
    login()
    page = client.get("/director/log")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Log of changes" in html and "api.create_tournament" in html
    assert "On the page" in html
    only_public = client.get("/director/log?who=public").get_data(as_text=True)
    assert "api.create_tournament" not in only_public
    assert client.get("/director/log?before=abc").status_code == 400
