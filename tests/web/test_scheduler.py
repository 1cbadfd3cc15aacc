"""The level scheduler with real time: 1-2 s levels advance with no client
connected, jobs are rebuilt from the database after a restart of the app, and
a late job is not dropped."""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import pytest

from director.db import db, utcnow
from director.models import Tournament
from director.services import clock as clock_service
from director.services import read_model
from director.services.scheduler import start_scheduler, stop_scheduler
from tests.conftest import level

pytestmark = pytest.mark.slow


def stored_level(app, tournament_id: int) -> int:
    """The level index written in the database (not computed on read)."""
    with app.app_context():
        db.session.expire_all()
        return db.session.get(Tournament, tournament_id).level_index


def wait_for(predicate, timeout: float = 6.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_levels_advance_with_no_client_connected(app, client, auth, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50, seconds=1), level(50, 100, seconds=1),
                                            level(75, 150, seconds=60)])
    start_scheduler(app)
    client.post(f"/api/tournaments/{tournament_id}/clock/start", headers=auth)
    started = time.monotonic()
    assert wait_for(lambda: stored_level(app, tournament_id) == 2, timeout=5)
    took = time.monotonic() - started
    assert 1.5 <= took <= 3.5, f"two 1-second levels took {took:.2f} s"


def test_the_job_is_at_the_end_of_the_current_level(app, client, auth, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50, seconds=90), level(50, 100)])
    scheduler = start_scheduler(app)
    clock = client.post(f"/api/tournaments/{tournament_id}/clock/start", headers=auth).get_json()
    jobs = scheduler.jobs()
    assert jobs[f"clock-{tournament_id}"].isoformat().replace("+00:00", "Z")[:22] == \
        clock["ends_at"][:22]
    client.post(f"/api/tournaments/{tournament_id}/clock/pause", headers=auth)
    assert f"clock-{tournament_id}" not in scheduler.jobs()


def test_adding_time_moves_the_job(app, client, auth, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50, seconds=3), level(50, 100)])
    start_scheduler(app)
    url = f"/api/tournaments/{tournament_id}/clock"
    started = time.monotonic()
    client.post(f"{url}/start", headers=auth)
    client.post(f"{url}/adjust", json={"seconds": 3}, headers=auth)
    assert time.monotonic() - started < 3        # (the adjust came before the old end)
    time.sleep(max(0.0, started + 4.5 - time.monotonic()))
    assert stored_level(app, tournament_id) == 0  # the old job time passed: nothing happened
    assert wait_for(lambda: stored_level(app, tournament_id) == 1, timeout=5)


def test_levels_survive_a_restart_of_the_app(make_app, auth):
    first = make_app()
    client = first.test_client()
    response = client.post("/api/tournaments", headers=auth, json={
        "name": "Restart", "levels": [level(25, 50, seconds=2), level(50, 100, seconds=2),
                                      level(75, 150, seconds=60)]})
    tournament_id = response.get_json()["id"]
    start_scheduler(first)
    client.post(f"/api/tournaments/{tournament_id}/clock/start", headers=auth)
    stop_scheduler(first)  # the server goes down before the first level ends

    second = make_app()  # a new app object on the same database
    start_scheduler(second)  # jobs are rebuilt from the database
    assert wait_for(lambda: stored_level(second, tournament_id) == 2, timeout=6)


def test_a_late_job_still_runs_and_catches_up(app, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50, seconds=60), level(50, 100, seconds=60),
                                            level(75, 150, seconds=600)])
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        # The clock was started 130 s ago while no scheduler ran: two level ends were missed.
        tournament.level_index, tournament.running = 0, True
        tournament.started_at = utcnow() - timedelta(seconds=130)
        db.session.commit()
    start_scheduler(app)
    assert wait_for(lambda: stored_level(app, tournament_id) == 2, timeout=3)
    with app.app_context():
        remaining = read_model.clock_state(tournament_id)["seconds_remaining"]
    assert remaining == pytest.approx(590, abs=1.5)


def test_the_level_end_job_is_idempotent(app, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50, seconds=60), level(50, 100)])
    with app.app_context():
        tournament = db.session.get(Tournament, tournament_id)
        tournament.running, tournament.started_at = True, utcnow() - timedelta(seconds=61)
        db.session.commit()
        clock_service.advance_if_due(tournament_id)
        version = db.session.get(Tournament, tournament_id).version
        clock_service.advance_if_due(tournament_id)  # runs again: nothing is due
        db.session.expire_all()
        again = db.session.get(Tournament, tournament_id)
        assert again.level_index == 1 and again.version == version


def test_a_scheduler_process_learns_of_a_click_within_a_second(make_app, auth):
    """Web workers with DIRECTOR_SCHEDULER=off: another app object runs the scheduler."""
    web = make_app()
    scheduler_app = make_app()
    scheduler = start_scheduler(scheduler_app)
    client = web.test_client()
    tournament_id = client.post("/api/tournaments", headers=auth, json={
        "name": "Split", "levels": [level(25, 50, seconds=2), level(50, 100, seconds=60)]
    }).get_json()["id"]
    client.post(f"/api/tournaments/{tournament_id}/clock/start", headers=auth)
    assert wait_for(lambda: f"clock-{tournament_id}" in scheduler.jobs(), timeout=1.5)
    assert wait_for(lambda: stored_level(web, tournament_id) == 1, timeout=3)


def run_jobs_in_the_schedulers_thread(scheduler) -> None:
    """The level-end job run at once in the scheduler's own thread, before the scheduler
    removes the job that ran (APScheduler's debug executor): the order a busy machine
    can give the two threads, made every time."""
    from apscheduler.executors.debug import DebugExecutor

    scheduler.scheduler.remove_executor("default")
    scheduler.scheduler.add_executor(DebugExecutor(), "default")


def test_a_level_end_after_a_pause_it_did_not_hear_of_leaves_the_scheduler_running(
        make_app, auth):
    """A web worker pauses the clock in the second before the level end, before the
    scheduler process's sync hears of it: the job finds the clock paused and removes
    itself; the scheduler then removed it again, and its JobLookupError ended the
    scheduler's thread: no level end, sync or backup ran after it until a restart."""
    web, scheduler_app = make_app(), make_app()           # DIRECTOR_SCHEDULER=off on the web
    client = web.test_client()
    paused = client.post("/api/tournaments", headers=auth, json={
        "name": "Paused", "levels": [level(25, 50, seconds=2), level(50, 100, seconds=60)]}
    ).get_json()["id"]
    later = client.post("/api/tournaments", headers=auth, json={
        "name": "Later", "levels": [level(25, 50, seconds=1), level(50, 100, seconds=60)]}
    ).get_json()["id"]
    scheduler = start_scheduler(scheduler_app)
    run_jobs_in_the_schedulers_thread(scheduler)
    client.post(f"/api/tournaments/{paused}/clock/start", headers=auth)
    assert wait_for(lambda: f"clock-{paused}" in scheduler.jobs(), timeout=1.5)
    scheduler.scheduler.pause_job("sync")                 # it does not hear of the pause
    client.post(f"/api/tournaments/{paused}/clock/pause", headers=auth)
    assert wait_for(lambda: f"clock-{paused}" not in scheduler.jobs(), timeout=4)   # it ran
    time.sleep(0.2)
    assert scheduler.scheduler._thread.is_alive()
    scheduler.scheduler.resume_job("sync")
    client.post(f"/api/tournaments/{later}/clock/start", headers=auth)
    assert wait_for(lambda: stored_level(web, later) == 1, timeout=4)   # levels still end
    assert stored_level(web, paused) == 0


def test_a_level_end_job_schedules_the_next_level_end_at_once(app, client, auth, make_tournament):
    """The job that ran schedules the next level end; the scheduler then removed the
    job that ran by its name, the next one's too, and the next level end waited for
    the once-a-second sync to put it back."""
    tournament_id = make_tournament(levels=[level(25, 50, seconds=1), level(50, 100, seconds=60),
                                            level(75, 150, seconds=60)])
    scheduler = start_scheduler(app)
    run_jobs_in_the_schedulers_thread(scheduler)
    scheduler.scheduler.remove_job("sync")                 # no sync to put it back
    clock = client.post(f"/api/tournaments/{tournament_id}/clock/start", headers=auth).get_json()
    assert wait_for(lambda: stored_level(app, tournament_id) == 1, timeout=4)
    assert wait_for(lambda: f"clock-{tournament_id}" in scheduler.jobs(), timeout=0.5)
    ends = scheduler.jobs()[f"clock-{tournament_id}"]
    assert (ends - datetime.fromisoformat(clock["ends_at"].replace("Z", "+00:00"))) \
        .total_seconds() == pytest.approx(60, abs=0.2)
