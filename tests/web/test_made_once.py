"""A new event, a copy, a league or a player's record, sent again with its
``idempotency_key``, is made once.

A double click on *Create* or *Duplicate as a new event*, or a script that sends its
``POST /api/tournaments`` again after a lost answer: before, each copy made one more
event (and one more league; a record's copy was refused as a second record of the
name, so the retry read a 400 for the record it had made).  The key is kept with what
it made, in the transaction that makes it (``services.once.made_once``, the table
``made_request``: one row a key, so copies racing each other make one thing); sent
again, the request answers what the first made.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import level
from tests.web.test_concurrency import posted_at_once

LEVELS = [level(25, 50), level(50, 100)]
NEW = {"name": "Friday PLO", "levels": LEVELS}


def status_and_id(response: Any) -> tuple[int, Any]:
    return response.status_code, (response.get_json() or {}).get("id")


def events(client: FlaskClient, auth: dict[str, str]) -> list[str]:
    answer = client.get("/api/tournaments", headers=auth).get_json()
    return sorted(t["name"] for t in answer["tournaments"])


def test_a_new_event_sent_again_with_its_key_is_made_once(
        client: FlaskClient, auth: dict[str, str]) -> None:
    first = client.post("/api/tournaments", json={**NEW, "idempotency_key": "new-1"}, headers=auth)
    again = client.post("/api/tournaments", json={**NEW, "idempotency_key": "new-1"}, headers=auth)
    assert first.status_code == again.status_code == 201, again.get_json()
    assert again.get_json()["id"] == first.get_json()["id"]
    assert events(client, auth) == ["Friday PLO"]
    other = client.post("/api/tournaments", json={**NEW, "idempotency_key": "new-2"}, headers=auth)
    assert other.status_code == 201 and other.get_json()["id"] != first.get_json()["id"]
    without = [client.post("/api/tournaments", json=NEW, headers=auth) for _ in range(2)]
    assert [r.status_code for r in without] == [201, 201]      # no key: each one is new
    assert events(client, auth) == ["Friday PLO"] * 4


def test_a_copy_sent_again_with_its_key_is_made_once(
        client: FlaskClient, auth: dict[str, str], make_tournament: Callable[..., int]) -> None:
    tid = make_tournament(name="Sunday")
    url = f"/api/tournaments/{tid}/duplicate"
    first = client.post(url, json={"idempotency_key": "copy-1"}, headers=auth)
    again = client.post(url, json={"idempotency_key": "copy-1"}, headers=auth)
    assert first.status_code == again.status_code == 201, again.get_json()
    assert again.get_json() == first.get_json()
    assert events(client, auth) == ["Sunday", "Sunday (copy)"]


def test_the_same_key_with_another_request_is_a_400_naming_it_and_makes_nothing(
        client: FlaskClient, auth: dict[str, str]) -> None:
    assert client.post("/api/tournaments", json={**NEW, "idempotency_key": "k"},
                       headers=auth).status_code == 201
    other = client.post("/api/tournaments", headers=auth,
                        json={**NEW, "name": "Saturday", "idempotency_key": "k"})
    assert other.status_code == 400
    assert "idempotency_key" in other.get_json()["errors"]
    assert events(client, auth) == ["Friday PLO"]


def test_a_refused_new_event_keeps_no_key_and_the_corrected_one_is_made(
        client: FlaskClient, auth: dict[str, str]) -> None:
    refused = client.post("/api/tournaments", headers=auth,
                          json={"name": "", "levels": LEVELS, "idempotency_key": "fix-1"})
    assert refused.status_code == 400 and "name" in refused.get_json()["errors"]
    made = client.post("/api/tournaments", json={**NEW, "idempotency_key": "fix-2"}, headers=auth)
    assert made.status_code == 201
    assert events(client, auth) == ["Friday PLO"]


def test_copies_of_one_new_event_racing_each_other_make_one(
        app: Flask, client: FlaskClient, auth: dict[str, str]) -> None:
    answers = posted_at_once(app, "/api/tournaments", {**NEW, "idempotency_key": "race-1"}, auth,
                             copies=8, answer=status_and_id)
    assert len(answers) == 8 and {status for status, _ in answers} == {201}
    assert len({made for _, made in answers}) == 1
    assert events(client, auth) == ["Friday PLO"]


def _key_of(page: str, action: str) -> str:
    form = page[page.index(f'action="{action}"'):]
    return form.split('name="idempotency_key" value="', 1)[1].split('"', 1)[0]


@pytest.mark.parametrize("template", ["scratch", "plo-standard", "import"])
def test_the_new_tournament_form_sent_twice_makes_one_event(
        app: Flask, client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
        csrf: Callable[[], str], make_tournament: Callable[..., int], template: str) -> None:
    fields: dict[str, str] = {"name": "Double Click Cup", "template": template}
    if template == "import":
        source = make_tournament(name="Source")
        exported = client.get(f"/api/tournaments/{source}/structure", headers=auth).get_json()
        fields["structure_json"] = json.dumps(exported)
    login()
    before = events(client, auth)
    key = _key_of(client.get("/director/new").get_data(as_text=True), "/director/new")
    assert len(key) >= 16
    landed = []
    for _ in range(2):
        answer = client.post("/director/new", data={**fields, "csrf_token": csrf(),
                                                    "idempotency_key": key})
        assert answer.status_code == 302, answer.get_data(as_text=True)[:300]
        landed.append(answer.headers["Location"])
    assert landed[0] == landed[1]
    assert events(client, auth) == sorted([*before, "Double Click Cup"])
    page = client.get(landed[1]).get_data(as_text=True)
    assert "Double Click Cup" in page


def test_the_duplicate_button_clicked_twice_makes_one_copy(
        client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
        csrf: Callable[[], str], make_tournament: Callable[..., int]) -> None:
    tid = make_tournament(name="Sunday")
    login()
    key = _key_of(client.get(f"/director/{tid}").get_data(as_text=True),
                  f"/director/{tid}/duplicate")
    landed = [client.post(f"/director/{tid}/duplicate",
                          data={"csrf_token": csrf(), "idempotency_key": key}).headers["Location"]
              for _ in range(2)]
    assert landed[0] == landed[1] and landed[0] != f"/director/{tid}"
    assert events(client, auth) == ["Sunday", "Sunday (copy)"]


def test_copies_racing_from_several_threads_make_one_league(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int]) -> None:
    tid = make_tournament()
    body = {"name": "Winter League", "formula": "linear", "tournament_ids": [tid],
            "idempotency_key": "league-race-1"}
    answers = posted_at_once(app, "/api/players/leagues", body, auth, copies=6,
                             answer=status_and_id)
    assert len(answers) == 6 and {status for status, _ in answers} == {201}, answers
    assert len({made for _, made in answers}) == 1
    leagues = client.get("/api/players/leagues", headers=auth).get_json()["leagues"]
    assert [league["name"] for league in leagues] == ["Winter League"]


def test_a_players_record_sent_again_with_its_key_answers_the_record_it_made(
        client: FlaskClient, auth: dict[str, str]) -> None:
    body = {"name": "Åsa Öberg", "idempotency_key": "record-1"}
    first = client.post("/api/players", json=body, headers=auth)
    again = client.post("/api/players", json=body, headers=auth)
    assert first.status_code == again.status_code == 201, again.get_json()
    assert again.get_json()["id"] == first.get_json()["id"]
    other = client.post("/api/players", json={**body, "idempotency_key": "record-2"}, headers=auth)
    assert other.status_code == 400 and "name" in other.get_json()["errors"]   # a second one


def test_a_key_that_made_an_event_is_refused_for_a_league(
        client: FlaskClient, auth: dict[str, str]) -> None:
    made = client.post("/api/tournaments", json={**NEW, "idempotency_key": "shared"}, headers=auth)
    league = client.post("/api/players/leagues", headers=auth, json={
        "name": "L", "formula": "linear", "tournament_ids": [made.get_json()["id"]],
        "idempotency_key": "shared"})
    assert league.status_code == 400 and "idempotency_key" in league.get_json()["errors"]
    assert client.get("/api/players/leagues", headers=auth).get_json()["leagues"] == []


def test_an_event_deleted_since_is_made_again_by_its_request(
        client: FlaskClient, auth: dict[str, str]) -> None:
    first = client.post("/api/tournaments", json={**NEW, "idempotency_key": "gone-1"}, headers=auth)
    assert client.delete(f"/api/tournaments/{first.get_json()['id']}",
                         headers=auth).status_code == 200
    again = client.post("/api/tournaments", json={**NEW, "idempotency_key": "gone-1"}, headers=auth)
    assert again.status_code == 201 and again.get_json()["id"] != first.get_json()["id"]
    assert events(client, auth) == ["Friday PLO"]


@pytest.mark.parametrize(("page", "action", "fields", "said"), [
    ("/director/players", "/director/players", {"name": "Double Dora"}, "Double Dora is on the player list."),
    ("/director/players/leagues", "/director/players/leagues",
     {"name": "Spring League", "formula": "linear"}, "League saved."),
], ids=["record", "league"])
def test_the_player_list_and_league_forms_sent_twice_make_one(
        client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
        csrf: Callable[[], str], make_tournament: Callable[..., int],
        page: str, action: str, fields: dict[str, str], said: str) -> None:
    tid = make_tournament()
    login()
    key = _key_of(client.get(page).get_data(as_text=True), action)
    form = {**fields, "csrf_token": csrf(), "idempotency_key": key}
    if "formula" in fields:
        form["tournament_ids"] = str(tid)
    answers = [client.post(action, data=form) for _ in range(2)]
    assert [a.status_code for a in answers] == [302, 302], answers[1].get_data(as_text=True)[:400]
    assert answers[0].headers["Location"] == answers[1].headers["Location"]
    shown = client.get(answers[1].headers["Location"]).get_data(as_text=True)
    assert said in shown.replace("&#39;", "'")
