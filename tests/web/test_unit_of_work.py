"""The unit of work (issue 27, services.uow and services.publishing): what a service
records is told after its commit and never after a rollback, in one order, by one
dispatch however many services the change went through; a failure while telling
never undoes the commit."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.db import db, utcnow
from director.models import Tournament
from director.services import audit, publishing, read_model, scheduler, tournaments, uow
from director.services.events import events
from tests.conftest import EventApi


class Refused(Exception):
    """Raised inside a savepoint to roll it back."""


def spy_dispatch(app: Flask, monkeypatch: pytest.MonkeyPatch) -> list[uow.Changes]:
    told: list[uow.Changes] = []
    dispatcher = app.extensions[uow.EXTENSION]

    def spy(changes: uow.Changes) -> None:
        told.append(changes)
        dispatcher(changes)

    monkeypatch.setitem(app.extensions, uow.EXTENSION, spy)
    return told


def logged(key: str) -> list[Any]:
    """The log's lines of the sentence ``key`` (the buffer written first)."""
    message = audit.SENTENCES[key][1]
    return [entry for entry in audit.recent(kind="changes") if entry.message == message]


def test_a_log_line_is_written_after_the_commit_and_never_after_a_rollback(
        app: Flask, make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    tid = make_tournament()
    written: list[str] = []
    write = audit.write_change
    monkeypatch.setattr(audit, "write_change", lambda line, **kw: (written.append(line.key),
                                                                  write(line, **kw)))
    with app.app_context():
        assert db.session.get(Tournament, tid) is not None         # a transaction is open
        uow.log("event archived", tid)
        assert written == []                                        # recorded, not written
        db.session.rollback()
        uow.commit()
        assert written == [] and logged("event archived") == []    # forgotten with the rollback
        assert db.session.get(Tournament, tid) is not None
        uow.log("event unarchived", tid)
        assert written == []
        uow.commit()
        assert written == ["event unarchived"]
        assert len(logged("event unarchived")) == 1


def test_something_recorded_after_the_commit_is_told_at_once(
        app: Flask, make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    tid = make_tournament()
    told = spy_dispatch(app, monkeypatch)
    with app.app_context():
        db.session.commit()                                         # no transaction open
        uow.log("event archived", tid)
        assert [line.key for changes in told for line in changes.log] == ["event archived"]


def test_the_dispatch_tells_in_one_order(app: Flask, make_tournament: Callable[..., int],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever order they were recorded in: the log lines, the caches to forget, the
    clock jobs, the clock state read, the seating screens' figures and the clock state
    published together (one write to a screen), and last the events a service made."""
    tid = make_tournament()
    order: list[str] = []
    write, refresh = audit.write_change, read_model.refresh
    broker = events(app)
    publish_all = broker.publish_all           # publish is publish_all of one event
    monkeypatch.setattr(audit, "write_change", lambda line, **kw: (order.append("log"),
                                                                  write(line, **kw)))
    monkeypatch.setattr(scheduler, "reschedule", lambda *args: order.append("reschedule"))
    monkeypatch.setattr(read_model, "refresh",
                        lambda *args: (order.append("read"), refresh(*args))[1])
    monkeypatch.setattr(broker, "publish_all", lambda t, told, **kw: (
        order.append("publish " + " and ".join(name for name, _, _ in told)),
        publish_all(t, told, **kw))[1])
    with app.app_context():
        assert db.session.get(Tournament, tid) is not None
        uow.event(tid, "dealer", {"tournament_id": tid}, kind="hands")
        uow.screens(tid, "seating")
        uow.reschedule(tid)
        uow.after_commit(lambda: order.append("forget"))
        uow.log("event archived", tid)
        uow.commit()
    assert order == ["log", "forget", "reschedule", "read", "publish seating and clock",
                     "publish dealer"]


def test_a_failure_while_telling_does_not_undo_the_commit(
        app: Flask, make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    tid = make_tournament(name="Before")
    made: list[str] = []
    broker = events(app)
    publish = broker.publish

    def broken(*args: Any) -> dict[str, Any]:
        raise RuntimeError("the screens' read failed")

    monkeypatch.setattr(read_model, "refresh", broken)
    monkeypatch.setattr(broker, "publish", lambda t, name, *args, **kw: (
        made.append(name), publish(t, name, *args, **kw))[1])
    with app.app_context(), caplog.at_level(logging.ERROR, logger=publishing.__name__):
        tournament = db.session.get(Tournament, tid)
        assert tournament is not None
        tournament.name = "After"
        uow.log("event archived", tid)
        uow.screens(tid, "clock")
        uow.event(tid, "dealer", {"tournament_id": tid}, kind="hands")
        uow.commit()                                      # does not raise
        assert "the screens' read failed" in caplog.text
        assert made == ["dealer"]                         # the rest was still told
        assert len(logged("event archived")) == 1
    with app.app_context():                               # a new session: it is committed
        assert db.session.get(Tournament, tid).name == "After"  # type: ignore[union-attr]


def test_a_change_through_several_services_is_told_once(
        app: Flask, make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    """The end of an event stops its clock and finishes it (two services, each recording
    the moved clock) and the seating screens change: one dispatch, one clock job, one
    read of the clock state."""
    tid = make_tournament()
    told = spy_dispatch(app, monkeypatch)
    reads: list[int] = []
    compute = read_model.clock_json
    monkeypatch.setattr(read_model, "clock_json", lambda t, now: (reads.append(t.id),
                                                                   compute(t, now))[1])
    with app.app_context():
        tournaments.stop_clock(tid, utcnow())
        tournaments.finish_event(tid)
        uow.screens(tid, "seating")
        uow.commit()
    assert len(told) == 1
    assert told[0].reschedule == [tid]
    assert told[0].screens[tid].kinds == ["clock", "seating"] and told[0].screens[tid].clock
    assert [line.key for line in told[0].log] == ["event finished"]
    assert reads == [tid]


def test_a_desk_buy_in_is_told_once(client: FlaskClient, auth: dict[str, str], app: Flask,
                                    make_entry_tournament: Callable[..., int],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A buy-in goes through the money and the seating services: one dispatch, one read of
    the clock state for every screen."""
    event = EventApi(client, auth, make_entry_tournament())
    event.buy_in("Ann Berg")
    told = spy_dispatch(app, monkeypatch)
    reads: list[int] = []
    compute = read_model.clock_json
    monkeypatch.setattr(read_model, "clock_json", lambda t, now: (reads.append(t.id),
                                                                   compute(t, now))[1])
    event.buy_in("Bo Ek")
    assert len(told) == 1 and reads == [event.id]


def test_a_released_savepoint_is_forgotten_with_the_rollback_of_its_unit(
        app: Flask, make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    tid = make_tournament()
    told = spy_dispatch(app, monkeypatch)
    with app.app_context():
        assert db.session.get(Tournament, tid) is not None
        uow.log("event archived", tid)
        with db.session.begin_nested():                  # released: joins the unit
            uow.log("event unarchived", tid)
            uow.clock_moved(tid)
        db.session.rollback()                            # the unit: all of it forgotten
        uow.commit()
        assert db.session.get(Tournament, tid) is not None
        with pytest.raises(Refused), db.session.begin_nested():
            uow.log("event archived", tid)
            raise Refused
        with db.session.begin_nested():
            uow.log("event unarchived", tid)
        uow.commit()
    assert len(told) == 1
    assert [line.key for line in told[0].log] == ["event unarchived"]
    assert told[0].reschedule == [] and told[0].screens == {}
