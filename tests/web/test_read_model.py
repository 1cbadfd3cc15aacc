"""The screens' read model (issue 27, services.read_model): an event's clock state is read
from the database once per change, however many screens show it and however many
polls ask for it; a change made by another process is seen (the change feed forgets
the kept state); a change rolled back is never read, published or logged, and a
savepoint rolled back inside a unit of work forgets only its own part."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from director.db import db
from director.models import Tournament
from director.services import audit, read_model, uow
from director.services.events import events
from tests.conftest import POSTGRES_URL, level

DEADLINE = 3.0      # seconds: the table feed polls every 0.2 s


class Refused(Exception):
    """Raised inside a savepoint to roll it back."""


def count_reads(monkeypatch: pytest.MonkeyPatch, pause: float = 0.0) -> list[int]:
    """The events whose clock state is computed from the database, one entry per read."""
    reads: list[int] = []
    compute = read_model.clock_json

    def counted(tournament: Tournament, now: Any) -> dict[str, Any]:
        reads.append(tournament.id)
        time.sleep(pause)
        return compute(tournament, now)

    monkeypatch.setattr(read_model, "clock_json", counted)
    return reads


def spy_dispatch(app: Flask, monkeypatch: pytest.MonkeyPatch) -> list[uow.Changes]:
    told: list[uow.Changes] = []
    dispatcher = app.extensions[uow.EXTENSION]

    def spy(changes: uow.Changes) -> None:
        told.append(changes)
        dispatcher(changes)

    monkeypatch.setitem(app.extensions, uow.EXTENSION, spy)
    return told


def test_one_change_is_read_once_for_fifty_screens_and_twenty_polls(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    tid = make_tournament()
    monkeypatch.setattr(read_model, "FRESH_SECONDS", 60.0)   # a slow test run: still fresh
    inboxes: list[queue.SimpleQueue[bytes]] = [queue.SimpleQueue() for _ in range(50)]
    for inbox in inboxes:
        events(app).subscribe(tid, inbox=inbox)
    reads = count_reads(monkeypatch)
    started = client.post(f"/api/tournaments/{tid}/clock/start", headers=auth)
    assert started.status_code == 200
    polls = [client.get(f"/api/tournaments/{tid}/clock").get_json() for _ in range(20)]
    assert reads == [tid]                                   # one read for the change
    version = started.get_json()["version"]
    for inbox in inboxes:                                   # every screen was told it, once
        told = inbox.get(timeout=DEADLINE)
        assert told.startswith(f"id: {version}\nevent: clock\n".encode())
        assert inbox.empty()
    assert {poll["version"] for poll in polls} == {version}
    assert all(poll["running"] for poll in polls)


def test_screens_that_open_together_read_the_state_once(
        app: Flask, make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty polls at once and nothing kept (a server just started): one of them reads
    the state, the others wait for it and get it."""
    tid = make_tournament()
    monkeypatch.setattr(read_model, "FRESH_SECONDS", 60.0)
    with app.app_context():
        read_model.forget()
    reads = count_reads(monkeypatch, pause=0.05)
    answers: list[int] = []
    barrier = threading.Barrier(20)

    def poll() -> None:
        barrier.wait()
        answer = app.test_client().get(f"/api/tournaments/{tid}/clock")
        answers.append(answer.status_code)

    threads = [threading.Thread(target=poll) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert answers == [200] * 20
    assert reads == [tid]


def test_a_read_begun_before_a_change_is_not_kept_over_it(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    """A poll reads the old state while a change commits and is told: the poll's older
    state does not replace the change's in the kept state."""
    tid = make_tournament()
    monkeypatch.setattr(read_model, "FRESH_SECONDS", 60.0)
    compute = read_model.clock_json
    reading, changed = threading.Event(), threading.Event()

    def slow(tournament: Tournament, now: Any) -> dict[str, Any]:
        state = compute(tournament, now)
        if threading.current_thread().name == "old poll":
            reading.set()
            changed.wait(DEADLINE)            # the change is committed and told meanwhile
        return state

    monkeypatch.setattr(read_model, "clock_json", slow)
    with app.app_context():
        read_model.forget(tid)
    old: list[dict[str, Any]] = []
    poll = threading.Thread(name="old poll", target=lambda: old.append(
        app.test_client().get(f"/api/tournaments/{tid}/clock").get_json()))
    poll.start()
    assert reading.wait(DEADLINE)
    assert client.post(f"/api/tournaments/{tid}/clock/start", headers=auth).status_code == 200
    changed.set()
    poll.join(DEADLINE)
    assert old and old[0]["running"] is False             # it answered what it read ...
    assert client.get(f"/api/tournaments/{tid}/clock").get_json()["running"] is True  # ... not kept


def test_of_two_changes_told_out_of_order_the_later_one_is_kept(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Two directors add time at once.  The first change's dispatch has read the event
    (its session keeps that row) when the second commits and is told in full; the
    first then computes its screens' state from the row it read: that older state is
    what its screens are sent, never what is kept over the second's.  (Once in a CI
    run, eight parallel adjustments left one out of the projector's clock.)"""
    tid = make_tournament()
    url = f"/api/tournaments/{tid}/clock"
    assert client.post(f"{url}/start", headers=auth).status_code == 200
    assert client.post(f"{url}/pause", headers=auth).status_code == 200
    monkeypatch.setattr(read_model, "FRESH_SECONDS", 60.0)
    refresh = read_model.refresh
    first_read, second_told = threading.Event(), threading.Event()

    def held(*args: Any) -> dict[str, Any]:
        if threading.current_thread().name == "first":
            first_read.set()                  # its dispatch has read the event ...
            second_told.wait(DEADLINE)        # ... and the second change comes now
        return refresh(*args)

    monkeypatch.setattr(read_model, "refresh", held)
    answers: list[int] = []
    first = threading.Thread(name="first", target=lambda: answers.append(
        app.test_client().post(f"{url}/adjust", json={"seconds": 10}, headers=auth).status_code))
    first.start()
    assert first_read.wait(DEADLINE)
    second = client.post(f"{url}/adjust", json={"seconds": 10}, headers=auth)
    second_told.set()
    first.join(DEADLINE)
    assert second.status_code == 200 and answers == [200]
    kept = client.get(url).get_json()
    assert kept["version"] == second.get_json()["version"]
    assert kept["seconds_remaining"] == pytest.approx(1200 + 20, abs=0.5)


def test_a_page_that_read_the_event_before_a_change_does_not_keep_its_old_state(
        app: Flask, client: FlaskClient, auth: dict[str, str],
        make_tournament: Callable[..., int], monkeypatch: pytest.MonkeyPatch) -> None:
    """A request (a director's page) reads the event, another director's change commits
    meanwhile, and the kept state is gone (another process's change forgot it): the
    page's read of the clock state does not compute it from the row it read before the
    change, nor keep that for every screen that opens next."""
    tid = make_tournament()
    url = f"/api/tournaments/{tid}/clock"
    assert client.post(f"{url}/start", headers=auth).status_code == 200
    assert client.post(f"{url}/pause", headers=auth).status_code == 200
    monkeypatch.setattr(read_model, "FRESH_SECONDS", 60.0)
    with app.test_request_context():
        assert db.session.get(Tournament, tid) is not None         # the page read the event
        answers: list[Any] = []                                     # another director's
        other = threading.Thread(target=lambda: answers.append(app.test_client().post(
            f"{url}/adjust", json={"seconds": 10}, headers=auth)))
        other.start()
        other.join(DEADLINE)
        added = answers[0]
        assert added.status_code == 200
        read_model.forget(tid)
        state = read_model.clock_state(tid)
    assert state["version"] == added.get_json()["version"]
    assert state["seconds_remaining"] == pytest.approx(1210, abs=0.5)
    assert client.get(url).get_json()["seconds_remaining"] == pytest.approx(1210, abs=0.5)


def test_a_change_made_by_another_process_is_seen(
        make_app: Callable[..., Flask], auth: dict[str, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two servers on one database: the second starts the clock; the first, whose kept
    state would stay fresh for an hour, forgets it when the change feed tells it."""
    monkeypatch.setattr(read_model, "FRESH_SECONDS", 3600.0)
    config = {"CHANGE_FEED": "auto" if POSTGRES_URL else "table", "SSE_WATCH_SECONDS": 3600}
    first, second = make_app(**config), make_app(**config)
    screen, desk = first.test_client(), second.test_client()
    created = screen.post("/api/tournaments", headers=auth,
                          json={"name": "Two servers", "levels": [level(100, 200)]})
    tid = created.get_json()["id"]
    assert screen.get(f"/api/tournaments/{tid}/clock").get_json()["running"] is False
    with first.app_context():
        db.session.execute(db.update(Tournament).where(Tournament.id == tid)
                           .values(name="Renamed behind its back"))
        db.session.commit()
    kept = screen.get(f"/api/tournaments/{tid}/clock").get_json()
    assert kept["name"] == "Two servers"                     # kept: no change was told
    events(first).start_feed()
    assert desk.post(f"/api/tournaments/{tid}/clock/start", headers=auth).status_code == 200
    deadline = time.monotonic() + DEADLINE
    state = kept
    while time.monotonic() < deadline and not state["running"]:
        time.sleep(0.05)
        state = screen.get(f"/api/tournaments/{tid}/clock").get_json()
    assert state["running"] is True and state["name"] == "Renamed behind its back"


def test_a_rolled_back_change_is_never_read_published_or_logged(
        app: Flask, client: FlaskClient, make_tournament: Callable[..., int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    tid = make_tournament(name="Kept")
    inbox: queue.SimpleQueue[bytes] = queue.SimpleQueue()
    events(app).subscribe(tid, inbox=inbox)
    told = spy_dispatch(app, monkeypatch)
    reads = count_reads(monkeypatch)
    with app.app_context():
        tournament = db.session.get(Tournament, tid)
        assert tournament is not None
        tournament.name = "Never saved"
        uow.log("event archived", tid)
        uow.clock_moved(tid)
        db.session.flush()
        db.session.rollback()
        uow.commit()                          # nothing left to tell
        assert [entry for entry in audit.recent(kind="changes")
                if entry.message == audit.SENTENCES["event archived"][1]] == []
    assert told == [] and reads == [] and inbox.empty()
    assert client.get(f"/api/tournaments/{tid}/clock").get_json()["name"] == "Kept"


def test_a_savepoint_rolled_back_forgets_only_its_part(
        app: Flask, make_tournament: Callable[..., int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    kept, dropped = make_tournament(name="Kept"), make_tournament(name="Dropped")
    told = spy_dispatch(app, monkeypatch)
    reads = count_reads(monkeypatch)
    with app.app_context():
        assert db.session.get(Tournament, kept) is not None      # the unit's transaction
        uow.log("event archived", kept)
        uow.screens(kept, "clock")
        with pytest.raises(Refused), db.session.begin_nested():
            uow.log("event unarchived", dropped)
            uow.clock_moved(dropped)
            raise Refused
        uow.commit()
    assert len(told) == 1
    assert [(line.key, line.tournament_id) for line in told[0].log] == [("event archived", kept)]
    assert list(told[0].screens) == [kept] and told[0].reschedule == []
    assert reads == [kept]
