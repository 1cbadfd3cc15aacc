"""The dealer side of a big event costs the same whatever its history (issue 29): the
tablets page, a table's hand list (page and API) and the waiting list's API.

Each growth is tested on a small event with the SQL statements a request sends and
its answer's size (``tests/web/test_big_event.py`` has the fixtures); the big event
itself is ``benchmarks/big_event.py``."""

from __future__ import annotations

import re

import pytest
from flask import Flask

from director.services import dealer
from director.services import waiting_list as waiting_service
from director.services.seating import load_layout, policy_for
from director.tournament.room import room_of
from tests.web import test_big_event as big

statements = big.statements      # the fixtures of the big event's tests
growing = big.growing
Growing = big.Growing


def _table_ids(g: Growing) -> list[int]:
    return [t["table_id"] for t in g.client.get(
        f"/api/tournaments/{g.id}/dealer/pairing", headers=g.auth).get_json()["tables"]]


# ---------------------------------------------------------------- a table's hands

def test_the_hand_list_sends_the_same_statements_whatever_the_number_of_hands_it_shows(
        growing: Growing, statements: list[str]) -> None:
    """Every hand shown (up to the page's 30) costs no statement of its own: the page
    read each hand's log and last tap (``hand_json``), 66 statements for 30 hands."""
    growing.grow(20)
    table_id = _table_ids(growing)[0]
    page = f"/director/{growing.id}/dealers/{table_id}/hands"
    big._fold_around(growing.client, growing.auth, table_id)
    dealer.forget_all_hands()           # read from the database, as a restarted server would
    one = growing.cost(page, statements)[0]
    for _ in range(5):
        big._fold_around(growing.client, growing.auth, table_id)
    dealer.forget_all_hands()
    html = growing.client.get(page).get_data(as_text=True)
    assert html.count('class="hand-card"') == 6
    dealer.forget_all_hands()
    assert growing.cost(page, statements)[0] == one
    assert html.count('class="award-line"') >= 6        # each hand says who won the pot


def test_the_hand_list_api_pages_the_newest_hands_and_names_the_next_page(
        growing: Growing, statements: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from director.services.dealer import history
    monkeypatch.setattr(history, "HANDS_LISTED", 2)
    growing.grow(20)
    table_id = _table_ids(growing)[0]
    url = f"/api/tables/{table_id}/hands"
    for _ in range(2):
        big._fold_around(growing.client, growing.auth, table_id)
    small = growing.cost(url, statements, api=True)
    for _ in range(3):
        big._fold_around(growing.client, growing.auth, table_id)
    grown = growing.cost(url, statements, api=True)
    assert grown[0] == small[0] and grown[1] < small[1] + 20    # two hands either way
    seen: list[int] = []
    before: int | None = None
    for _ in range(5):
        answer = growing.client.get(url, query_string={"before": before} if before else {}).get_json()
        numbers = [h["number"] for h in answer["hands"]]
        assert numbers == sorted(numbers) and len(numbers) <= 2       # oldest first, a page
        seen = numbers + seen
        before = answer["older"]
        if before is None:
            break
    assert seen == [1, 2, 3, 4, 5]                              # every hand once, by "older"
    for bad in ("abc", "0", "-3", "1.5"):
        r = growing.client.get(url, query_string={"before": bad})
        assert r.status_code == 400 and r.get_json()["errors"]["before"], bad


# ---------------------------------------------------------------- the tablets page

def test_the_tablets_page_shows_a_page_of_tables_and_finds_one_by_its_number(
        growing: Growing, statements: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from director.views import dealer as dealer_views
    monkeypatch.setattr(dealer_views, "TABLES_SHOWN", 2)
    page = f"/director/{growing.id}/dealers"
    growing.grow(27)                         # three tables
    growing.client.get(page)                 # the first look makes the codes shown
    small = growing.cost(page, statements)
    growing.grow(27)                         # six
    numbers = [t["number"] for t in growing.client.get(
        f"/api/tournaments/{growing.id}/dealer/pairing", headers=growing.auth).get_json()["tables"]]
    assert len(numbers) >= 5
    statements.clear()
    html = growing.client.get(page).get_data(as_text=True)
    assert len(statements) == small[0]
    assert abs(len(html.encode()) - small[1]) < 400          # two tables' cards either way
    assert html.count('class="pairing-card"') == 2
    shown = [int(n) for n in re.findall(r'<article class="pairing-card" data-table="(\d+)"', html)]
    assert shown == numbers[:2]
    more = re.search(r'href="([^"]+)" rel="next">More tables<', html)
    assert more, "a page of tables links the next"
    second = growing.client.get(more.group(1).replace("&amp;", "&")).get_data(as_text=True)
    assert [int(n) for n in re.findall(r'data-table="(\d+)"', second.split('pairing-grid')[1])] \
        == numbers[2:4]
    assert "Previous tables" in second
    seen, url = [], page                     # "More tables" to the end reaches every table once
    while url:
        text = growing.client.get(url).get_data(as_text=True)
        seen += [int(n) for n in re.findall(r'<article class="pairing-card" data-table="(\d+)"', text)]
        found = re.search(r'href="([^"]+)" rel="next">More tables<', text)
        url = found.group(1).replace("&amp;", "&") if found else ""
    assert seen == numbers
    one = growing.client.get(page, query_string={"table": str(numbers[-1])}).get_data(as_text=True)
    assert re.findall(r'<article class="pairing-card" data-table="(\d+)"', one) == [str(numbers[-1])]
    assert "Every table" in one and "rel=\"next\"" not in one
    none = growing.client.get(page, query_string={"table": "999"})
    assert none.status_code == 200 and "There is no table 999 in play" in none.get_data(as_text=True)
    bad = growing.client.get(page, query_string={"table": "seven"})
    assert bad.status_code == 400
    assert "Table number must be a whole number" in bad.get_data(as_text=True)


def test_a_locked_table_on_another_page_is_named_and_a_new_code_shows_its_table(
        app: Flask, growing: Growing, monkeypatch: pytest.MonkeyPatch) -> None:
    from director.views import dealer as dealer_views
    monkeypatch.setattr(dealer_views, "TABLES_SHOWN", 2)
    growing.grow(36)
    tables = growing.client.get(f"/api/tournaments/{growing.id}/dealer/pairing",
                                headers=growing.auth).get_json()["tables"]
    last = tables[-1]
    for n in range(5):                        # wrong codes lock the last table's pairing
        app.test_client().post("/api/dealer/pair", json={"table": last["number"], "code": "000000"},
                               environ_base={"REMOTE_ADDR": f"10.9.0.{n + 1}"})
    html = growing.client.get(f"/director/{growing.id}/dealers").get_data(as_text=True)
    assert f'data-table="{last["number"]}"' not in html.split("pairing-grid")[1]   # not on page 1
    assert re.search(rf"Table {last['number']}: pairing locked after \d+ wrong codes", html)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    r = growing.client.post(f"/director/{growing.id}/dealers/{last['table_id']}/revoke",
                            data={"csrf_token": token})
    assert r.status_code == 302 and f"table={last['number']}" in r.headers["Location"]


def test_a_tables_qr_code_reads_that_table_only(
        growing: Growing, statements: list[str]) -> None:
    growing.grow(18)
    table_id = _table_ids(growing)[0]
    image = f"/director/{growing.id}/dealers/{table_id}/qr.svg"
    small = growing.cost(image, statements)[0]
    growing.grow(36)
    assert growing.cost(image, statements)[0] == small


# ---------------------------------------------------------------- the waiting list

def test_the_waiting_list_api_counts_the_room_without_reading_its_seats(
        app: Flask, growing: Growing, statements: list[str]) -> None:
    url = f"/api/tournaments/{growing.id}/waiting-list"

    def same_room() -> dict[str, object]:
        answer = growing.client.get(url, headers=growing.auth).get_json()
        with app.app_context():        # the room as the seating's layout makes it
            expected = waiting_service.room_json(room_of(
                load_layout(growing.id), policy_for(growing.id),
                registered=waiting_service._registered(growing.id)))
        assert answer["room"] == expected
        return answer["room"]

    growing.api.buy_in("Early Bird")
    growing.count += 1
    assert same_room()["seated"] == 1                      # before the draw: the registered
    r = growing.client.post(f"/api/tournaments/{growing.id}/seating/settings",
                            headers=growing.auth, json={"room_tables": 6})
    assert r.status_code == 200, r.get_json()
    assert same_room()["full"] is False
    growing.grow(17)
    small = growing.cost(url, statements, api=True)[0]
    for seat in ("SELECT seat.", "FROM seat JOIN player", "FROM player WHERE"):
        assert not any(seat in s.replace("\n", " ") for s in statements), seat
    growing.grow(27, busts=4)
    room = same_room()
    assert room["tables"] == 6 and room["open_seats"] is not None
    assert growing.cost(url, statements, api=True)[0] == small
