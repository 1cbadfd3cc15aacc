"""The room a page at a time (issue 29): the seating API's pages and one table, a bust
that does not read the whole field, the printable seat cards and sign-in sheets a range
of tables at a time, and the desk that costs the same at any size.

Growth is shown on small events with the page sizes made small: the same SQL
statements and an answer no bigger with 20 entries and with 60."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient

from director.services.seating import reading
from tests.web import test_big_event
from tests.web.test_big_event import Growing

statements = test_big_event.statements     # the fixture: the SQL statements sent from now on


class Room(Growing):
    """One event grown through the API: buy-ins at 6-handed tables, the draw, busts
    (``Growing``'s, with the seating API's pages)."""

    def register(self, entries: int) -> None:
        for _ in range(entries):
            self.count += 1
            self.api.buy_in(f"Player {self.count:03d}")

    def draw(self) -> None:
        assert self.api.post("seating/draw").status_code == 200

    def get(self, path: str, status: int = 200) -> Any:
        r = self.client.get(f"/api/tournaments/{self.id}/{path}", headers=self.auth)
        assert r.status_code == status, (path, r.status_code, r.get_data(as_text=True)[:300])
        return r.get_json()

    def pages(self) -> list[dict[str, Any]]:
        """Every page of the seating API, following ``next``."""
        answers = [self.get("seating")]
        while answers[-1]["next"]:
            r = self.client.get(answers[-1]["next"], headers=self.auth)
            assert r.status_code == 200
            answers.append(r.get_json())
        return answers

    def bust_one(self) -> None:
        """A player at the last table out, every plan it proposes confirmed."""
        last = self.get("seating")
        page = self.get(f"seating?page={last['pages']}")
        victim = page["tables"][-1]["seats"][0]["player_id"]
        answer = self.api.eliminate(victim).get_json()
        while answer.get("pending_plan"):
            answer = self.api.post(f"seating/plans/{answer['pending_plan']['id']}/confirm"
                                   ).get_json()


@pytest.fixture
def room(client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
         make_entry_tournament: Callable[..., int]) -> Room:
    tid = make_entry_tournament()
    assert client.post(f"/api/tournaments/{tid}/seating/settings", headers=auth,
                       json={"table_size": 6}).status_code == 200
    login()
    return Room(client, auth, tid)


@pytest.fixture
def small_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reading, "API_TABLES", 2)
    monkeypatch.setattr(reading, "API_UNSEATED", 5)
    monkeypatch.setattr(reading, "PRINT_TABLES", 2)
    monkeypatch.setattr(reading, "OUT_SHOWN", 3)


# ---------------------------------------------------------------- the seating API

def test_the_seating_apis_pages_hold_every_seated_player_once_and_cost_the_same(
        room: Room, small_pages: None, statements: list[str]) -> None:
    room.register(20)
    room.draw()
    for _ in range(3):
        room.bust_one()
    small = room.cost(f"/api/tournaments/{room.id}/seating", statements, api=True)
    room.register(40)
    for _ in range(2):
        room.bust_one()
    big = room.cost(f"/api/tournaments/{room.id}/seating", statements, api=True)
    assert big[0] == small[0]
    assert big[1] <= small[1] * 1.1, (small, big)
    pages = room.pages()
    first = pages[0]
    assert first["pages"] == len(pages) > 2 and [p["page"] for p in pages] == \
        list(range(1, len(pages) + 1))
    assert all(len(p["tables"]) <= 2 for p in pages)
    tables = [t["number"] for p in pages for t in p["tables"]]
    assert len(tables) == len(set(tables)) == first["tables_total"]
    seated = [s["player_id"] for p in pages for t in p["tables"] for s in t["seats"]]
    assert len(seated) == len(set(seated)) == first["players_left"] == 60 - 5
    shown = {pl["id"]: pl for p in pages for pl in p["players"] if pl["status"] == "active"}
    assert set(shown) == set(seated)            # each page names its own tables' players
    out = [pl for pl in first["players"] if pl["status"] != "active"]
    assert len(out) == 3 and first["players_out"] == 5
    assert all(pl["status"] == "active" for p in pages[1:] for pl in p["players"])
    assert all(p["pending_plan"] == first["pending_plan"] and p["policy"] == first["policy"]
               for p in pages)


def test_the_seating_api_answers_one_table_and_keeps_a_page_within_the_pages(
        room: Room, small_pages: None) -> None:
    room.register(20)
    room.draw()
    pages = room.pages()
    table = pages[-1]["tables"][0]
    one = room.get(f"seating?table={table['number']}")
    assert [t["number"] for t in one["tables"]] == [table["number"]]
    assert one["next"] is None and one["players_left"] == 20
    assert sorted(p["id"] for p in one["players"]) == sorted(s["player_id"]
                                                             for s in table["seats"])
    for bad in ("999", "abc", "-1", "1.5", "12345678"):
        answer = room.get(f"seating?table={bad}", status=404)
        assert "There is no table" in str(answer), answer
    last = len(pages)
    for asked, given in (("0", 1), ("-3", 1), ("x", 1), (str(last + 5), last),
                         ("99999999999999999999", last)):
        assert room.get(f"seating?page={asked}")["page"] == given


def test_before_the_draw_the_seating_api_pages_the_players_waiting_for_a_seat(
        room: Room, small_pages: None) -> None:
    room.register(12)
    pages = room.pages()
    assert len(pages) == 3 and all(not p["tables"] for p in pages)
    names = [pl["name"] for p in pages for pl in p["players"]]
    assert len(names) == len(set(names)) == 12 and names == sorted(names)
    assert all(pl["table"] is None for p in pages for pl in p["players"])


def test_a_write_to_the_rooms_settings_answers_its_figures_not_a_page_of_tables(
        room: Room, small_pages: None) -> None:
    """Hand-for-hand and the settings: the room's figures, policy, plans and pages, no
    table (none of their seats changed), the same size with 20 entries and with 60."""
    sizes = []
    for entries in (20, 40):
        room.register(entries)
        if entries == 20:
            room.draw()
        for action in ("announce", "stop"):
            answer = room.api.post("seating/hand-for-hand", action=action)
            assert answer.status_code == 200, answer.get_json()
            seating = answer.get_json()["seating"]
            assert seating["partial"] and seating["tables"] == [] and seating["players"] == []
            assert seating["page"] == 1 and seating["next"] and seating["policy"]["table_size"] == 6
            assert seating["hand_for_hand"]["announced"] == (action == "announce")
        settings = room.api.post("seating/settings", table_size=6)
        assert settings.status_code == 200, settings.get_json()
        assert settings.get_json()["seating"]["tables"] == []
        assert settings.get_json()["policy"]["table_size"] == 6
        sizes.append(len(answer.get_data()))
    assert sizes[1] <= sizes[0] * 1.1, sizes


# ---------------------------------------------------------------- a bust

def test_a_bust_sends_the_same_statements_with_20_and_60_entries(
        room: Room, statements: list[str]) -> None:
    def bust() -> int:
        victim = room.get("seating?page=1")["tables"][0]["seats"][0]["player_id"]
        statements.clear()
        r = room.api.eliminate(victim)
        assert r.status_code == 200, r.get_json()
        sent = len(statements)
        plan = r.get_json()["pending_plan"]
        if plan:
            assert room.api.post(f"seating/plans/{plan['id']}/confirm").status_code == 200
        return sent

    room.register(20)
    room.draw()
    bust()
    small = bust()
    room.register(40)
    bust()
    assert bust() == small
    # the players in are counted, not loaded one by one to be counted
    assert not any(s.lstrip().upper().startswith("SELECT PLAYER.ID, PLAYER.TOURNAMENT_ID")
                   and "player.status = ?" in s and "LIMIT" not in s.upper()
                   and "IN (" not in s.upper() for s in statements)


# ---------------------------------------------------------------- seat cards, sign-in

@pytest.mark.parametrize("page", ["cards", "sign-in"])
def test_the_printable_pages_print_a_range_of_tables_and_link_the_others(
        room: Room, small_pages: None, statements: list[str], page: str) -> None:
    url = f"/director/{room.id}/seating/{page}"
    room.register(20)
    room.draw()
    small = room.cost(url, statements)
    room.register(46)
    big = room.cost(url, statements)
    assert big[0] == small[0]
    pages = room.pages()
    numbers = [t["number"] for p in pages for t in p["tables"]]
    assert len(numbers) % 2 == 1, numbers          # the last range is one table
    html = room.client.get(url).get_data(as_text=True)
    marker = 'class="seat-card"' if page == "cards" else 'class="sign-in-sheet"'
    first_two = [t for p in pages for t in p["tables"]][:2]
    if page == "cards":
        assert html.count(marker) == sum(len(t["seats"]) for t in first_two)
    else:
        assert html.count(marker) == 2
    assert 'id="print-ranges"' in html and 'aria-current="page"' in html
    ranges = [(numbers[i], numbers[min(i + 2, len(numbers)) - 1])
              for i in range(0, len(numbers), 2)]
    for first, last in ranges:
        assert f"from={first}&amp;to={last}" in html
        label = str(first) if first == last else f"{first}–{last}"      # one table: its number
        assert re.search(rf"to={last}\"[^>]*>{label}</a>", html), label
    first, last = ranges[-1]
    other = room.client.get(url, query_string={"from": first, "to": last}).get_data(as_text=True)
    tables = [t for p in pages for t in p["tables"] if first <= t["number"] <= last]
    wanted = {s["name"] for t in tables for s in t["seats"]}
    assert wanted and all(name in other for name in wanted)
    assert not any(s["name"] in other for s in first_two[0]["seats"])
    wide = room.client.get(url, query_string={"from": 1, "to": 9999}).get_data(as_text=True)
    assert wide.count(marker) == html.count(marker)         # never more than a range


@pytest.mark.parametrize("query", [{"from": "x"}, {"to": "²"}, {"from": "5", "to": "2"},
                                   {"from": "1" * 40}])
def test_a_bad_range_of_tables_is_refused_with_a_sentence(
        room: Room, query: dict[str, str]) -> None:
    room.register(8)
    room.draw()
    r = room.client.get(f"/director/{room.id}/seating/cards", query_string=query)
    assert r.status_code == 400
    html = r.get_data(as_text=True)
    assert "Give the tables to print as numbers" in html and 'id="print-errors"' in html


def test_the_printable_pages_before_the_draw_say_so(room: Room) -> None:
    room.register(3)
    sheets = room.client.get(f"/director/{room.id}/seating/sign-in").get_data(as_text=True)
    assert "Draw the seats first" in sheets
    cards = room.client.get(f"/director/{room.id}/seating/cards")
    assert cards.status_code == 200 and 'class="seat-card"' not in cards.get_data(as_text=True)


# ---------------------------------------------------------------- the desk

def test_the_desk_counts_the_players_without_reading_every_name(
        room: Room, statements: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from director.services.money import desk_page
    monkeypatch.setattr(desk_page, "DESK_ROWS", 5)
    room.register(12)
    statements.clear()
    html = room.client.get(f"/director/{room.id}/desk").get_data(as_text=True)
    assert html.count('<tr data-player="') == 5 and "5 of 12 shown" in html
    names = [s for s in statements if "player.name" in s and "\nFROM player \n" in s
             and "LIMIT" not in s.upper() and "IN (" not in s.upper()]
    assert not names, names
    found = room.client.get(f"/director/{room.id}/desk", query_string={"q": "player 00"}
                            ).get_data(as_text=True)
    assert found.count('<tr data-player="') == 5 and "5 of 9 shown" in found   # 001 to 009


def test_a_register_reseat_chips_deal_and_reinstate_answer_what_they_changed(
        room: Room) -> None:
    room.register(20)
    room.draw()
    first = room.get("seating")["tables"][0]
    player = first["seats"][0]["player_id"]

    def partial(r: Any, status: int = 200) -> dict[str, Any]:
        assert r.status_code == status, r.get_json()
        body = r.get_json()
        assert body["seating"]["partial"] and len(r.get_data()) < 4000
        return dict(body["seating"])

    late = partial(room.api.post("seating/players", name="Late Entry", chips=20_000), 201)
    assert [p["name"] for p in late["players"]] == ["Late Entry"]
    seat = room.client.post(f"/api/tournaments/{room.id}/seating/players", headers=room.auth,
                            json={"name": "Later Entry", "chips": 20_000}).get_json()["seat"]
    assert seat is not None
    chips = partial(room.api.post("seating/chips", player_id=player, chips=12_345))
    assert [t["number"] for t in chips["tables"]] == [first["number"]]
    assert [(p["id"], p["chips"]) for p in chips["players"]] == [(player, 12_345)]
    dealt = partial(room.api.post(f"seating/tables/{first['number']}/deal"))
    assert [t["number"] for t in dealt["tables"]] == [first["number"]] and not dealt["players"]
    other = next(t for p in room.pages() for t in p["tables"]
                 if t["number"] != first["number"] and len(t["seats"]) < 6)
    free = next(s for s in range(1, 7) if s not in {x["seat"] for x in other["seats"]})
    moved = partial(room.api.post("seating/reseat", player_id=player, table=other["number"],
                                  seat=free))
    assert {t["number"] for t in moved["tables"]} == {first["number"], other["number"]}
    victim = other["seats"][0]["player_id"]
    assert room.api.eliminate(victim).status_code == 200
    back = partial(room.api.post(f"seating/players/{victim}/reinstate"))
    assert [(p["id"], p["status"]) for p in back["players"]] == [(victim, "active")]
    assert room.get("seating")["players_left"] == 22


# ---------------------------------------------------------------- find my seat

def test_find_my_seat_is_answered_by_the_database_best_match_first(
        room: Room, statements: list[str]) -> None:
    """The players' search sends the same statements and answers the same page with 20 and
    60 players in (the database compares the folded names, counts the matches and sends
    the 12 shown): a name that starts with the text first, then a word of a name, then
    the others; case and accents aside, a % in the search is a character, not a wildcard."""
    for name in ("Åsa Öberg", "Bo Asander", "Lasa Nord", "Pia 100%"):
        room.api.buy_in(name)
    room.register(16)
    room.draw()

    def find(text: str) -> tuple[int, list[str], int]:
        statements.clear()
        answer = room.client.get(f"/seats/{room.id}", query_string={"q": text})
        assert answer.status_code == 200
        page = answer.get_data(as_text=True)
        shown = [name for name in ("Åsa Öberg", "Bo Asander", "Lasa Nord", "Pia 100%")
                 if name in page]
        shown.sort(key=page.index)
        return len(statements), shown, len(page)

    few, order, size = find("ASA")
    assert order == ["Åsa Öberg", "Bo Asander", "Lasa Nord"]
    assert find("0%")[1] == ["Pia 100%"] and find("10")[1] == ["Pia 100%"]
    room.register(40)
    assert room.api.post("seating/draw").status_code in (200, 400, 409)
    many, again, bigger = find("ASA")
    assert (many, again) == (few, order) and abs(bigger - size) < 200
