"""A sale, an undo and a deal that finishes the event are each one transaction (issue 27):
when a later part of one is refused, nothing of its earlier parts stays, and nothing is
told (no log line, no screen); when it succeeds, everything is told once, after its commit."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import func, select

from director.db import db
from director.models import Tournament
from director.models.money import MoneySettings, Payment
from director.models.seating import Player, Seat
from director.services import Invalid, people, seating, tournaments, uow
from director.services import money as money_service


@pytest.fixture
def told(ctx: Flask, monkeypatch: pytest.MonkeyPatch) -> list[uow.Changes]:
    """What the unit of work hands to the dispatcher after each commit."""
    dispatched: list[uow.Changes] = []
    monkeypatch.setitem(ctx.extensions, uow.EXTENSION, dispatched.append)
    return dispatched


@pytest.fixture
def seated(ctx: Flask, make_tournament: Callable[..., int]) -> Iterator[int]:
    """An event with three buy-ins seated at one table."""
    tid = make_tournament()
    seating.configure(tid, {"table_size": 9})
    money_service.save_settings(tid, {"buy_in": "100", "starting_stack": 10_000,
                                      "late_registration_level": 6})
    for name in ("Ann", "Bo", "Cy"):
        money_service.register_entry(tid, name)
    seating.draw(tid, random.Random(3))
    yield tid


def _count(model: Any, *where: Any) -> int:
    return int(db.session.scalar(select(func.count(model.id)).where(*where)) or 0)


def _refuse(*_args: object, **_kwargs: object) -> None:
    raise Invalid({"test": "refused"})


def test_a_deal_refused_at_the_end_of_the_event_pays_nothing_and_tells_nothing(
        seated: int, told: list[uow.Changes], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournaments, "finish_event", _refuse)
    with pytest.raises(Invalid):
        money_service.save_deal(seated, {"method": "chip-chop"})
    db.session.rollback()
    assert _count(Payment, Payment.tournament_id == seated, Payment.kind == "payout") == 0
    row = db.session.get(MoneySettings, seated)
    assert row is not None and not row.deal
    assert db.session.get(Tournament, seated).status != "finished"
    assert _count(Player, Player.tournament_id == seated, Player.place.is_not(None)) == 0
    assert told == []


def test_a_deal_that_finishes_the_event_is_told_once_after_its_commit(
        seated: int, told: list[uow.Changes]) -> None:
    money_service.save_deal(seated, {"method": "chip-chop"})
    assert len(told) == 1
    keys = [line.key for line in told[0].log]
    assert "deal saved" in keys and "event finished" in keys
    assert told[0].screens[seated].clock and "money" in told[0].screens[seated].kinds
    db.session.rollback()
    assert db.session.get(Tournament, seated).status == "finished"


def test_an_undo_refused_when_the_seating_is_planned_again_undoes_nothing(
        seated: int, told: list[uow.Changes], monkeypatch: pytest.MonkeyPatch) -> None:
    payment = db.session.scalars(select(Payment).where(
        Payment.tournament_id == seated, Payment.player_name == "Bo")).one()
    player_id = payment.player_id
    monkeypatch.setattr(seating, "replan", _refuse)
    with pytest.raises(Invalid):
        money_service.undo(seated, payment.id)
    db.session.rollback()
    payment = db.session.get(Payment, payment.id)
    assert payment is not None and payment.undone_at is None and payment.player_id == player_id
    assert db.session.get(Player, player_id) is not None
    assert _count(Seat, Seat.player_id == player_id) == 1
    assert told == []


def test_a_sale_refused_after_its_seat_leaves_no_player_no_seat_no_payment(
        seated: int, told: list[uow.Changes], monkeypatch: pytest.MonkeyPatch) -> None:
    seats = _count(Seat, Seat.tournament_id == seated)
    monkeypatch.setattr(people, "link", _refuse)
    with pytest.raises(Invalid):
        money_service.register_entry(seated, "Late Comer")
    db.session.rollback()
    assert _count(Player, Player.tournament_id == seated, Player.name == "Late Comer") == 0
    assert _count(Payment, Payment.tournament_id == seated) == 3
    assert _count(Seat, Seat.tournament_id == seated) == seats
    assert told == []


def test_a_sale_is_told_once_with_its_line_and_the_money_screens(
        seated: int, told: list[uow.Changes]) -> None:
    sale = money_service.register_entry(seated, "Late Comer")
    assert sale.seat is not None
    assert len(told) == 1
    assert [line.key for line in told[0].log] == ["buy-in"]
    assert told[0].screens[seated].kinds[-1] == "money"
