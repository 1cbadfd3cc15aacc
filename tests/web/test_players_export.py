"""The players CSV writes what the records and the events say, with less work per line
(issue 29).

* Each record keeps its own cells as the export writes them (``Person.csv_cells``):
  whatever way a record is written (the list's form or API, the desk, an import's
  new and changed lines), its stored cells are the cells made from the record now,
  and the export is the file the CSV writer makes from the records themselves.
* The records' totals read every event's results with ``results_of_everyone``: only
  the entries that can have money go through the prizes' arithmetic.  Its lines are
  ``results``'s lines, in every event the tests here and the event-end and bounty
  tests build (ties, deals, a satellite's seats, PKO and fixed bounties, prizes paid):
  :func:`assert_everyones_results_are_the_results`.
"""

from __future__ import annotations

import csv
import io
import random
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from director.db import db
from director.models.people import CSV_FIELDS, Person, csv_cells
from director.models.tournament import Tournament
from director.services import money
from director.services.players_csv import EXPORT_COLUMNS
from tests.conftest import EventApi

AWKWARD = ["Berg, Ann", '"Quoted" Lu', "=HYPERLINK(x)", "'@home", "-5 Dan", "Ölund Åsa",
           "Plain Pia", "+46 Sam", "Semi;colon", "  Space  Tom"]


def _import(client: FlaskClient, auth: dict[str, str], rows: list[list[str]]) -> Any:
    out = io.StringIO()
    csv.writer(out).writerows([["name", "nickname", "email", "phone", "note"], *rows])
    answer = client.post("/api/players/import", headers=auth, content_type="multipart/form-data",
                         data={"file": (io.BytesIO(out.getvalue().encode()), "players.csv")})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()


def _records(app: Flask) -> list[Person]:
    with app.app_context():
        found = list(db.session.scalars(select(Person).order_by(Person.key)))
        db.session.expunge_all()
        return found


def test_every_way_a_record_is_written_keeps_its_csv_cells_and_the_export_is_the_writers(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> None:
    for name in AWKWARD[:4]:                                    # the list's API
        assert client.post("/api/players", headers=auth, json={
            "name": name, "phone": "+1 555", "note": 'a "note", with a comma'}).status_code == 201
    first = _records(app)[0]
    assert client.patch(f"/api/players/{first.id}", headers=auth,   # a change of one field
                        json={"nickname": "@nick"}).status_code == 200
    api = EventApi(client, auth, make_entry_tournament())
    api.buy_in("-Desk Dora")                                    # the desk makes a record
    done = _import(client, auth, [[name, "", "x@y.z", "-1 555", "=note\nsecond line"] for name in AWKWARD[4:]]
                   + [[AWKWARD[0], "Bee", "", "", "changed; note"]])      # new ones, a change
    assert done["created"] == 6 and done["updated"] == 1

    records = _records(app)
    assert len(records) == 11
    for person in records:
        assert person.csv_cells == csv_cells({name: getattr(person, name) for name in CSV_FIELDS})
    changed = next(p for p in records if p.name == AWKWARD[0])
    assert changed.nickname == "Bee" and "changed; note" in (changed.csv_cells or "")
    assert next(p for p in records if p.id == first.id).csv_cells.split(",")[1] == "'@nick"

    exported = client.get("/api/players.csv", headers=auth).get_data(as_text=True)
    lines = exported.removeprefix("\ufeff").split("\r\n")
    assert lines[0] == ",".join(EXPORT_COLUMNS) and lines[-1] == ""
    for person, line in zip(records, lines[1:-1], strict=True):    # by name, as the list
        cells = [("'" + v if v and v.lstrip("'")[:1] in ("=", "+", "-", "@") else v)
                 for v in (getattr(person, name) for name in CSV_FIELDS)]
        own = io.StringIO()
        csv.writer(own).writerow([person.id, *cells])
        assert line.startswith(own.getvalue().removesuffix("\r\n") + ","), line
    back = {row["name"]: row for row in csv.DictReader(io.StringIO(lines[0] + "\r\n" + "\r\n".join(lines[1:])))}
    assert back["'-Desk Dora"]["events"] == "1" and back["'-Desk Dora"]["entries"] == "1"
    assert back["Ölund Åsa"]["events"] == "0" and back["Ölund Åsa"]["note"] == "'=note\nsecond line"


def test_a_record_whose_cells_are_not_made_is_exported_from_the_record(
        app: Flask, client: FlaskClient, auth: dict[str, str]) -> None:
    """A record written without its cells (by hand in the database): made on export."""
    _import(client, auth, [["Berg, Ann", "", "", "+46", ""], ["Cy", "", "", "", ""]])
    with app.app_context():
        db.session.execute(Person.__table__.update().values(csv_cells=None))
        db.session.commit()
    lines = client.get("/api/players.csv", headers=auth).get_data(as_text=True).splitlines()
    assert lines[1].startswith('1,"Berg, Ann",,,\'+46,,0,') and lines[2].startswith("2,Cy,,,,,0,")


def assert_everyones_results_are_the_results(app: Flask) -> None:
    """In every event of the database: ``results_of_everyone``'s lines are ``results``'s."""
    with app.app_context():
        for tournament_id in db.session.scalars(select(Tournament.id)):
            full = {row.player_id: row for row in money.results(tournament_id)[1]}
            lean = {row.player_id: row for row in money.results_of_everyone(tournament_id)[1]}
            assert lean.keys() == full.keys()
            for pid, row in full.items():
                got = lean[pid]
                assert (got.place, got.place_last, got.prize, got.paid, got.active, got.deal,
                        got.bounties) == (row.place, row.place_last, row.prize, row.paid,
                                          row.active, row.deal, row.bounties), (tournament_id, pid)


def test_everyones_results_are_the_results_in_random_events_with_ties_and_prizes_paid(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> None:
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        api = EventApi(client, auth, make_entry_tournament())
        ids = [api.buy_in(f"P{seed}-{i}") for i in range(rng.randint(8, 14))]
        assert api.post("seating/draw").status_code == 200
        left = list(ids)
        while len(left) > 1:
            out = rng.sample(left, 2 if len(left) > 3 and rng.random() < 0.3 else 1)
            answer = api.eliminate(*out)
            if answer.status_code != 200:          # two at different tables: one at a time
                out = out[:1]
                assert api.eliminate(*out).status_code == 200
            left = [pid for pid in left if pid not in out]
            if rng.random() < 0.2:
                left.append(api.buy_in(f"P{seed}-late{len(ids)}"))  # moves the busts down
                ids.append(left[-1])
        winner = api.post(f"results/{left[0]}/pay", request_key=f"pay-{seed}")
        assert winner.status_code == 201, winner.get_json()
    assert_everyones_results_are_the_results(app)


def test_everyones_results_are_the_results_after_a_deal_of_more_players_than_prizes(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_entry_tournament: Callable[..., int]) -> None:
    """Four players share the money of three places: the fourth's deal money is his."""
    api = EventApi(client, auth, make_entry_tournament())
    settings = api.post("money/settings", currency="EUR", buy_in="100", fee="10",
                        starting_stack=250_000, payout_template="custom",
                        custom_payouts="50, 30, 20")
    assert settings.status_code == 200, settings.get_json()
    ids = [api.buy_in(name) for name in ("Ann", "Bo", "Cia", "Dan", "Eve")]
    assert api.post("clock/start").status_code == 200
    assert api.eliminate(ids[4]).status_code == 200
    saved = api.post("money/deal", method="icm", **{f"stack_{pid}": chips for pid, chips in
                                                    zip(ids[:4], (500_000, 350_000, 250_000,
                                                                  150_000), strict=True)})
    assert saved.status_code == 201, saved.get_json()
    assert int(saved.get_json()["deal"]["amounts"][str(ids[3])]) > 0
    assert_everyones_results_are_the_results(app)


def test_a_record_deleted_while_the_export_streams_does_not_end_it(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The next page starts after the last name read, which need not be on the list any
    more: the export goes on to the last record."""
    from director.services import players_csv
    monkeypatch.setattr(players_csv, "EXPORT_READ_ROWS", 2)
    monkeypatch.setattr(players_csv, "CSV_CHUNK_CHARS", 10)
    _import(client, auth, [[f"Player {i}", "", "", "", ""] for i in range(1, 6)])
    with app.test_request_context():
        pieces = players_csv.export_csv_chunks()
        text = next(pieces)
        while "Player 2" not in text:             # the first page is read
            text += next(pieces)
        db.session.execute(Person.__table__.delete().where(Person.name == "Player 2"))
        text += "".join(pieces)
    names = [row["name"] for row in csv.DictReader(io.StringIO(text))]
    assert names == [f"Player {i}" for i in range(1, 6)]
