"""The director's API of the tables' pairing codes answers a page of tables (issue 29):
``GET /api/tournaments/<id>/dealer/pairing`` lists ``TABLES_LISTED`` tables from
``?tables=`` (or the one ``?table=`` numbers), every locked table whatever the page,
and the ``next`` page's URL.  Growth is tested on a small event with a page of two
tables (``tests/web/test_big_event.py`` has the fixtures); the big event itself is
``benchmarks/big_event.py``."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from director.db import db
from director.models.seating import SeatingTable
from tests.web import test_big_event as big

statements = big.statements      # the fixtures of the big event's tests
growing = big.growing
Growing = big.Growing


@pytest.fixture
def two_a_page(monkeypatch: pytest.MonkeyPatch) -> None:
    from director.views import dealer_api
    monkeypatch.setattr(dealer_api, "TABLES_LISTED", 2)


def _live_server() -> ModuleType:
    """``benchmarks/live_server.py``, whose ``every_page`` the benchmarks follow the
    pages with (``benchmarks/`` is no package: a benchmark run as a script finds it)."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "live_server.py"
    spec = importlib.util.spec_from_file_location("live_server", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _url(g: Growing) -> str:
    return f"/api/tournaments/{g.id}/dealer/pairing"


def _get(g: Growing, path: str, **query: Any) -> Any:
    r = g.client.get(path, headers=g.auth, query_string=query or None)
    assert r.status_code == 200, (path, r.get_json())
    return r.get_json()


def _numbers_in_play(app: Flask, tournament_id: int) -> list[int]:
    with app.app_context():
        return list(db.session.scalars(select(SeatingTable.number).where(
            SeatingTable.tournament_id == tournament_id).order_by(SeatingTable.number)))


def test_the_pairing_api_sends_the_same_statements_and_bytes_with_3_and_7_tables(
        growing: Growing, statements: list[str], two_a_page: None) -> None:
    """It read and answered every table's code (120 tables: 8.2 KB, 3.45 times the time
    of 15 tables); now a page's."""
    growing.grow(27)                         # three tables
    _get(growing, _url(growing))             # the first look makes the codes shown
    small = growing.cost(_url(growing), statements, api=True)
    growing.grow(36)                         # seven
    _get(growing, _url(growing))
    grown = growing.cost(_url(growing), statements, api=True)
    assert grown[0] == small[0]
    assert abs(grown[1] - small[1]) < 40     # two tables either way (a longer total at most)
    answer = _get(growing, _url(growing))
    assert len(answer["tables"]) == 2 and answer["tables_total"] >= 7 and answer["start"] == 0


def test_following_next_gives_every_table_once_by_number(
        app: Flask, growing: Growing, two_a_page: None) -> None:
    growing.grow(63)                         # seven tables: four pages of two
    in_play = _numbers_in_play(app, growing.id)
    assert len(in_play) >= 7
    pages = []
    url: str | None = _url(growing)
    while url:
        answer = _get(growing, url)
        pages.append([t["number"] for t in answer["tables"]])
        assert answer["tables_total"] == len(in_play)
        url = answer["next"]
    assert [n for page in pages for n in page] == in_play
    assert all(len(page) == 2 for page in pages[:-1]) and 1 <= len(pages[-1]) <= 2
    every = _live_server().every_page(lambda path: _get(growing, path), _url(growing))
    assert [t["number"] for t in every] == in_play          # the benchmarks' way too
    assert len({t["code"] for t in every}) == len(in_play)  # each table has its own code


def test_one_table_by_its_number_and_a_bad_query_is_refused_with_a_sentence(
        app: Flask, growing: Growing, two_a_page: None) -> None:
    growing.grow(45)
    last = _numbers_in_play(app, growing.id)[-1]
    one = _get(growing, _url(growing), table=str(last))
    assert [t["number"] for t in one["tables"]] == [last] and one["next"] is None
    assert one["tables"][0]["code"]
    missing = growing.client.get(_url(growing), headers=growing.auth, query_string={"table": "999"})
    assert missing.status_code == 404
    assert missing.get_json()["error"] == "There is no table 999 in play"
    for name, bad in (("table", "seven"), ("table", "0"), ("table", "1.5"),
                      ("tables", "-2"), ("tables", "abc"), ("tables", "")):
        r = growing.client.get(_url(growing), headers=growing.auth, query_string={name: bad})
        assert r.status_code == 400, (name, bad)
        assert r.get_json()["errors"][name], (name, bad)
    beyond = _get(growing, _url(growing), tables="1000")      # past the last table: none
    assert beyond["tables"] == [] and beyond["next"] is None and beyond["tables_total"] >= 5


def test_a_locked_table_on_another_page_is_listed_on_every_page(
        app: Flask, growing: Growing, two_a_page: None) -> None:
    growing.grow(36)
    last = _numbers_in_play(app, growing.id)[-1]
    _get(growing, _url(growing), table=str(last))        # its code made (a page's are, when read)
    for n in range(5):                        # wrong codes lock the last table's pairing
        app.test_client().post("/api/dealer/pair", json={"table": last, "code": "000000"},
                               environ_base={"REMOTE_ADDR": f"10.9.1.{n + 1}"})
    first = _get(growing, _url(growing))
    assert last not in [t["number"] for t in first["tables"]]
    assert [t["number"] for t in first["locked"]] == [last]
    locked = first["locked"][0]["locked"]
    assert locked["failures"] >= 5 and locked["at"][:2] == "20"      # ISO 8601
    own = _get(growing, _url(growing), table=str(last))
    assert own["tables"][0]["locked"] == locked and own["locked"] == first["locked"]


def test_the_benchmarks_follow_pages_and_stop_at_a_loop() -> None:
    every_page = _live_server().every_page
    answers = {"/a": {"tables": [1, 2], "next": "/b"}, "/b": {"tables": [3], "next": None}}
    assert every_page(answers.__getitem__, "/a") == [1, 2, 3]
    answers["/b"]["next"] = "/a"
    with pytest.raises(SystemExit):
        every_page(answers.__getitem__, "/a")
