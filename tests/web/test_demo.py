"""The first-run demo event (``director init-db --demo-if-empty``): worth opening.

27 paid players seated at 3 tables of 9 through the ordinary services, the
clock not started, created once; and every screen it feeds shows it.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable

from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import func, select

from director.db import db
from director.models import Tournament
from director.models.money import Payment
from director.models.seating import Player
from director.services import demo, money, read_model, seating


def test_the_demo_is_a_paid_and_seated_field_with_the_clock_stopped(app: Flask) -> None:
    with app.app_context():
        made = demo.create_demo_if_empty(random.Random(5))
        assert made is not None and (made.players, made.tables) == (27, 3)
        tid = made.tournament.id
        view = seating.overview(tid)
        assert [len(t.seats) for t in view.layout.tables] == [9, 9, 9]
        assert view.policy.table_size == 9
        seats = [(t.number, s) for t in view.layout.tables for s in t.seats]
        assert len(set(seats)) == 27
        names = {p.name for p in view.players}
        assert len(names) == 27 and {"Anna Berg", "Budi Santoso", "Siti Rahmawati",
                                     "Johan Åkesson"} <= names
        assert all(p.chips == 20_000 and p.status == "active" for p in view.players)
        # Every player has paid his buy-in through the desk: 27 × (100 + 10) EUR.
        state = money.money(tid)
        assert (state.entries, state.players_left, state.chips_in_play) == (27, 27, 540_000)
        assert state.currency == "EUR" and state.pool.total == 2_700_00
        payments = db.session.scalars(select(Payment).where(Payment.tournament_id == tid)).all()
        assert Counter(p.kind for p in payments) == {"buy-in": 27}
        assert {p.fee for p in payments} == {10_00}
        clock = read_model.clock_state(tid)
        assert clock["running"] is False and clock["level_index"] == 0
        assert clock["ends_at"] is None


def test_the_demo_is_created_only_when_the_database_is_empty(
        app: Flask, make_tournament: Callable[..., int]) -> None:
    make_tournament(name="Tonight's PLO")
    with app.app_context():
        assert demo.create_demo_if_empty() is None
        assert db.session.scalar(select(func.count()).select_from(Tournament)) == 1
        assert db.session.scalar(select(func.count()).select_from(Player)) == 0


def test_init_db_reports_the_seated_demo_once(app: Flask, runner: FlaskCliRunner) -> None:
    first = runner.invoke(args=["init-db", "--demo-if-empty"]).output
    assert "demo tournament" in first and "27 players seated at 3 tables" in first
    assert "clock not started" in first
    again = runner.invoke(args=["init-db", "--demo-if-empty"]).output
    assert "demo" not in again
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Player)) == 27
        assert db.session.scalar(select(func.count()).select_from(Payment)) == 27


def test_every_screen_of_the_demo_has_something_to_show(
        app: Flask, client: FlaskClient, login: Callable[[], None]) -> None:
    with app.app_context():
        made = demo.create_demo_if_empty()
        assert made is not None
        tid = made.tournament.id
    login()
    seating_page = client.get(f"/director/{tid}/seating").get_data(as_text=True)
    assert "Table 3" in seating_page and "Sofia Nyström" in seating_page
    desk = client.get(f"/director/{tid}/desk").get_data(as_text=True)
    assert "Dewi Lestari" in desk and "€2,700.00" in desk
    pairing = client.get(f"/director/{tid}/dealers").get_data(as_text=True)
    codes = re.findall(r'class="pairing-code"[^>]*>\s*(\d+)\s*<', pairing)
    assert len(codes) == 3
    find = client.get(f"/api/tournaments/{tid}/clock").get_json()
    assert find["running"] is False and find["level_index"] == 0
