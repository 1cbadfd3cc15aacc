"""The level scheduler: one APScheduler date job per running clock.

It runs in exactly one process: ``director serve`` starts it (unless
``DIRECTOR_SCHEDULER=off``), or ``director scheduler`` runs it alone when the
app is served by several workers.  It is never started by ``create_app``, so
never under a reloader or in tests that do not ask for it.

* Each running clock has one job, ``clock-<id>``, at the end of its current
  level.  The job calls ``services.clock.advance_if_due``, which changes the
  level only if it is still due (idempotent), commits and publishes; then the
  job schedules the next level end.
* ``misfire_grace_time=None`` and ``coalesce=True``: a late job still runs
  (once), and "due as of now" makes lateness harmless.
* The jobs live in memory and are rebuilt from the database: at start-up, and
  every second for the tournaments whose ``version`` changed since (that is
  how a scheduler process learns about a click served by a web worker).
* The periodic backup (``services.backup.scheduled_backup``) is a job of the same
  scheduler, every ``BACKUP_MINUTES`` (:func:`start_backups`).
"""

from __future__ import annotations

import contextlib
import itertools
import threading
from datetime import UTC, datetime, timedelta

from apscheduler.jobstores.base import JobLookupError  # type: ignore[import-untyped]
from apscheduler.schedulers.background import BackgroundScheduler  # type: ignore[import-untyped]
from flask import Flask, current_app
from sqlalchemy import or_, select

from director.db import db, utcnow
from director.models import Tournament
from director.services import backup
from director.services import clock as clock_service

EXTENSION = "director.scheduler"
BACKUP_JOB_ID = "backup"
SYNC_SECONDS = 1.0
JOB_DEFAULTS = {"misfire_grace_time": None, "coalesce": True, "max_instances": 1}


class _Scheduler(BackgroundScheduler):  # type: ignore[misc]
    """APScheduler's background scheduler, whose own removal of a date job that has run
    does not fail when the job is gone already.  The job itself (``run_level_end``), a
    paused clock or a deleted event may remove it first, from another thread, while the
    scheduler's thread still holds it: the ``JobLookupError`` ended that thread, and with
    it every level end, the sync and the backups until the server was started again."""

    def remove_job(self, job_id: str, jobstore: str | None = None) -> None:
        with contextlib.suppress(JobLookupError):
            super().remove_job(job_id, jobstore)


class LevelScheduler:
    """The BackgroundScheduler of one app, with the versions its jobs were built from."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.scheduler = _Scheduler(timezone=UTC, job_defaults=JOB_DEFAULTS)
        self._versions: dict[int, int] = {}
        self._lock = threading.Lock()
        # Each tournament's level-end job has a name of its own each time it is scheduled:
        # the job that has just run schedules the next level end, and the scheduler then
        # removes the job that ran by its name, which would be the next one's too.
        self._jobs: dict[int, str] = {}
        self._numbers = itertools.count(1)
        self._scheduling = threading.Lock()

    def job_id(self, tournament_id: int) -> str:
        """The name ``jobs`` gives a tournament's level-end job."""
        return f"clock-{tournament_id}"

    def schedule(self, tournament_id: int, when: datetime | None) -> None:
        """One date job at ``when`` (a level end), or none when the clock is not running."""
        with self._scheduling:
            old = self._jobs.pop(tournament_id, None)
            if old is not None:
                self.scheduler.remove_job(old)
            if when is None:
                return
            # A level end that is already due runs at once (not in the past: APScheduler
            # would still run it, but "now" reads better in the logs).
            when = max(when, utcnow() + timedelta(milliseconds=5))
            job_id = f"{self.job_id(tournament_id)}-{next(self._numbers)}"
            self.scheduler.add_job(run_level_end, "date", run_date=when,
                                   args=[self.app, tournament_id], id=job_id)
            self._jobs[tournament_id] = job_id

    def sync(self) -> None:
        """Reschedule every tournament whose row changed since its job was built."""

        with self.app.app_context():
            with self._lock:
                known = dict(self._versions)
            query = select(Tournament.id, Tournament.version).where(
                or_(Tournament.running.is_(True), Tournament.id.in_(list(known) or [-1]))
            )
            rows = db.session.execute(query).all()
            seen = set()
            for tournament_id, version in rows:
                seen.add(tournament_id)
                if known.get(tournament_id) == version:
                    continue
                tournament = db.session.get(Tournament, tournament_id)
                if tournament is None:
                    continue
                self.schedule(tournament_id, clock_service.next_change(tournament, utcnow()))
                with self._lock:
                    self._versions[tournament_id] = version
            for gone in set(known) - seen:  # deleted rows
                self.schedule(gone, None)
                with self._lock:
                    self._versions.pop(gone, None)

    def start(self) -> None:
        self.scheduler.start()
        self.sync()  # rebuild every job from the database
        self.scheduler.add_job(
            self.sync, "interval", seconds=SYNC_SECONDS, id="sync", replace_existing=True
        )

    def shutdown(self) -> None:
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)

    def jobs(self) -> dict[str, datetime]:
        """``{"clock-<id>": next run time}`` of the level-end jobs."""
        with self._scheduling:
            names = {job_id: self.job_id(tid) for tid, job_id in self._jobs.items()}
        return {
            names[job.id]: job.next_run_time
            for job in self.scheduler.get_jobs()
            if job.id in names and job.next_run_time is not None
        }


def run_level_end(app: Flask, tournament_id: int) -> None:
    """The job: advance the level if it is due, then schedule the next level end."""

    with app.app_context():
        try:
            when = clock_service.advance_if_due(tournament_id)
        except Exception:
            app.logger.exception("level end of tournament %s failed; retrying in 1 s", tournament_id)
            when = utcnow() + timedelta(seconds=1)
        level_scheduler = app.extensions.get(EXTENSION)
        if level_scheduler is not None:
            level_scheduler.schedule(tournament_id, when)


def start_scheduler(app: Flask) -> LevelScheduler:
    """Start the level scheduler in this process and rebuild its jobs from the DB."""
    existing: LevelScheduler | None = app.extensions.get(EXTENSION)
    if existing is not None and existing.scheduler.running:
        return existing
    level_scheduler = LevelScheduler(app)
    app.extensions[EXTENSION] = level_scheduler
    level_scheduler.start()
    return level_scheduler


def stop_scheduler(app: Flask) -> None:
    level_scheduler: LevelScheduler | None = app.extensions.pop(EXTENSION, None)
    if level_scheduler is not None:
        level_scheduler.shutdown()


def reschedule(tournament_id: int, when: datetime | None) -> None:
    """After a control: move the tournament's job (no-op where no scheduler runs:
    the scheduler process notices the new version within a second)."""
    level_scheduler: LevelScheduler | None = current_app.extensions.get(EXTENSION)
    if level_scheduler is not None and level_scheduler.scheduler.running:
        level_scheduler.schedule(tournament_id, when)


def start_backups(app: Flask) -> bool:
    """Add the periodic backup to this process's running scheduler, every
    ``BACKUP_MINUTES`` (False: off, or no scheduler runs here)."""
    minutes = float(app.config.get("BACKUP_MINUTES", 10) or 0)
    level_scheduler: LevelScheduler | None = app.extensions.get(EXTENSION)
    if minutes <= 0 or level_scheduler is None:
        return False
    level_scheduler.scheduler.add_job(
        backup.scheduled_backup, "interval", minutes=minutes, args=[app], id=BACKUP_JOB_ID,
        replace_existing=True, max_instances=1, coalesce=True)
    return True
