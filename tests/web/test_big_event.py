"""A big event's pages cost the same whatever its history (issue 29).

The growth is tested on small events with the SQL statements each request
sends (``statements``) and the size of its answer: the same statements with 20
and with 60 entries, an answer that holds what changed.  The big event itself
is ``benchmarks/big_event.py``."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from director.db import db
from director.services import audit
from tests.conftest import ENTRY, EventApi, statements_sent


@pytest.fixture
def statements(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The SQL statements the app sends from now on, from this thread: the test client
    runs each request here, while the log's background writer may flush the lines of
    earlier writes from its own thread at any moment (on PostgreSQL it once added one
    statement to a page's count).  The screens' state kept for a second
    (``read_model.FRESH_SECONDS``) is read again by every request, so that a count
    does not depend on how long the test took (on CI a page once sent 24, then 19)."""
    from director.services import read_model
    monkeypatch.setattr(read_model, "FRESH_SECONDS", 0.0)
    with statements_sent(app, lambda statement, _parameters: statement) as sent:
        yield sent


# ---------------------------------------------------------------- the audit log

def test_an_audit_line_the_database_refused_as_locked_is_written_on_the_next_try(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    make_tournament(name="Locked out")
    writer = audit.writer(app)
    writer.close()
    with app.app_context():
        from director.db import group_commit
        committer = group_commit()
        real = committer.submit
        refusals = []

        def locked_once(work: Any) -> Any:
            if not refusals:
                refusals.append(1)
                raise sqlite3.OperationalError("database is locked")
            return real(work)

        monkeypatch.setattr(committer, "submit", locked_once)
        audit.record("backup", "the file", actor="system", app=app)
        assert writer.flush() == 0                   # refused: the database was locked
        monkeypatch.setattr(committer, "submit", real)
        lines = audit.recent(actor="system")
    assert refusals == [1]
    assert [line.action for line in lines] == ["backup"]


# ---------------------------------------------------------------- growing events

class Growing:
    """One event grown step by step through the API: buy-ins, the draw, busts."""

    def __init__(self, client: FlaskClient, auth: dict[str, str], tournament_id: int) -> None:
        self.api = EventApi(client, auth, tournament_id)
        self.client, self.auth, self.id = client, auth, tournament_id
        self.count = 0
        self.drawn = False

    def grow(self, entries: int, busts: int = 0) -> None:
        """``entries`` more buy-ins (seated once drawn), then ``busts`` busts, one table's
        at a time, each balancing plan confirmed."""
        for _ in range(entries):
            self.count += 1
            self.api.buy_in(f"Player {self.count:03d}")
        if not self.drawn:
            assert self.api.post("seating/draw").status_code == 200
            self.drawn = True
        for _ in range(busts):
            seating = self.client.get(f"/api/tournaments/{self.id}/seating").get_json()
            victim = seating["tables"][-1]["seats"][0]["player_id"]
            answer = self.api.eliminate(victim).get_json()
            while answer.get("pending_plan"):
                answer = self.api.post(f"seating/plans/{answer['pending_plan']['id']}/confirm"
                                       ).get_json()

    def cost(self, path: str, sent: list[str], *, api: bool = False) -> tuple[int, int]:
        """The statements a GET sends and its answer's bytes."""
        sent.clear()
        r = self.client.get(path, headers=self.auth if api else None)
        assert r.status_code == 200, (path, r.status_code)
        return len(sent), len(r.get_data())


@pytest.fixture
def growing(client: FlaskClient, auth: dict[str, str], login: Callable[[], None],
            make_entry_tournament: Callable[..., int]) -> Growing:
    tid = make_entry_tournament()
    r = client.post(f"/api/tournaments/{tid}/money/settings", headers=auth,
                    json={**ENTRY, "re_entry": True})
    assert r.status_code == 200, r.get_json()
    login()
    return Growing(client, auth, tid)


def test_the_desk_page_sends_the_same_statements_with_20_and_60_entries_and_shows_a_page(
        growing: Growing, statements: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from director.services.money import desk_page, payments
    monkeypatch.setattr(desk_page, "DESK_ROWS", 10)
    monkeypatch.setattr(payments, "LEDGER_ROWS", 10)
    growing.grow(20, busts=3)
    small = growing.cost(f"/director/{growing.id}/desk", statements)
    growing.grow(40, busts=6)
    big_statements, big_bytes = growing.cost(f"/director/{growing.id}/desk", statements)
    assert big_statements == small[0]
    html = growing.client.get(f"/director/{growing.id}/desk").get_data(as_text=True)
    assert html.count("data-payment=") == 10 and 'id="ledger-more"' in html
    assert html.count('<tr data-player="') == 10
    older = growing.client.get(f"/director/{growing.id}/desk?before=40").get_data(as_text=True)
    assert 'data-payment="39"' in older and 'data-payment="40"' not in older


def test_the_seating_page_and_api_send_the_same_statements_with_20_and_60_entries(
        growing: Growing, statements: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from director.services import seating
    from director.services.seating import reading
    for where in (seating, reading):
        monkeypatch.setattr(where, "OUT_SHOWN", 4)
    growing.grow(20, busts=5)
    page, api = (growing.cost(f"/director/{growing.id}/seating", statements),
                 growing.cost(f"/api/tournaments/{growing.id}/seating", statements, api=True))
    growing.grow(40, busts=10)
    assert growing.cost(f"/director/{growing.id}/seating", statements)[0] == page[0]
    assert growing.cost(f"/api/tournaments/{growing.id}/seating", statements, api=True)[0] \
        == api[0]
    data = growing.client.get(f"/api/tournaments/{growing.id}/seating").get_json()
    out = [p for p in data["players"] if p["status"] != "active"]
    assert len(out) == 4 and data["players_left"] == 60 - 15
    html = growing.client.get(f"/director/{growing.id}/seating").get_data(as_text=True)
    assert html.count("data-out=") == 4 and 'id="places-more"' in html


def test_a_bust_and_a_plan_confirm_answer_what_they_changed_not_the_room(
        growing: Growing) -> None:
    growing.grow(60)
    seating = growing.client.get(f"/api/tournaments/{growing.id}/seating").get_json()
    table = min(seating["tables"], key=lambda t: len(t["seats"]))
    victim = table["seats"][0]["player_id"]
    answer = growing.api.eliminate(victim).get_json()
    assert answer["seating"]["partial"] and answer["seating"]["players_left"] == 59
    assert [t["number"] for t in answer["seating"]["tables"]] == [table["number"]]
    assert [p["id"] for p in answer["seating"]["players"]] == [victim]
    plan = answer["pending_plan"]
    assert plan is not None
    confirmed = growing.api.post(f"seating/plans/{plan['id']}/confirm").get_json()
    moved = {m["from_table"] for m in plan["moves"]} | {m["to_table"] for m in plan["moves"]}
    shown = {t["number"] for t in confirmed["seating"]["tables"]}
    assert shown | set(confirmed["seating"]["removed_tables"]) == moved
    assert len(confirmed["seating"]["tables"]) < len(seating["tables"])


def test_a_desk_buy_in_sends_the_same_statements_with_20_and_60_entries(
        growing: Growing, statements: list[str]) -> None:
    def buy_in(name: str) -> int:
        statements.clear()
        r = growing.client.post(f"/api/tournaments/{growing.id}/desk/buy-in",
                                json={"name": name}, headers=growing.auth)
        assert r.status_code == 201, r.get_json()
        return len(statements)

    growing.grow(20, busts=2)
    small = buy_in("Walk-in One")
    growing.grow(40, busts=4)
    # (the first walk-in opened a table: three more lines and the table's row)
    assert buy_in("Walk-in Two") <= small


def test_the_results_page_shows_a_page_of_places_and_the_way_to_the_next(
        growing: Growing, monkeypatch: pytest.MonkeyPatch) -> None:
    from director.views import money as money_views
    monkeypatch.setattr(money_views, "RESULTS_PAGE", 10, raising=False)
    growing.grow(25, busts=12)
    first = growing.client.get(f"/results/{growing.id}").get_data(as_text=True)
    assert first.count('<tr class=') == 10 and "page=2" in first
    last = growing.client.get(f"/results/{growing.id}?page=3").get_data(as_text=True)
    assert last.count('<tr class=') == 5 and "page=2" in last and "page=4" not in last
    csv_lines = growing.client.get(f"/results/{growing.id}.csv").get_data(as_text=True)
    assert len(csv_lines.strip().splitlines()) == 1 + 12     # the CSV has every place


def test_the_player_list_search_is_done_by_the_database(
        app: Flask, client: FlaskClient, auth: dict[str, str]) -> None:
    rows = "name\n" + "".join(f"Player {i:04d}\n" for i in range(300)) + "Anna Berg\n"
    import io
    r = client.post("/api/players/import", headers=auth, content_type="multipart/form-data",
                    data={"file": (io.BytesIO(rows.encode()), "players.csv")})
    assert r.status_code == 200, r.get_json()
    from director.models.people import Person
    from director.services import players
    loaded: list[Any] = []

    def count(target: Any, _context: Any) -> None:
        loaded.append(target)

    event.listen(Person, "load", count)
    try:
        with app.app_context():
            lines, matched = players.list_records("berg")
            assert [line.person.name for line in lines] == ["Anna Berg"] and matched == 1
            lines, matched = players.list_records("", limit=20)
            assert len(lines) == 20 and matched == 301
    finally:
        event.remove(Person, "load", count)
    assert len(loaded) <= 21        # the records shown, not the 301


def _fold_around(client: FlaskClient, auth: dict[str, str], table_id: int) -> None:
    hand = client.post(f"/api/tables/{table_id}/hands", json={}, headers=auth).get_json()
    while not hand["finished"] and hand["to_act"] is not None:
        r = client.post(f"/api/tables/{table_id}/hand/actions", headers=auth, json={
            "seat": hand["to_act"], "action": "fold", "amount": None,
            "version": hand["version"]})
        assert r.status_code == 200, r.get_json()
        hand = r.get_json()


def test_a_tables_hand_list_and_the_tablets_page_send_the_same_statements_with_3_and_9_hands(
        growing: Growing, statements: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from director.views import dealer as dealer_views
    monkeypatch.setattr(dealer_views, "HANDS_SHOWN", 2, raising=False)
    growing.grow(30)
    tables = growing.client.get(f"/api/tournaments/{growing.id}/dealer/pairing",
                                headers=growing.auth).get_json()["tables"]
    table_id = tables[0]["table_id"]
    hands_page = f"/director/{growing.id}/dealers/{table_id}/hands"
    tablets_page = f"/director/{growing.id}/dealers"
    from director.services import dealer
    for _ in range(3):
        _fold_around(growing.client, growing.auth, table_id)
    dealer.forget_all_hands()               # the hands read from the database, not a warm cache
    small = growing.cost(hands_page, statements)[0], growing.cost(tablets_page, statements)[0]
    for _ in range(6):
        _fold_around(growing.client, growing.auth, table_id)
    dealer.forget_all_hands()
    assert growing.cost(hands_page, statements)[0] == small[0]
    assert growing.cost(tablets_page, statements)[0] == small[1]
    html = growing.client.get(hands_page).get_data(as_text=True)
    assert html.count('class="hand-card"') == 2 and "before=8" in html
    older = growing.client.get(hands_page + "?before=8").get_data(as_text=True)
    assert ">Hand 7 " in older and ">Hand 6 " in older and ">Hand 8 " not in older


def test_the_money_settings_page_works_out_only_the_field_sizes_it_shows(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from director.tournament import payouts
    worked_out: list[int] = []
    real = payouts.Template.places_for

    def counted(self: Any, entries: int) -> int:
        worked_out.append(entries)
        return real(self, entries)

    standard = payouts.TEMPLATES["standard"]
    everything = standard.bands(2_400)
    monkeypatch.setattr(payouts.Template, "places_for", counted)
    shown = standard.bands(2_400 * 3, limit=12)        # the page at 2,400 entries
    assert shown == everything[:12]
    assert len(worked_out) == shown[-1].last            # not 7,200 field sizes


def _room(growing: Growing) -> list[Any]:
    seating = growing.client.get(f"/api/tournaments/{growing.id}/seating").get_json()
    return sorted((t["number"], sorted((s["seat"], s["player_id"]) for s in t["seats"]))
                  for t in seating["tables"])


@pytest.mark.parametrize("earlier_version", [False, True])
def test_a_confirmed_plan_stores_the_tables_it_changed_and_undo_puts_them_back(
        app: Flask, growing: Growing, earlier_version: bool) -> None:
    from director.models.seating import SeatingPlanRecord
    from director.services import seating as seating_service
    from director.tournament.seating import Layout
    growing.grow(60)
    seating = growing.client.get(f"/api/tournaments/{growing.id}/seating").get_json()
    table = min(seating["tables"], key=lambda t: len(t["seats"]))
    answer = growing.api.eliminate(table["seats"][0]["player_id"]).get_json()
    plan = answer["pending_plan"]
    before = _room(growing)
    with app.app_context():
        whole = seating_service.load_layout(growing.id)
        pending = db.session.get(SeatingPlanRecord, plan["id"])
        assert pending.layout_before == {"digest": seating_service.layout_digest(whole)}
    assert growing.api.post(f"seating/plans/{plan['id']}/confirm").status_code == 200
    after = _room(growing)
    with app.app_context():
        record = db.session.get(SeatingPlanRecord, plan["id"])
        changed = record.layout_after["numbers"]
        moved = {m["from_table"] for m in plan["moves"]} | {m["to_table"] for m in plan["moves"]}
        assert set(changed) == moved and len(changed) < len(seating["tables"])
        assert [t["number"] for t in record.layout_before["tables"]] == changed
        if earlier_version:       # a record written before: the whole room twice
            record.layout_before = Layout.from_json({"tables": [
                t for t in seating_service.load_layout(growing.id).to_json()["tables"]
                if t["number"] not in changed] + record.layout_before["tables"]}).to_json()
            record.layout_after = seating_service.load_layout(growing.id).to_json()
            db.session.commit()
    assert before != after
    assert growing.api.post("seating/undo").status_code == 200
    assert _room(growing) == before
    assert growing.api.post(f"seating/plans/{plan['id']}/confirm").status_code == 200
    assert _room(growing) == after


# ---------------------------------------------------------------- backups

def test_backups_are_kept_hourly_for_a_day_and_daily_for_a_month_within_their_size() -> None:
    from datetime import UTC, datetime, timedelta
    from pathlib import Path

    from director.services.backup import Retention, retain
    now = datetime(2026, 12, 3, 12, 5, tzinfo=UTC)
    every_ten_minutes = [(Path(f"director-{i}.sqlite"), now - timedelta(minutes=10 * i), 100)
                         for i in range(6 * 24 * 40)]              # 40 days of them
    kept, dropped = retain(every_ten_minutes, now, Retention(keep=1000, max_bytes=0))
    ages = [now - when for _path, when, _size in kept]
    assert sum(age <= timedelta(hours=1) for age in ages) == 7       # all of the last hour
    assert sum(timedelta(hours=1) < age <= timedelta(hours=24) for age in ages) == 23
    assert max(ages) <= timedelta(days=30) and len(kept) == 7 + 23 + 30
    assert len(kept) + len(dropped) == len(every_ten_minutes)
    kept, _ = retain(every_ten_minutes, now, Retention(keep=1000, max_bytes=2_000))
    assert len(kept) == 20 and kept[0] == every_ten_minutes[0]     # the newest 2,000 bytes
    kept, _ = retain(every_ten_minutes, now, Retention(keep=12, max_bytes=0))
    assert len(kept) == 12 and kept[0] == every_ten_minutes[0]
    one_big = [(Path("director-0.sqlite"), now, 10**12)]
    assert retain(one_big, now, Retention())[0] == one_big          # the newest stays


def test_the_backups_page_lists_the_backups_with_their_total_and_the_rule(
        app: Flask, client: FlaskClient, login: Callable[[], None]) -> None:
    from director.services import backup
    with app.app_context():
        first = backup.new_backup(app, "director")
        second = backup.new_backup(app, "director")
    login()
    html = client.get("/director/backups").get_data(as_text=True)
    assert first.name in html and second.name in html
    total = first.stat().st_size + second.stat().st_size
    assert f'data-total="{total}"' in html
    assert 'id="backup-rule"' in html
    assert client.get("/director/").get_data(as_text=True).count('href="/director/backups"') == 1


def test_the_money_api_answers_the_ledgers_newest_lines_and_the_way_to_older_ones(
        growing: Growing, monkeypatch: pytest.MonkeyPatch) -> None:
    from director.services.money import payments
    monkeypatch.setattr(payments, "LEDGER_ROWS", 10)
    growing.grow(25)
    url = f"/api/tournaments/{growing.id}/money"
    newest = growing.client.get(url, headers=growing.auth).get_json()
    assert newest["entries"] == 25
    assert [line["id"] for line in newest["ledger"]] == list(range(16, 26))
    older = growing.client.get(f"{url}?before={newest['ledger_older']}",
                               headers=growing.auth).get_json()
    assert [line["id"] for line in older["ledger"]] == list(range(6, 16))


def test_a_money_write_answers_the_ledgers_newest_lines_whatever_its_length(
        growing: Growing, monkeypatch: pytest.MonkeyPatch) -> None:
    """The settings and an undo answer the money with the ledger's newest
    ``WRITE_LEDGER_ROWS`` lines (the undone one among them), the same size with 12
    entries and with 36."""
    from director.views import money as money_views
    monkeypatch.setattr(money_views, "WRITE_LEDGER_ROWS", 5)
    url = f"/api/tournaments/{growing.id}/money"
    sizes = []
    for entries in (12, 24):
        growing.grow(entries)
        newest = growing.client.get(url, headers=growing.auth).get_json()["ledger"][-1]["id"]
        undone = growing.client.post(f"{url}/payments/{newest}/undo", headers=growing.auth)
        assert undone.status_code == 200, undone.get_json()
        lines = undone.get_json()["ledger"]
        assert len(lines) == 5 and lines[-1]["id"] == newest and lines[-1]["undone"]
        assert undone.get_json()["ledger_older"] == lines[0]["id"]
        settings = growing.client.post(f"{url}/settings", headers=growing.auth,
                                       json={**ENTRY, "re_entry": True})
        assert settings.status_code == 200, settings.get_json()
        assert len(settings.get_json()["ledger"]) == 5
        sizes.append(len(undone.get_data()))
    assert sizes[1] <= sizes[0] * 1.05, sizes


def test_the_results_and_players_exports_are_sent_in_pieces(
        growing: Growing, monkeypatch: pytest.MonkeyPatch) -> None:
    from director.services import players_csv
    from director.services.money import places
    growing.grow(12, busts=6)
    whole = {path: growing.client.get(path).get_data(as_text=True)
             for path in (f"/results/{growing.id}.csv", "/director/players.csv")}
    monkeypatch.setattr(places, "CSV_CHUNK_CHARS", 40)
    monkeypatch.setattr(players_csv, "CSV_CHUNK_CHARS", 40, raising=False)
    for path, text in whole.items():
        r = growing.client.get(path)
        pieces = [piece for piece in r.response if piece]
        assert r.is_streamed and len(pieces) > 2, path
        assert b"".join(pieces).decode() == text and text.startswith("\ufeff")
        assert len(text.splitlines()) == (1 + 6 if path.startswith("/results") else 1 + 12)


def test_a_bust_and_a_confirm_parse_the_structure_once(
        growing: Growing, monkeypatch: pytest.MonkeyPatch) -> None:
    from director.models import tournament as tournament_model
    growing.grow(30)
    real = tournament_model.parse_levels
    parsed: list[int] = []

    def counted(levels: Any) -> Any:
        parsed.append(1)
        return real(levels)

    monkeypatch.setattr(tournament_model, "parse_levels", counted)
    seating = growing.client.get(f"/api/tournaments/{growing.id}/seating").get_json()
    table = min(seating["tables"], key=lambda t: len(t["seats"]))
    parsed.clear()
    answer = growing.api.eliminate(table["seats"][0]["player_id"]).get_json()
    assert len(parsed) <= 1
    parsed.clear()
    assert growing.api.post(f"seating/plans/{answer['pending_plan']['id']}/confirm"
                            ).status_code == 200
    assert len(parsed) <= 1


def test_a_leagues_standings_are_shown_a_page_at_a_time(
        growing: Growing, monkeypatch: pytest.MonkeyPatch) -> None:
    from director.views import players as players_views
    monkeypatch.setattr(players_views, "STANDINGS_PAGE", 5, raising=False)
    growing.grow(12, busts=8)
    r = growing.client.post("/api/players/leagues", headers=growing.auth, json={
        "name": "Season", "formula": "linear", "tournament_ids": [growing.id]})
    assert r.status_code == 201, r.get_json()
    league = r.get_json()["id"]
    first = growing.client.get(f"/director/players/leagues/{league}").get_data(as_text=True)
    assert first.count("<tr data-person=") == 5 and "page=2" in first
    last = growing.client.get(f"/director/players/leagues/{league}?page=2").get_data(as_text=True)
    assert last.count("<tr data-person=") == 3 and "page=1" in last
    api = growing.client.get(f"/api/players/leagues/{league}", headers=growing.auth).get_json()
    assert (len(api["standings"]), api["page"], api["pages"], api["total"]) == (5, 1, 2, 8)
    rest = growing.client.get(f"/api/players/leagues/{league}?page=2",
                              headers=growing.auth).get_json()
    assert [line["rank"] for line in api["standings"] + rest["standings"]] == \
        sorted(line["rank"] for line in api["standings"] + rest["standings"])
    assert len({line["name"] for line in api["standings"] + rest["standings"]}) == 8


def test_the_seating_page_is_the_same_size_with_20_and_60_entries_and_finds_any_player(
        growing: Growing, statements: list[str], monkeypatch: pytest.MonkeyPatch,
        csrf: Callable[[], str]) -> None:
    from director.services import seating
    from director.services.seating import reading
    for where in (seating, reading):      # the page's steps, and the service's slices
        monkeypatch.setattr(where, "OUT_SHOWN", 4)
        monkeypatch.setattr(where, "PLAYERS_SHOWN", 8)
        monkeypatch.setattr(where, "TABLES_SHOWN", 2)
    growing.grow(20, busts=5)
    small = growing.cost(f"/director/{growing.id}/seating", statements)
    growing.grow(40, busts=10)
    big = growing.cost(f"/director/{growing.id}/seating", statements)
    assert big[0] == small[0]
    assert big[1] <= small[1] * 1.03, (small, big)
    page = f"/director/{growing.id}/seating"
    html = growing.client.get(page).get_data(as_text=True)
    assert html.count('<tr data-player="') == 8 and html.count('<svg class="table-chart') == 2
    assert 'id="players-more"' in html and 'id="tables-more"' in html
    # a player past the first page: found by name, then his chips are counted
    last = growing.client.get(f"/api/tournaments/{growing.id}/seating").get_json()["players"]
    target = max((p for p in last if p["status"] == "active"), key=lambda p: p["name"])
    assert f'data-player="{target["id"]}"' not in html
    found = growing.client.get(page, query_string={"q": target["name"]}).get_data(as_text=True)
    assert f'<tr data-player="{target["id"]}"' in found
    assert f'<option value="{target["id"]}">' in found
    assert f'id="table-{target["table"]}"' in growing.client.get(
        page, query_string={"q": str(target["table"])}).get_data(as_text=True)
    r = growing.client.post(f"{page}/chips", query_string={"q": target["name"]},
                            data={"player_id": str(target["id"]), "chips": "12345",
                                  "csrf_token": csrf()})
    assert r.status_code == 302 and "q=Player" in r.headers["Location"]   # back to the search
    assert f'/chips?q={target["name"].replace(" ", "+")}' in found    # the form keeps it
    after = growing.client.get(f"/api/tournaments/{growing.id}/seating").get_json()["players"]
    assert {p["id"]: p["chips"] for p in after}[target["id"]] == 12345


def test_the_tablets_page_links_each_tables_qr_code_as_a_cached_image_for_the_director(
        growing: Growing, app: Flask) -> None:
    page = f"/director/{growing.id}/dealers"
    growing.grow(18)
    small_tables = len(growing.client.get(f"/api/tournaments/{growing.id}/seating").get_json()
                       ["tables"])
    small = len(growing.client.get(page).get_data())
    growing.grow(36)
    html = growing.client.get(page).get_data(as_text=True)
    tables = growing.client.get(f"/api/tournaments/{growing.id}/dealer/pairing",
                                headers=growing.auth).get_json()["tables"]
    assert len(tables) >= small_tables + 3
    per_table = (len(html.encode()) - small) / (len(tables) - small_tables)
    assert per_table < 1500, per_table          # an inline QR code alone was ~2,900 bytes
    assert "<svg" not in html.split('class="pairing-grid"')[1]
    images = re.findall(r'<img [^>]*src="([^"]+/qr\.svg[^"]*)"', html)
    assert len(images) == len(tables)
    image = growing.client.get(images[0].replace("&amp;", "&"))
    assert image.status_code == 200 and image.mimetype == "image/svg+xml"
    assert image.get_data().lstrip().startswith(b"<svg") and b"xmlns" in image.get_data()
    assert "private" in image.headers["Cache-Control"]
    assert "max-age" in image.headers["Cache-Control"]
    stranger = app.test_client()
    assert stranger.get(images[0].replace("&amp;", "&")).status_code in (302, 401, 403)


def test_a_write_whose_log_line_cannot_be_written_is_not_acknowledged_and_is_logged_later(
        app: Flask, growing: Growing, monkeypatch: pytest.MonkeyPatch) -> None:
    growing.grow(4)
    player = growing.client.get(f"/api/tournaments/{growing.id}/seating").get_json()["players"][0]
    with app.app_context():
        from director.db import group_commit
        committer = group_commit()
    real = committer.submit

    def locked(work: Any) -> Any:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(committer, "submit", locked)       # the log's insert is refused
    r = growing.client.post(f"/api/tournaments/{growing.id}/seating/chips", headers=growing.auth,
                            json={"player_id": player["id"], "chips": 4321})
    assert r.status_code == 503 and r.headers.get("Retry-After")
    assert "log" in r.get_json()["error"]
    monkeypatch.setattr(committer, "submit", real)
    with app.app_context():
        lines = audit.recent(text="seating")
    assert any(line.action.endswith("api_chips") and line.details.get("chips") == 4321
               for line in lines)                           # applied, and logged after all
    players = growing.client.get(f"/api/tournaments/{growing.id}/seating").get_json()["players"]
    assert {p["id"]: p["chips"] for p in players}[player["id"]] == 4321


def test_the_seating_pages_search_finds_a_name_with_a_capital_outside_ascii(
        growing: Growing) -> None:
    growing.grow(4)
    growing.api.buy_in("Åsa Öberg")
    html = growing.client.get(f"/director/{growing.id}/seating",
                              query_string={"q": "Åsa Ö"}).get_data(as_text=True)
    assert html.count('<tr data-player="') == 1 and "Åsa Öberg" in html
