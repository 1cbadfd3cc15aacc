"""The player list costs the same whatever its size (issue 29).

A search reads a range of the words' index, never every record (the plans of
the statements it sends); the CSV export sends the same statements with 100 and
with 1,000 records, and its pieces as it writes them.  The timings at 20,000
records are ``benchmarks/big_event.py``'s.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import POSTGRES_URL, query_plans, statements_sent


@pytest.fixture
def sent(app: Flask) -> Iterator[list[tuple[str, Any]]]:
    """The SQL statements (with their parameters) this thread sends from now on."""
    with statements_sent(app) as found:
        yield found


def add_records(client: FlaskClient, auth: dict[str, str], first: int, count: int) -> None:
    rows = "name,nickname\n" + "".join(f"Player {i:05d},P{i}\n" for i in range(first,
                                                                              first + count))
    answer = client.post("/api/players/import", headers=auth, content_type="multipart/form-data",
                         data={"file": (io.BytesIO(rows.encode()), "players.csv")})
    assert answer.status_code == 200, answer.get_json()


def scans(app: Flask, statements: list[tuple[str, Any]]) -> list[str]:
    """The steps of these statements' query plans that read a whole table of the list."""
    steps = [step for steps in query_plans(app, [(statement, parameters)
                                                 for statement, parameters in statements
                                                 if statement.lstrip().upper().startswith("SELECT")])
             for step in steps]
    return [step for step in steps if step.startswith("SCAN")
            and any(f"SCAN {table}" in step for table in ("person", "person_word"))]


@pytest.mark.skipif(bool(POSTGRES_URL), reason="SQLite's query plans")
@pytest.mark.parametrize("path", ["/api/players/suggest?q=Player 0012",
                                  "/api/players?q=player 001", "/api/players?q=p12",
                                  "/director/players?q=Player 00123"])
def test_a_search_reads_a_range_of_the_index_not_every_record(
        app: Flask, client: FlaskClient, auth: dict[str, str], login: Any,
        sent: list[tuple[str, Any]], path: str) -> None:
    add_records(client, auth, 0, 300)
    if path.startswith("/director"):
        login()
    sent.clear()
    answer = client.get(path, headers=auth)
    assert answer.status_code == 200
    assert "Player 0012" in answer.get_data(as_text=True)
    assert scans(app, sent) == []


def test_the_export_sends_the_same_statements_with_100_and_1000_records_but_its_pages(
        client: FlaskClient, auth: dict[str, str], sent: list[tuple[str, Any]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The records are read 100 at a time (here), each page after the name the page
    before ended on; the other statements (the totals, once per event) do not grow."""
    from director.services import players_csv
    monkeypatch.setattr(players_csv, "CSV_CHUNK_CHARS", 4096)
    monkeypatch.setattr(players_csv, "EXPORT_READ_ROWS", 100)
    others, pages = [], []
    for first, count in ((0, 100), (100, 900)):
        add_records(client, auth, first, count)
        sent.clear()
        answer = client.get("/api/players.csv", headers=auth)
        pieces = [piece for piece in answer.response if piece]
        assert b"".join(pieces).decode("utf-8-sig").count("\r\n") == 1 + first + count
        assert answer.is_streamed and len(pieces) > (first + count) * 30 // 4096
        reads = [s for s, _ in sent if re.search(r"FROM person\b.*ORDER BY (person\.)?\"?key", s,
                                                 re.S)]
        pages.append(len(reads))
        others.append(len(sent) - len(reads))
    assert others[0] == others[1] and pages == [2, 11]     # a full last page: one more read


def test_the_list_shows_a_page_of_records_and_the_way_to_the_next(
        client: FlaskClient, auth: dict[str, str], login: Any) -> None:
    add_records(client, auth, 0, 250)
    login()
    first = client.get("/director/players").get_data(as_text=True)
    assert first.count("<tr data-person=") == 100 and "Player 00099" in first
    assert "page=2" in first and "Page 1 of 3 (250 players)" in first
    last = client.get("/director/players?page=3").get_data(as_text=True)
    assert last.count("<tr data-person=") == 50 and "Player 00249" in last
    assert "page=2" in last and "page=4" not in last
    assert rows(client.get("/director/players?page=99")) == rows(last)
    assert rows(client.get("/director/players?page=abc")) == rows(first)
    assert rows(client.get(f"/director/players?page={10**30}")) == rows(last)
    assert client.get("/director/players?q=%01x" + "y" * 5000).status_code == 200
    found = client.get("/director/players?q=p1&page=2").get_data(as_text=True)   # P1, P1x, P1xx
    assert "q=p1&amp;page=1" in found and "Page 2 of 2 (111 players)" in found
    assert found.count("<tr data-person=") == 11 and "Player 00199" in found
    client.get("/language/sv")
    swedish = client.get("/director/players?page=2").get_data(as_text=True)
    assert ">Föregående</a>" in swedish and ">Nästa</a>" in swedish
    api = client.get("/api/players?q=player&page=3", headers=auth).get_json()
    assert (api["page"], api["pages"], api["matches"], len(api["players"])) == (3, 3, 250, 50)


def rows(page: Any) -> list[str]:
    text = page if isinstance(page, str) else page.get_data(as_text=True)
    return re.findall(r'<tr data-person="(\d+)"', text)
