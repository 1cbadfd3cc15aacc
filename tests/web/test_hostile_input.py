"""Hostile request bodies: nested too deep, too large (issue 26, items 2 and 10).

Every write route in the URL map is sent 100,000 nested lists, as the director
(so that the route's own code runs) and anonymously: each answers 400 with a
sentence, none a 500 (the JSON parser used to raise RecursionError).
"""

from __future__ import annotations

import csv
import io
import json
import random
import sqlite3
import threading
import time
from typing import Any

import pytest
from sqlalchemy import delete, insert, select

from director.db import db
from director.models.people import Person
from director.schemas import FieldError, JsonText, json_body, json_depth
from director.services import Invalid
from tests.conftest import level
from tests.web.test_roles_url_map import fill, write_rules

DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize("who", ["director", "anonymous"])
def test_every_write_route_answers_100000_nested_lists_with_a_400(app, client, auth,
                                                                   make_tournament, who):
    tournament_id = make_tournament()
    headers = auth if who == "director" else {}
    answered = 0
    for rule, methods in write_rules(app):
        url = fill(rule, tournament_id)
        for method in methods:
            response = client.open(url, method=method, data=DEEP, headers=headers,
                                   content_type="application/json")
            assert response.status_code == 400, f"{method} {url}: {response.status_code}"
            if url.startswith("/api/"):
                body = response.get_json()
                assert "nested deeper than 32 levels" in body["errors"]["body"], body
            answered += 1
    assert answered >= 100


def test_deep_json_sent_as_text_plain_or_utf16_is_refused_too(client, auth):
    # json_body reads any body as JSON (force=True), whatever its content type.
    response = client.post("/api/tournaments", data=DEEP, headers=auth,
                           content_type="text/plain")
    assert response.status_code == 400
    for encoding in ("utf-16", "utf-16-le", "utf-8-sig"):     # json reads these bytes too
        response = client.post("/api/tournaments", data=DEEP.decode().encode(encoding),
                               headers=auth, content_type="application/json")
        assert response.status_code == 400, encoding


def test_brackets_inside_strings_do_not_count(client, auth):
    response = client.post("/api/tournaments", headers=auth, json={
        "name": "[" * 50 + "{" * 50, "levels": [{**level(25, 50), "note": '"[[[{{{\\"' * 10}]})
    assert response.status_code == 201, response.get_json()


def test_a_body_nested_32_deep_is_read_and_33_is_refused(client, auth):
    read = client.post("/api/tournaments", data=b"[" * 31 + b"{}" + b"]" * 31, headers=auth,
                       content_type="application/json")
    assert read.status_code == 400      # parsed: a list is not the object the route takes
    assert read.get_json()["errors"]["body"] == "The body must be a JSON object"
    refused = client.post("/api/tournaments", data=b"[" * 32 + b"{}" + b"]" * 32,
                          headers=auth, content_type="application/json")
    assert refused.status_code == 400
    assert refused.get_json()["errors"]["body"] == \
        "The JSON body is nested deeper than 32 levels"


def test_json_body_and_json_text_guard_their_depth_without_the_hook(app):
    # The schemas are safe on their own, whoever calls them.
    with app.test_request_context("/x", method="POST", data=DEEP,
                                  content_type="application/json"):
        with pytest.raises(Invalid) as caught:
            json_body()
        assert "nested deeper" in caught.value.errors["body"]
        with pytest.raises(FieldError):
            JsonText(kind=list, message="Give a list").load(DEEP.decode(), form=True)
    assert json_depth('{"a": "[[[[", "b": [[{}]]}') == 4


def test_a_body_over_2_mb_is_answered_with_a_sentence_in_json(client, auth):
    big = b'{"name": "' + b"x" * (2 * 1024 * 1024 + 10) + b'"}'
    response = client.post("/api/tournaments", data=big, headers=auth,
                           content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["error"] == "The body is larger than 2 MB"


def test_deep_json_typed_into_a_form_is_refused_not_a_500(client, login, csrf, make_tournament):
    # A form's text box is not a JSON body: the service guards its own parsing.
    tid = make_tournament()
    login()
    deep = DEEP.decode()
    wizard = client.post("/director/wizard/apply", data={
        "csrf_token": csrf(), "tournament_id": str(tid), "structure_json": deep})
    assert wizard.status_code == 302
    event_file = client.post(f"/director/{tid}/import", data={
        "csrf_token": csrf(), "structure_json": deep})
    assert event_file.status_code == 400
    assert "nested deeper than 32 levels" in event_file.get_data(as_text=True)


# ---------------------------------------------------------------- the players' CSV (items 6, 10, 13)

FIRST = ["Åsa", "Björn", "Dewi", "Ölvir", "Putu", "Jörg", "Siti", "Zoë", "Agus", "Märta",
         "José", "Ngọc", "Øyvind", "Kadek", "Élodie", "Bambang", "Renée", "Søren", "Wayan",
         "Ilse", "Ketut", "Gustav", "Ayu", "Linnéa", "Hendra", "Ida", "Krisztián", "Nurul",
         "Örjan", "Made"]
LAST = ["Öberg", "Lindqvist", "Santoso", "Åkesson", "Wijaya", "Nordström", "Hartono",
        "Ekström", "Kusuma", "Söderlund", "Pratama", "Sjöberg", "Gunawan", "Bäckström",
        "Halim", "Nyström", "Susanto", "Strand", "Setiawan", "Löfgren"]
NOTES = ["=SUM(A1:A9)", "+1 rebuy owed", "-5 000 chips penalty", "@table 3", "VIP, \"Big\" Ann",
         "two\nlines", "'=already quoted", "", "", ""]
LONG_NOTE = "Regular since 2019; prefers seat 9, no straddles; pays the rebuys in cash. " * 2


def players_csv(count: int, seed: int = 26) -> bytes:
    """A hand-made player list of ``count`` different names (the director's own file):
    accents, phones like +46 70..., notes that look like formulas, quotes and newlines."""
    rng = random.Random(seed)
    names = set()
    while len(names) < count:
        names.add(f"{rng.choice(FIRST)} {rng.choice('ABCDEFGHIJKLMNOPRSTUVW')}. "
                  f"{rng.choice(LAST)}{'' if rng.random() < .9 else ' ' + rng.choice(LAST)}")
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["name", "nickname", "email", "phone", "note"])
    for i, name in enumerate(sorted(names)):
        writer.writerow([("=" if i % 997 == 0 else "-" if i % 991 == 0 else "") + name,
                         rng.choice(["", "", "Ace", "@nick", "Big Stack"]),
                         f"p{i}@example.com" if i % 3 else "",
                         rng.choice(["+46 70 123 45 67", "+62 812-3456-7890", "070-123 45 67",
                                     "", "(0)31 12 34 56"]),
                         rng.choice(NOTES) if rng.random() < .5 else LONG_NOTE])
    return out.getvalue().encode()


def csv_import(client, auth, body: bytes) -> Any:
    return client.post("/api/players/import", data=body,
                       headers={**auth, "Content-Type": "text/csv"})


def csv_export(client, auth) -> bytes:
    return client.get("/api/players.csv", headers=auth).get_data()


def empty_the_player_list(app) -> None:
    with app.app_context():
        db.session.execute(delete(Person))
        db.session.commit()


def test_the_export_reads_back_into_an_empty_list_and_into_the_same_list_unchanged(app, client,
                                                                                    auth):
    assert csv_import(client, auth, players_csv(300)).get_json()["created"] == 300
    for quoted in ("'=x", "''+y", "+46 70 1", "@at"):          # exactly as typed
        assert client.post("/api/players", headers=auth,
                           json={"name": f"Name {quoted}", "phone": None,
                                 "note": quoted}).status_code == 201
    exported = csv_export(client, auth)
    assert b"'+46 70 123 45 67" in exported and b"'=SUM(A1:A9)" in exported  # still guarded
    same = csv_import(client, auth, exported)
    assert same.get_json() == {"created": 0, "updated": 0, "unchanged": 304}, same.get_json()
    assert csv_export(client, auth) == exported
    empty_the_player_list(app)
    again = csv_import(client, auth, exported)
    assert again.get_json()["created"] == 304, again.get_json()
    assert csv_export(client, auth) == exported           # the same ids, the same cells
    assert csv_import(client, auth, b"id,name\n90000,Far Away\n").get_json()["created"] == 1
    newcomer = client.post("/api/players", json={"name": "New Face"}, headers=auth)
    assert newcomer.status_code == 201                    # the next id is after the file's
    assert newcomer.get_json()["id"] > 90000
    with app.app_context():
        notes = set(db.session.scalars(select(Person.note)))
    assert {"'=x", "''+y", "+46 70 1", "@at", "=SUM(A1:A9)", "two\nlines"} <= notes


def test_the_same_line_twice_is_one_player_and_two_different_lines_of_one_name_are_refused(
        app, client, auth):
    twice = b"name,phone\nAnn Berg,+46 70 1\nBo Ek,\nAnn Berg,+46 70 1\n"
    assert csv_import(client, auth, twice).get_json() == {"created": 2, "updated": 0,
                                                          "unchanged": 0}
    different = b"name,phone\nCy Lind,1\ncy lind,2\n"
    refused = csv_import(client, auth, different)
    assert refused.status_code == 400
    assert refused.get_json()["errors"]["file"].startswith(
        "Line 3, column “name”: cy lind is already on line 2")


@pytest.mark.slow
def test_a_20000_player_export_reads_back_into_an_empty_list_and_exports_the_same_file(
        app, client, auth):
    started = time.perf_counter()
    assert csv_import(client, auth, players_csv(20_000)).get_json()["created"] == 20_000
    exported = csv_export(client, auth)
    assert len(exported) > 2 * 1024 * 1024          # more than the usual body limit
    empty_the_player_list(app)
    assert csv_import(client, auth, exported).get_json()["created"] == 20_000
    assert csv_export(client, auth) == exported
    assert csv_import(client, auth, exported).get_json() == {
        "created": 0, "updated": 0, "unchanged": 20_000}
    print(f"20,000 players: three imports and three exports in "
          f"{time.perf_counter() - started:.1f} s")


@pytest.mark.slow
def test_tablets_write_between_the_batches_of_a_20000_player_import(app, client, auth, tmp_path):
    """Another connection writes in a loop while the import runs: it must see the player
    list part-written (its write went in between two batches), and no write waits long."""
    path = app.config["SQLALCHEMY_DATABASE_URI"].removeprefix("sqlite:///")
    if not path.endswith(".sqlite"):
        pytest.skip("SQLite's one writer")
    setup = sqlite3.connect(path)
    setup.execute("CREATE TABLE tablet_write (id INTEGER PRIMARY KEY, players INTEGER)")
    setup.commit()
    setup.close()
    body = players_csv(20_000)
    done = threading.Event()
    seen: list[tuple[int, float]] = []

    def tablet() -> None:
        connection = sqlite3.connect(path, timeout=30, isolation_level=None)
        while not done.is_set():
            asked = time.perf_counter()
            connection.execute("BEGIN IMMEDIATE")
            waited = time.perf_counter() - asked
            players = connection.execute("SELECT count(*) FROM person").fetchone()[0]
            connection.execute("INSERT INTO tablet_write (players) VALUES (?)", (players,))
            connection.execute("COMMIT")
            seen.append((players, waited))
            time.sleep(0.005)
        connection.close()

    thread = threading.Thread(target=tablet)
    thread.start()
    started = time.perf_counter()
    try:
        answer = csv_import(client, auth, body)
    finally:
        took = time.perf_counter() - started
        done.set()
        thread.join()
    assert answer.get_json()["created"] == 20_000, answer.get_json()
    between = [players for players, _ in seen if 0 < players < 20_000]
    longest = max(waited for _, waited in seen)
    print(f"import {took:.2f} s; tablet writes {len(seen)}, {len(between)} between batches; "
          f"longest wait {longest * 1000:.0f} ms")
    assert between, "no write went in while the import ran"
    assert longest < max(0.5, took / 4)


SWEDISH = "name;nickname;phone;note\nÅsa Öberg;Åsa;+46 70 123 45 67;Betalar kontant, alltid\n" \
          "Björn Ekström;;070-123 45 67;=SUM(A1)\n"


@pytest.mark.parametrize(("encoding", "text"), [
    ("utf-16", SWEDISH),                                           # Excel's "Unicode text"...
    ("utf-16", SWEDISH.replace(";", "\t")),                        # ...is tab-separated
    ("utf-8-sig", SWEDISH),                                        # Excel in Swedish: ;
    ("utf-8", SWEDISH.replace(";", ",").replace("Betalar kontant, alltid",
                                                  '"Betalar kontant, alltid"')),
])
def test_utf16_and_semicolon_files_are_read_as_excel_writes_them(app, client, auth, login, csrf,
                                                                 encoding, text):
    login()
    answer = client.post("/director/players/import", content_type="multipart/form-data", data={
        "csrf_token": csrf(), "file": (io.BytesIO(text.encode(encoding)), "players.csv")})
    assert answer.status_code == 302, answer.get_data(as_text=True)
    with app.app_context():
        stored = {p.name: (p.nickname, p.phone, p.note) for p in db.session.scalars(select(Person))}
    assert stored == {"Åsa Öberg": ("Åsa", "+46 70 123 45 67", "Betalar kontant, alltid"),
                      "Björn Ekström": (None, "070-123 45 67", "=SUM(A1)")}


def test_utf16_sent_to_the_api_is_read_too(app, client, auth):
    answer = csv_import(client, auth, SWEDISH.encode("utf-16"))
    assert answer.get_json() == {"created": 2, "updated": 0, "unchanged": 0}, answer.get_json()


@pytest.mark.parametrize(("body", "words"), [
    (SWEDISH.encode("latin-1"), "Line 2: this is not UTF-8 text (save the file as CSV UTF-8)"),
    (SWEDISH.encode("cp1252"), "Line 2: this is not UTF-8 text (save the file as CSV UTF-8)"),
    (SWEDISH.encode("utf-16-le"), "Line 1: this is UTF-16 text without its byte-order mark"),
])
def test_a_file_in_another_encoding_is_refused_with_the_reason_not_read_as_mojibake(
        app, client, auth, login, csrf, body, words):
    login()
    answer = client.post("/director/players/import", content_type="multipart/form-data", data={
        "csrf_token": csrf(), "file": (io.BytesIO(body), "players.csv")})
    assert answer.status_code == 400
    assert words in answer.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(Person.id)) is None


def test_a_latin1_event_file_is_refused_not_read_as_mojibake(client, auth, login, csrf,
                                                             make_tournament):
    tid = make_tournament(name="Keep me")
    text = json.dumps({"name": "Örebro Open", "levels": [level(25, 50)]}, ensure_ascii=False)
    login()
    answer = client.post(f"/director/{tid}/import", content_type="multipart/form-data", data={
        "csrf_token": csrf(), "structure_file": (io.BytesIO(text.encode("latin-1")), "e.json")})
    assert answer.status_code == 400
    assert "The file is not UTF-8: save it as UTF-8" in answer.get_data(as_text=True)
    assert client.get(f"/api/tournaments/{tid}/structure").get_json()["name"] == "Keep me"
    utf16 = client.post(f"/director/{tid}/import", content_type="multipart/form-data", data={
        "csrf_token": csrf(), "structure_file": (io.BytesIO(text.encode("utf-16")), "e.json")})
    assert utf16.status_code == 302
    assert client.get(f"/api/tournaments/{tid}/structure").get_json()["name"] == "Örebro Open"


def test_a_batch_that_fails_takes_back_the_batches_before_it(app, client, auth, monkeypatch):
    """Between two batches the desk adds a name the file adds in a later batch: that batch
    fails on the unique name, the earlier ones are taken back, the file is refused."""
    from director.services import players_csv as csv_service

    client.post("/api/players", json={"name": "Already Here", "note": "before"}, headers=auth)
    body = players_csv(1_200) + b"Already Here,,,,changed\n"
    rows = list(csv.DictReader(io.StringIO(body.decode())))
    late = rows[1_100]["name"].lstrip("=-")
    pauses = []

    def desk_adds_a_name() -> None:
        pauses.append(1)
        if len(pauses) == 1:
            with db.engine.begin() as connection:
                connection.execute(insert(Person.__table__).values(
                    name=late, key=" ".join(late.split()).casefold()))

    monkeypatch.setattr(csv_service, "_between_batches", desk_adds_a_name)
    answer = csv_import(client, auth, body)
    assert answer.status_code == 400
    assert "Someone else changed the player list" in answer.get_json()["errors"]["file"]
    assert len(pauses) > 2                            # batches were written, then taken back
    with app.app_context():
        assert sorted(db.session.execute(select(Person.name, Person.note))) == sorted(
            [("Already Here", "before"), (late, None)])
