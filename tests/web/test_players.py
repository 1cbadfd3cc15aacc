"""Players across events: the player list, the desk's link to it, history, leagues, CSV."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import delete, func, select

from director.db import db
from director.models.people import Person
from director.models.seating import Player
from tests.conftest import EventApi

SETTINGS = {"buy_in": "100", "fee": "10", "starting_stack": 20_000,
            "late_registration_level": 6, "re_entry": True, "rebuy": True,
            "rebuy_price": "100", "rebuy_chips": 20_000, "rebuy_until": 3,
            "payout_template": "custom", "custom_payouts": "60, 40"}


@pytest.fixture
def event(client: FlaskClient, auth: dict[str, str],
          make_tournament: Callable[..., int]) -> Callable[..., EventApi]:
    """``event(name, **settings)``: a tournament that takes entries."""

    def make(name: str = "Monday PLO", **changes: Any) -> EventApi:
        api = EventApi(client, auth, make_tournament(name=name))
        response = api.post("money/settings", **{**SETTINGS, **changes})
        assert response.status_code == 200, response.get_json()
        return api

    return make


def records(app: Flask) -> list[tuple[str, str]]:
    with app.app_context():
        return [(p.name, p.key) for p in db.session.scalars(select(Person).order_by(Person.id))]


def person_of(app: Flask, player_id: int) -> int | None:
    with app.app_context():
        return db.session.get(Player, player_id).person_id


def play_out(api: EventApi, *order: int) -> None:
    """Bust ``order`` one by one (the last one left wins)."""
    for player_id in order:
        response = api.eliminate(player_id)
        assert response.status_code == 200, response.get_json()


# ---------------------------------------------------------------- the desk links entries

def test_a_buy_in_creates_the_record_and_the_same_name_next_week_is_the_same_record(app, event):
    monday, tuesday = event(), event("Tuesday PLO")
    first = monday.buy_in("Ann  Berg")
    again = tuesday.buy_in("ann berg")
    assert records(app) == [("Ann Berg", "ann berg")]
    assert person_of(app, first) == person_of(app, again) is not None


def test_a_re_entry_is_the_same_record(app, event):
    api = event()
    ann = api.buy_in("Ann Berg")
    api.buy_in("Bo Ek")
    api.buy_in("Cy Lind")
    play_out(api, ann)
    response = api.post("money/entries", kind="re-entry", player_id=ann)
    assert response.status_code == 201, response.get_json()
    assert person_of(app, response.get_json()["player_id"]) == person_of(app, ann)
    assert len(records(app)) == 3


def test_a_buy_in_by_record_id_tells_two_similar_names_apart(app, client, auth, event):
    jon = client.post("/api/players", json={"name": "Jon Smith", "nickname": "Big Jon"},
                      headers=auth).get_json()
    client.post("/api/players", json={"name": "John Smith"}, headers=auth)
    api = event()
    response = api.post("money/entries", kind="buy-in", person_id=jon["id"])
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["person_id"] == jon["id"] and body["payment"]["player_name"] == "Jon Smith"
    suggested = client.get("/api/players/suggest?q=smith", headers=auth).get_json()["players"]
    assert [p["name"] for p in suggested] == ["John Smith", "Jon Smith"]


def test_the_desk_buy_in_api_takes_the_record_and_a_full_room_lists_its_name(
        app, client, auth, event):
    jon = client.post("/api/players", json={"name": "Jon Smith"}, headers=auth).get_json()
    ann = client.post("/api/players", json={"name": "Ann Berg"}, headers=auth).get_json()
    api = event()
    seating = api.post("seating/settings", table_size=6, room_tables=2)
    assert seating.status_code == 200, seating.get_json()
    for number in range(12):
        assert api.post("desk/buy-in", name=f"Player {number}").status_code == 201
    assert api.post("seating/draw").status_code == 200      # every seat taken
    listed = api.post("desk/buy-in", person_id=ann["id"], name="")
    assert listed.status_code == 202, listed.get_json()
    assert listed.get_json()["waiting"]["name"] == "Ann Berg"
    api2 = event("Tuesday PLO")
    sold = api2.post("desk/buy-in", person_id=jon["id"], name="")
    assert sold.status_code == 201, sold.get_json()
    sale = sold.get_json()["sale"]
    assert sale["name"] == "Jon Smith" and sale["person_id"] == jon["id"]
    assert person_of(app, sale["player_id"]) == jon["id"]


def test_an_unknown_record_id_is_refused_naming_the_field_and_registers_nobody(app, event):
    api = event()
    response = api.post("money/entries", kind="buy-in", name="Ann", person_id=999)
    assert response.status_code == 400
    assert "999" in response.get_json()["errors"]["person_id"]
    assert api.client.get(f"/api/tournaments/{api.id}/seating").get_json()["players"] == []
    assert records(app) == []


@pytest.mark.parametrize("form", ["desk/buy-in", "desk/sell"])
def test_the_desk_form_takes_the_picked_record(app, client, auth, login, csrf, event, form):
    """``desk/buy-in`` is the desk's Take buy-in form (it also lists a player when the
    room is full); ``desk/sell`` is the sale form of the players' table."""
    bo = client.post("/api/players", json={"name": "Bo Ek"}, headers=auth).get_json()
    api = event()
    login()
    assert f'action="/director/{api.id}/desk/buy-in"' in client.get(
        f"/director/{api.id}/desk").get_data(as_text=True)
    response = client.post(f"/director/{api.id}/{form}", data={
        "csrf_token": csrf(), "kind": "buy-in", "name": "Bo Ek", "person_id": str(bo["id"])})
    assert response.status_code == 302
    seating = client.get(f"/api/tournaments/{api.id}/seating").get_json()
    assert person_of(app, seating["players"][0]["id"]) == bo["id"]
    page = client.get(f"/director/{api.id}/desk").get_data(as_text=True)
    assert 'id="desk-person"' in page and "players.js" in page


def test_suggestions_need_two_letters_and_the_director(client, auth):
    client.post("/api/players", json={"name": "Ann Berg", "nickname": "Annie"}, headers=auth)
    assert client.get("/api/players/suggest?q=a", headers=auth).get_json()["players"] == []
    found = client.get("/api/players/suggest?q=anni", headers=auth).get_json()["players"]
    assert [p["name"] for p in found] == ["Ann Berg"]                 # by the nickname
    assert client.get("/api/players/suggest?q=ann").status_code == 401


def test_a_search_finds_any_word_s_start_case_and_accents_aside(app, client, auth):
    """The desk and the list find a record by the start of any word of its name or
    nickname ("marie", "öb", "marie b"); the text inside a word finds nothing."""
    for body in ({"name": "Ann-Marie Berg", "nickname": "Annie"}, {"name": "Dan Öberg"},
                 {"name": "Zoë Annersson"}, {"name": "Bo Marsh", "nickname": "Ann"}):
        assert client.post("/api/players", json=body, headers=auth).status_code == 201

    def suggested(query: str) -> list[str]:
        answer = client.get("/api/players/suggest", query_string={"q": query}, headers=auth)
        return [p["name"] for p in answer.get_json()["players"]]

    def listed(query: str) -> list[str]:
        answer = client.get("/api/players", query_string={"q": query}, headers=auth)
        found = answer.get_json()
        assert found["matches"] == len(found["players"])
        return [p["name"] for p in found["players"]]

    # the names that start with it first, then the other words (by the word matched)
    assert suggested("ann") == ["Ann-Marie Berg", "Bo Marsh", "Zoë Annersson"]
    assert suggested("mar") == ["Ann-Marie Berg", "Bo Marsh"]
    assert suggested("OB") == suggested("öb") == ["Dan Öberg"]
    assert suggested("zoe") == ["Zoë Annersson"] and suggested("marie b") == ["Ann-Marie Berg"]
    assert suggested("erg") == [] and listed("erg") == []              # inside a word
    assert listed("berg") == ["Ann-Marie Berg"]
    assert listed("ann") == ["Ann-Marie Berg", "Bo Marsh", "Zoë Annersson"]     # by name
    assert listed("") == listed("   ") and len(listed("")) == 4
    # an edit changes what finds the record
    bo = next(p for p in client.get("/api/players?q=bo", headers=auth).get_json()["players"])
    client.patch(f"/api/players/{bo['id']}", json={"name": "Bob Kent", "nickname": None},
                 headers=auth)
    assert suggested("mars") == [] and suggested("kent") == ["Bob Kent"]
    assert suggested("ann") == ["Ann-Marie Berg", "Zoë Annersson"]


# ---------------------------------------------------------------- the list

def test_a_record_is_created_and_edited_and_logged(app, client, auth):
    made = client.post("/api/players", json={"name": " Åsa  Ek ", "email": "asa@example.com",
                                             "phone": "+46 70 123 45 67"}, headers=auth)
    assert made.status_code == 201, made.get_json()
    pid = made.get_json()["id"]
    edited = client.patch(f"/api/players/{pid}", json={"nickname": "Ace"}, headers=auth)
    assert edited.get_json()["nickname"] == "Ace" and edited.get_json()["name"] == "Åsa Ek"
    log = client.get("/director/log.json?kind=players", headers=auth).get_json()["entries"]
    assert [e["sentence"] for e in log][:2] == ["Player record changed: Åsa Ek",
                                           "Player added to the list: Åsa Ek"]


@pytest.mark.parametrize(("body", "field", "words"), [
    ({"name": ""}, "name", "needs a name"),
    ({"name": "Ann", "email": "not-an-address"}, "email", "e-mail address"),
    ({"name": "Ann", "phone": "call me"}, "phone", "digits"),
    ({"name": "Ann", "nickname": "x" * 41}, "nickname", "at most 40"),
    ({"name": "ANN BERG"}, "name", "already on the player list"),
    ({"name": "Eve \u202eLive"}, "name", "control characters"),     # it turns the text around
    ({"name": "Ann", "nickname": "\u2067Ace\u2069"}, "nickname", "forbidden character"),
])
def test_a_bad_record_is_refused_naming_the_field_and_changes_nothing(app, client, auth, body,
                                                                      field, words):
    client.post("/api/players", json={"name": "Ann Berg"}, headers=auth)
    response = client.post("/api/players", json=body, headers=auth)
    assert response.status_code == 400
    assert words in response.get_json()["errors"][field]
    assert records(app) == [("Ann Berg", "ann berg")]


def test_renaming_to_a_name_on_the_list_is_refused(client, auth):
    client.post("/api/players", json={"name": "Ann Berg"}, headers=auth)
    bo = client.post("/api/players", json={"name": "Bo Ek"}, headers=auth).get_json()
    response = client.put(f"/api/players/{bo['id']}", json={"name": "ann berg"}, headers=auth)
    assert response.status_code == 400 and "Ann Berg" in response.get_json()["errors"]["name"]
    assert client.get(f"/api/players/{bo['id']}", headers=auth).get_json()["name"] == "Bo Ek"


def test_an_unknown_record_is_a_404(client, auth):
    assert client.get("/api/players/77", headers=auth).status_code == 404
    assert client.patch("/api/players/77", json={"name": "X"}, headers=auth).status_code == 404


# ---------------------------------------------------------------- history

def test_history_shows_every_event_with_entries_places_prizes_and_bounties(app, client, auth,
                                                                          event):
    monday = event("Monday PLO", bounty_kind="fixed", bounty="20")
    ann, bo, cy = (monday.buy_in(n) for n in ("Ann Berg", "Bo Ek", "Cy Lind"))
    monday.post("money/entries", kind="rebuy", player_id=ann, stack=0)
    assert monday.post("seating/eliminate", player_ids=[cy], by=ann).status_code == 200
    assert monday.post("seating/eliminate", player_ids=[bo], by=ann).status_code == 200
    tuesday = event("Tuesday PLO")
    tuesday.buy_in("ann berg")
    tuesday.buy_in("Di Falk")
    tuesday.buy_in("Ed Gren")
    client.post(f"/api/tournaments/{tuesday.id}/archive", headers=auth)   # archived still counts
    person = person_of(app, ann)
    history = client.get(f"/api/players/{person}", headers=auth).get_json()
    by_event = {e["name"]: e for e in history["events"]}
    assert set(by_event) == {"Monday PLO", "Tuesday PLO"}
    monday_line = by_event["Monday PLO"]
    assert (monday_line["entries"], monday_line["rebuys"], monday_line["place"]) == (1, 1, 1)
    assert monday_line["paid"] == 110_00 + 20_00 + 100_00           # buy-in + fee + bounty, rebuy
    assert monday_line["prize"] == 240_00                          # 60 % of 3 buy-ins + a rebuy
    assert monday_line["bounties"] == 3 * 20_00                     # Cy, Bo and his own head
    assert by_event["Tuesday PLO"]["still_in"] is True
    assert history["totals"]["events"] == 2 and history["totals"]["wins"] == 1
    login_page = client.get(f"/director/players/{person}", headers=auth).get_data(as_text=True)
    assert "Monday PLO" in login_page and "Tuesday PLO" in login_page


# ---------------------------------------------------------------- leagues

def two_events(event: Callable[..., EventApi]) -> tuple[EventApi, EventApi, dict[str, int]]:
    first, second = event("Week 1"), event("Week 2")
    one = {n: first.buy_in(n) for n in ("Ann", "Bo", "Cy", "Di")}
    play_out(first, one["Di"], one["Cy"], one["Bo"])                   # Ann 1, Bo 2, Cy 3, Di 4
    two = {n: second.buy_in(n) for n in ("Ann", "Bo", "Cy")}
    play_out(second, two["Ann"], two["Cy"])                            # Bo 1, Cy 2, Ann 3
    return first, second, one


@pytest.mark.parametrize(("formula", "expected"), [
    ("linear", [(1, "Bo", 6.0), (2, "Ann", 5.0), (3, "Cy", 4.0), (4, "Di", 1.0)]),
    ("top-eight", [(1, "Bo", 18.0), (2, "Ann", 16.0), (3, "Cy", 14.0), (4, "Di", 5.0)]),
    # Bo 10·√(4/2) + 10·√(3/1); Ann 10·√(4/1) + 10·√(3/3); Cy 10·√(4/3) + 10·√(3/2)
    ("square-root", [(1, "Bo", 31.46), (2, "Ann", 30.0), (3, "Cy", 23.79), (4, "Di", 10.0)]),
])
def test_a_league_ranks_the_players_over_its_events_by_its_formula(client, auth, event, formula,
                                                                   expected):
    first, second, _ = two_events(event)
    response = client.post("/api/players/leagues", json={
        "name": "Spring", "formula": formula, "tournament_ids": [first.id, second.id]},
        headers=auth)
    assert response.status_code == 201, response.get_json()
    table = [(s["rank"], s["name"], s["points"]) for s in response.get_json()["standings"]]
    assert table == expected


def test_the_director_changes_the_formula_and_the_league_ranks_again(client, auth, event):
    first, second, _ = two_events(event)
    league = client.post("/api/players/leagues", json={
        "name": "Spring", "formula": "linear", "tournament_ids": [first.id, second.id]},
        headers=auth).get_json()
    again = client.put(f"/api/players/leagues/{league['id']}", json={
        "name": "Spring", "formula": "top-eight", "tournament_ids": [first.id, second.id]},
        headers=auth).get_json()
    assert again["formula"] == "top-eight" and again["standings"][0]["name"] == "Bo"
    log = client.get("/director/log.json?kind=players", headers=auth).get_json()["entries"]
    assert log[0]["sentence"] == "League saved: Spring (Fixed table: 10, 8, 6, 5, 4, 3, 2, 1)"


@pytest.mark.parametrize(("body", "field"), [
    ({"name": "", "formula": "linear", "tournament_ids": [1]}, "name"),
    ({"name": "S", "formula": "golf", "tournament_ids": [1]}, "formula"),
    ({"name": "S", "formula": "linear", "tournament_ids": []}, "tournament_ids"),
    ({"name": "S", "formula": "linear", "tournament_ids": [404]}, "tournament_ids"),
])
def test_a_bad_league_is_refused_naming_the_field(client, auth, make_tournament, body, field):
    make_tournament()
    response = client.post("/api/players/leagues", json=body, headers=auth)
    assert response.status_code == 400 and field in response.get_json()["errors"]
    assert client.get("/api/players/leagues", headers=auth).get_json()["leagues"] == []


def test_a_league_page_picks_the_formula(client, auth, login, csrf, event):
    first, second, _ = two_events(event)
    login()
    response = client.post("/director/players/leagues", data={
        "csrf_token": csrf(), "name": "Spring", "formula": "top-eight",
        "tournament_ids": [str(first.id), str(second.id)]})
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert 'id="standings-table"' in page and "Fixed table" in page
    assert 'value="top-eight" checked' in page


# ---------------------------------------------------------------- CSV

def test_export_lists_every_record_with_totals_and_reads_back_unchanged(app, client, auth,
                                                                       event):
    api = event()
    api.buy_in("Dan Öberg")
    client.post("/api/players", json={"name": "=cmd", "note": "formula-looking"}, headers=auth)
    raw = client.get("/api/players.csv", headers=auth).get_data()
    assert raw.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    dan = next(r for r in rows if r["name"] == "Dan Öberg")
    assert (dan["events"], dan["entries"], dan["currency"], dan["paid"]) == ("1", "1", "EUR",
                                                                             "110")
    assert any(r["name"] == "'=cmd" for r in rows)                    # no formula in Excel
    back = client.post("/api/players/import", data=raw,     # the guard's quote comes off
                       headers={**auth, "Content-Type": "text/csv"})
    assert back.get_json() == {"created": 0, "updated": 0, "unchanged": 2}


def test_import_adds_new_names_and_matches_existing_ones(app, client, auth):
    client.post("/api/players", json={"name": "Ann Berg"}, headers=auth)
    body = "Name,Nickname,Email\nann berg,Annie,\nBo Ek,,bo@example.com\n"
    response = client.post("/api/players/import", data=body.encode(),
                           headers={**auth, "Content-Type": "text/csv"})
    assert response.get_json() == {"created": 1, "updated": 1, "unchanged": 0}
    assert records(app) == [("Ann Berg", "ann berg"), ("Bo Ek", "bo ek")]
    with app.app_context():
        assert db.session.scalar(select(Person.nickname).where(Person.key == "ann berg")) == "Annie"


def stored_words(app: Flask) -> tuple[set[tuple[int, str, bool]], set[tuple[int, str, bool]]]:
    """The search words stored, and those every record's name and nickname give."""
    from director.models.people import PersonWord
    from director.services.people import words_of
    with app.app_context():
        stored = {(w.person_id, w.word, w.name_start) for w in db.session.scalars(
            select(PersonWord))}
        wanted = {(p.id, word, whole) for p in db.session.scalars(select(Person))
                  for word, whole in words_of(p.name, p.nickname).items()}
    return stored, wanted


def test_every_write_of_a_name_or_nickname_writes_its_search_words(app, client, auth, event,
                                                                   monkeypatch):
    """The desk, the director's form and API, and the import (new records with and
    without the file's id, a nickname changed, a file refused and taken back)."""
    from director.services import players_csv as csv_service

    event().buy_in("Cia Desk")
    ann = client.post("/api/players", json={"name": "Ann Berg"}, headers=auth).get_json()
    client.patch(f"/api/players/{ann['id']}", json={"nickname": "Annie Get"}, headers=auth)
    monkeypatch.setattr(csv_service, "BATCH_ROWS", 2)
    body = "id,name,nickname\n,ann berg,The Rock\n500,Bo Ek,\n,Åsa Öst,Åsa\n,Di Fu,\n"
    answer = client.post("/api/players/import", data=body.encode(),
                         headers={**auth, "Content-Type": "text/csv"})
    assert answer.get_json() == {"created": 3, "updated": 1, "unchanged": 0}
    stored, wanted = stored_words(app)
    assert stored == wanted and (500, "ek", False) in stored and (ann["id"], "rock", False) in \
        stored and len({person_id for person_id, *_ in stored}) == 5
    assert [p["name"] for p in client.get("/api/players/suggest?q=asa",
                                          headers=auth).get_json()["players"]] == ["Åsa Öst"]

    def desk_adds_a_name() -> None:          # the file's last name, between two batches
        with db.engine.begin() as connection:
            if not connection.scalar(select(Person.id).where(Person.key == "zed last")):
                connection.execute(Person.__table__.insert().values(name="Zed Last",
                                                                    key="zed last"))

    monkeypatch.setattr(csv_service, "_between_batches", desk_adds_a_name)
    refused = "name,nickname\nann berg,Changed\nEve New,\nFay New,\nGus New,\nZed Last,\n"
    answer = client.post("/api/players/import", data=refused.encode(),
                         headers={**auth, "Content-Type": "text/csv"})
    assert answer.status_code == 400
    with app.app_context():
        db.session.execute(delete(Person).where(Person.key == "zed last"))
        db.session.commit()
    assert stored_words(app) == (stored, wanted)      # taken back, words and all


@pytest.mark.parametrize(("body", "words"), [
    (b"nickname,email\nAnnie,a@b.se\n", "Line 1: the header names no “name” column"),
    (b"name,email\nAnn,a@b.se\nBo,not-mail\n", "Line 3, column “email”: Give an e-mail address"),
    (b"name,email\nAnn,a@b.se\n,b@c.se\n", "Line 3, column “name”: The player needs a name"),
    (b"name\nAnn\nBo\nann\n", "Line 4, column “name”: ann is already on line 2"),
    (b"name,phone\nAnn,1,2\n", "Line 2: 3 values, but the header names 2 columns"),
    (b"name\nAnn\n\xff\xfeBo\n", "Line 3: this is not UTF-8 text"),
    (b"", "The file is empty"),
])
def test_a_malformed_file_is_refused_naming_the_line_and_column_and_changes_nothing(
        app, client, auth, body, words):
    client.post("/api/players", json={"name": "Cy Lind"}, headers=auth)
    response = client.post("/api/players/import", data=body,
                           headers={**auth, "Content-Type": "text/csv"})
    assert response.status_code == 400
    assert response.get_json()["errors"]["file"].startswith(words)
    assert records(app) == [("Cy Lind", "cy lind")]


def test_the_import_form_takes_an_upload_and_shows_a_refusal_on_the_page(app, client, login,
                                                                        csrf):
    login()
    bad = client.post("/director/players/import", data={
        "csrf_token": csrf(), "file": (io.BytesIO(b"name,email\nAnn,nope\n"), "p.csv")},
        content_type="multipart/form-data")
    assert bad.status_code == 400
    assert "Line 2, column “email”" in bad.get_data(as_text=True)
    good = client.post("/director/players/import", data={
        "csrf_token": csrf(), "file": (io.BytesIO(b"name\nAnn\n"), "p.csv")},
        content_type="multipart/form-data")
    assert good.status_code == 302 and records(app) == [("Ann", "ann")]
    with app.app_context():
        assert db.session.scalar(select(func.count(Person.id))) == 1


# ---------------------------------------------------------------- pages

def test_the_pages_are_the_directors_and_linked_from_the_header(client, login, csrf):
    assert client.get("/director/players").status_code == 302          # to the login page
    login()
    page = client.get("/director/players").get_data(as_text=True)
    assert 'id="nav-players"' in page and 'id="players-table"' not in page
    response = client.post("/director/players", data={"csrf_token": csrf(), "name": "Ann",
                                                      "email": "bad"})
    assert response.status_code == 400 and 'aria-invalid="true"' in response.get_data(as_text=True)
    response = client.post("/director/players", data={"csrf_token": csrf(), "name": "Ann"})
    assert response.status_code == 302
    assert "Ann" in client.get("/director/players").get_data(as_text=True)
    assert client.get("/director/players/leagues").status_code == 200
