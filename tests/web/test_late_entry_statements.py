"""A late entry's cost does not grow with the room (issue 28: the seating move).

Under load each SQL statement gives up the interpreter lock and waits to get it
back, so a request costs in proportion to its statements.  A late entry at a
300-table event sent 40; these tests hold it to ``LATE_ENTRY_STATEMENTS``, the
same at 10 tables as at 40, and check what the savings rest on: the seating
settings row written once per unit of work, the field counted once per quiet
transaction, and a seat stored at a table whose own row is not read.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from director.db import db
from director.models.seating import Player, SeatingSettings
from director.services import seating
from director.tournament.seating import (
    Layout,
    Move,
    SeatingPolicy,
    TableState,
    apply_moves,
    apply_plan,
    draw_seats,
    remove_players,
)
from tests.conftest import ENTRY, statements_sent

LATE_ENTRY_STATEMENTS = 31   # 40 before (issue 28)
TABLE_SIZE = 6


@pytest.fixture
def statements(app: Flask) -> Iterator[list[str]]:
    """The SQL statements the app sends from this thread (the audit log's writer
    flushes from its own)."""
    with statements_sent(app, lambda statement, _parameters: " ".join(statement.split())) as sent:
        yield sent


def drawn_event(app: Flask, client: FlaskClient, auth: dict[str, str],
                make_tournament: Callable[..., int], tables: int) -> int:
    """An event taking entries, ``tables`` full tables of 6 drawn."""
    tid = make_tournament()
    assert client.post(f"/api/tournaments/{tid}/money/settings", headers=auth,
                       json=ENTRY).status_code == 200
    assert client.post(f"/api/tournaments/{tid}/seating/settings", headers=auth,
                       json={"table_size": TABLE_SIZE}).status_code == 200
    with app.app_context():
        db.session.add_all(Player(tournament_id=tid, name=f"Player {i:03d}", chips=20_000,
                                  entry_chips=20_000, status="active")
                           for i in range(tables * TABLE_SIZE))
        db.session.commit()
    assert client.post(f"/api/tournaments/{tid}/seating/draw", headers=auth).status_code == 200
    return tid


def settings_version(tid: int) -> int:
    row = db.session.get(SeatingSettings, tid)
    assert row is not None
    return row.version


def late_entry(client: FlaskClient, auth: dict[str, str], tid: int, name: str,
               sent: list[str]) -> tuple[dict[str, Any], list[str]]:
    sent.clear()
    answer = client.post(f"/api/tournaments/{tid}/seating/players", headers=auth,
                         json={"name": name, "chips": 20_000})
    assert answer.status_code == 201, answer.get_json()
    return answer.get_json(), list(sent)


def test_a_late_entry_sends_the_same_statements_at_10_and_40_tables(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], statements: list[str]) -> None:
    counts = []
    for tables in (10, 40):
        tid = drawn_event(app, client, auth, make_tournament, tables)
        # New names each (a name seen before has its person record already).
        late_entry(client, auth, tid, f"First Late {tables}", statements)   # the first plan
        answer, sent = late_entry(client, auth, tid, f"Second Late {tables}", statements)
        assert answer["seat"] is not None and answer["seating"]["tables"]
        assert answer["seating"]["players_left"] == tables * TABLE_SIZE + 2
        # PostgreSQL also holds the event's row (``FOR KEY SHARE``), once.
        locks = sum("FOR KEY SHARE" in s for s in sent)
        assert locks <= 1
        counts.append(len(sent) - locks)
    assert counts[0] == counts[1]
    assert counts[0] <= LATE_ENTRY_STATEMENTS, counts


def test_a_late_entry_writes_the_seating_settings_row_once_and_counts_the_field_once(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], statements: list[str]) -> None:
    tid = drawn_event(app, client, auth, make_tournament, 3)
    with app.app_context():
        version = settings_version(tid)
    _answer, sent = late_entry(client, auth, tid, "Late Entry", statements)
    # Its lock is the one write of the row (a second one moved the version again).
    assert sum(s.startswith("UPDATE seating_settings") for s in sent) == 1
    with app.app_context():
        assert settings_version(tid) == version + 1
    # The screens' figures, the clock state's field and money and the answer: one count.
    assert sum(s.startswith("SELECT count(player.id) FILTER") for s in sent) == 1
    # The tournament and the money settings: read once before the commit, once after.
    assert sum(s.startswith("SELECT tournament.id, tournament.name") for s in sent) == 2
    assert sum(s.startswith("SELECT money_settings.") for s in sent) == 2


def test_a_seating_write_that_changes_nothing_else_still_moves_the_version(
        ctx: Flask, field: Callable[..., int]) -> None:
    """A seating write whose row did not change otherwise (a chip count) still
    takes the row's lock and moves its version once."""
    tid = field(6)
    before = settings_version(tid)
    player = db.session.scalars(select(Player).where(Player.tournament_id == tid)).first()
    assert player is not None
    seating.set_chips(tid, player.id, 12_345)
    assert settings_version(tid) == before + 1


def test_the_field_is_counted_again_once_the_transaction_writes(
        ctx: Flask, field: Callable[..., int], statements: list[str]) -> None:
    tid = field(6)
    db.session.commit()
    statements.clear()
    assert seating.field_stats(tid)["players_left"] == 6
    assert seating.field_stats(tid)["players_left"] == 6     # quiet: counted once
    assert len(statements) == 1
    player = db.session.scalars(select(Player).where(Player.tournament_id == tid)).first()
    assert player is not None
    player.status = "out"                                   # a change not yet written
    assert seating.field_stats(tid)["players_left"] == 5
    assert seating.field_totals(tid)[0] == 5                # written: counted each time
    db.session.rollback()
    assert seating.field_stats(tid)["players_left"] == 6


def test_storing_over_a_stored_room_writes_what_storing_the_whole_room_writes(
        ctx: Flask, field: Callable[..., int]) -> None:
    """``store_layout(..., stored=load_stored(...))``: a table whose own row is as it
    was is not read, its id known; the rows are the ones the whole-room write makes."""
    tid = field(30, draw=False)
    names = {p.id: p.name for p in db.session.scalars(select(Player).where(
        Player.tournament_id == tid))}
    policy = SeatingPolicy(table_size=TABLE_SIZE)
    rng = random.Random(28)
    layout = apply_plan(Layout(()), draw_seats(sorted(names.items()), policy, rng))
    seating.store_layout(tid, layout)
    db.session.commit()
    for _step in range(30):
        stored = seating.load_stored(tid)
        assert stored.layout == layout
        seated = [(s, p) for t in layout.tables for s, p in t.seats.items()]
        kind = rng.choice(["move", "bust", "vacated"])
        if kind == "bust" and len(seated) > 10:
            layout = remove_players(layout, [rng.choice(seated)[1].player_id])
        elif kind == "vacated":                  # the table's own row changes too
            table = rng.choice(layout.tables)
            opened = [n for n in range(1, table.size + 1) if n not in table.seats]
            layout = layout.with_table(TableState(
                table.number, table.size, table.seats, table.button_seat, table.sb_seat,
                table.bb_seat, table.game_is_stud, tuple(opened[:1])))
        else:
            open_seats = [(t.number, n) for t in layout.tables for n in range(1, t.size + 1)
                          if n not in t.seats]
            if not open_seats:
                continue
            (number, seat), (from_seat, who) = rng.choice(open_seats), rng.choice(seated)
            where = layout.where(who.player_id)
            assert where is not None
            layout = apply_moves(layout, [Move(who.player_id, who.name, where[0], from_seat,
                                               number, seat)])
        seating.store_layout(tid, layout, stored=stored)
        db.session.commit()
        assert seating.load_layout(tid) == layout, kind
