"""Backups: on demand (``director backup PATH``), every N minutes, and restore.

SQLite: ``sqlite3.Connection.backup`` (SQLite's online backup API) copies a
consistent snapshot while the server keeps writing; the copy is checked with
``PRAGMA integrity_check`` before it is kept.  PostgreSQL: ``pg_dump
--format=custom`` of the schema the server's connections work in (restore with
``pg_restore``), when the client tools are installed.

The scheduled backup (:func:`scheduled_backup`) runs in the scheduler's process
(``director serve`` or ``director scheduler``), which sets up its job
(``services.scheduler.start_backups``), every ``DIRECTOR_BACKUP_MINUTES``
(default 10; 0 turns it off) into ``instance/backups/``, keeping every one of the last hour, one an
hour for ``DIRECTOR_BACKUP_HOURLY`` hours (24), one a day for
``DIRECTOR_BACKUP_DAILY`` days (30), at most ``DIRECTOR_BACKUP_KEEP`` (48) and
at most ``DIRECTOR_BACKUP_MAX_MB`` together (2048; the oldest go first, the
newest is always kept): see :class:`Retention`.

``director restore PATH`` (server stopped) first copies the current database
to ``instance/backups/before-restore-<time>.sqlite``, copies and checks the
backup next to the live file, makes sure no connection has the live file open,
then moves the copy over it in one step.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sqlite3
import subprocess
import threading
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from flask import Flask
from sqlalchemy import text
from sqlalchemy.engine import make_url

from director.db import db, utcnow

# How long a restore waits for another connection to let go of the live file.
RESTORE_WAIT_SECONDS = 10.0


class BackupError(RuntimeError):
    """A backup or restore that could not be made; the message says why."""


def sqlite_path(app: Flask) -> Path | None:
    """The SQLite file of this app, or ``None`` on another database."""
    url = make_url(str(app.config["SQLALCHEMY_DATABASE_URI"]))
    if url.get_backend_name() != "sqlite":
        return None
    if not url.database or url.database == ":memory:":
        raise BackupError("An in-memory database cannot be backed up")
    return Path(url.database)


def _check(path: Path) -> None:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as connection:
            result = connection.execute("PRAGMA integrity_check").fetchone()
            tables = {row[0] for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a director database: {exc}") from None
    if not result or result[0] != "ok":
        raise BackupError(f"{path} failed the integrity check: {result}")
    if "tournament" not in tables:
        raise BackupError(f"{path} is not a director database (no tournament table)")


def unreadable(path: Path) -> str | None:
    """Why the file at ``path`` is not a readable database, or None if it is.  The file is
    only read (``mode=ro``): a folder, 0 bytes (SQLite's first connection writes the
    header at once, so only a crash or a failed copy leaves an empty file), another
    file's bytes ("file is not a database"), or a failed ``PRAGMA quick_check``."""
    if path.is_dir():
        return "it is a folder"
    if path.stat().st_size == 0:
        return "the file is empty: 0 bytes"
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as connection:
            connection.execute("PRAGMA schema_version").fetchone()
            found = connection.execute("PRAGMA quick_check(1)").fetchone()
    except sqlite3.Error as exc:
        return str(exc)
    if not found or found[0] != "ok":
        return f"it fails the integrity check: {found[0] if found else 'no answer'}"
    return None


def _copy(source: Path, target: Path) -> None:
    """SQLite's online backup API, page by page (writers wait only for one step)."""
    src = sqlite3.connect(source, timeout=30)
    dst = sqlite3.connect(target, timeout=30)
    try:
        src.backup(dst, pages=1024)
        # The copy is one self-contained file (the live database runs in WAL mode).
        dst.execute("PRAGMA journal_mode=DELETE")
    finally:
        src.close()
        dst.close()


def _take_over(target: Path) -> None:
    """Make sure no other connection has ``target`` open: leaving WAL mode needs
    the only connection (it also folds the -wal file back in).  SQLite's backup
    API would instead wait forever for a busy destination."""
    if not target.exists():
        return
    connection = sqlite3.connect(target, timeout=RESTORE_WAIT_SECONDS)
    try:
        mode = connection.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
    finally:
        connection.close()
    if str(mode).lower() != "delete":
        raise sqlite3.OperationalError("another connection has it open")


def backup(app: Flask, target: str | os.PathLike[str], *, exclusive: bool = False) -> Path:
    """Write a consistent copy of the database to ``target``; returns its path.

    The copy is written beside the target as ``<name>.<pid>-<thread>.partial`` and
    moved over it once checked; a copy that fails, for any reason, is removed
    (``.partial``s a killed process left behind are swept by the next backup).
    ``exclusive``: ``target`` must not exist yet (``FileExistsError``), so that two
    backups never share a file (:func:`_place_new`)."""
    path = Path(target).expanduser().resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    source = sqlite_path(app)
    if source is not None:
        if not source.exists():
            raise BackupError(f"There is no database at {source} yet")
        if path == source.resolve():
            raise BackupError("The backup must not overwrite the database itself")
    for folder in {path.parent, backup_dir(app)}:
        sweep_partials(folder)
    partial = path.with_name(f"{path.name}.{os.getpid()}-{threading.get_ident()}.partial")
    try:
        if source is None:
            _pg_dump(app, partial)
        else:
            _copy(source, partial)
            _check(partial)
        if exclusive:
            _place_new(partial, path)
        else:
            os.replace(partial, path)
    finally:
        _remove_partial(partial)
    return path


def _place_new(partial: Path, path: Path) -> None:
    """Give the finished copy the name ``path``, which must be new: a hard link fails if
    the name is taken (``FileExistsError``) and never shows a half-written file; where
    links are not allowed (a FAT stick), the name is taken with ``O_EXCL``, then the copy
    moved over it."""
    try:
        os.link(partial, path)
        return
    except FileExistsError:
        raise
    except OSError:
        pass
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    try:
        os.replace(partial, path)
    except BaseException:
        path.unlink(missing_ok=True)
        raise


def new_backup(app: Flask, stem: str) -> Path:
    """A backup into ``instance/backups/`` under a name no other backup has:
    ``<stem>-<UTC time to the microsecond>.sqlite`` (``.pgdump``), with ``-2``, ``-3``...
    added if that name is taken (two deletes in the same moment keep two files)."""
    suffix = ".sqlite" if sqlite_path(app) is not None else ".pgdump"
    base = f"{stem}-{utcnow():%Y%m%d-%H%M%S-%f}"
    for n in range(1, 1000):
        name = f"{base}{suffix}" if n == 1 else f"{base}-{n}{suffix}"
        if (backup_dir(app) / name).exists():
            continue
        try:
            return backup(app, backup_dir(app) / name, exclusive=True)
        except FileExistsError:
            continue
    raise BackupError(f"No free backup name for {base} in {backup_dir(app)}")


PARTIAL = re.compile(r"\.(\d+)-\d+\.partial$")


def _remove_partial(partial: Path) -> None:
    """A copy that was not finished, with the journal SQLite may have left beside it."""
    for leftover in (partial, partial.with_name(partial.name + "-journal")):
        with contextlib.suppress(OSError):
            leftover.unlink(missing_ok=True)


def sweep_partials(folder: Path) -> list[Path]:
    """Remove the ``.partial`` copies whose process is gone (a backup killed half-way,
    e.g. by kill -9 or a power cut); those of live processes are theirs to finish."""
    swept = []
    for partial in folder.glob("*.partial"):
        match = PARTIAL.search(partial.name)
        if match is None or _alive(int(match[1])):
            continue
        _remove_partial(partial)
        swept.append(partial)
    return swept


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True          # someone else's process: not ours to judge
    return True


def restore(app: Flask, backup_file: str | os.PathLike[str]) -> Path:
    """Replace the database with ``backup_file`` (stop the server first).

    Returns the safety copy of the database as it was.
    """
    source = Path(backup_file).expanduser().resolve()
    target = sqlite_path(app)
    if target is None:
        raise BackupError("On PostgreSQL restore with pg_restore --clean -d <URL> FILE")
    if not source.is_file():
        raise BackupError(f"There is no file {source}")
    _check(source)
    damaged = target.exists() and unreadable(target) is not None
    if damaged:
        safety = _keep_damaged(app, target)
    elif target.exists():
        safety = new_backup(app, "before-restore")
    else:
        safety = backup_dir(app) / f"before-restore-{_stamp()}.sqlite"
    partial = target.with_name(f"{target.name}.{os.getpid()}.restoring")
    try:
        _copy(source, partial)
        _check(partial)
        if not damaged:
            _take_over(target)
        os.replace(partial, target)
    except sqlite3.OperationalError as exc:
        raise BackupError(
            f"The database {target} is in use ({exc}): stop the server and the "
            f"scheduler, then restore again. Nothing was changed; the database as "
            f"it was is also in {safety}") from None
    finally:
        partial.unlink(missing_ok=True)
    return safety


def _keep_damaged(app: Flask, target: Path) -> Path:
    """The live file that cannot be read, kept byte for byte before a restore replaces
    it (no online backup can read it); its write-ahead log goes with it, so that it is
    never replayed into the restored database."""
    safety = backup_dir(app) / f"before-restore-{utcnow():%Y%m%d-%H%M%S-%f}-damaged.sqlite"
    shutil.copy2(target, safety)
    wal = Path(f"{target}-wal")
    if wal.exists():
        os.replace(wal, Path(f"{safety}-wal"))
    Path(f"{target}-shm").unlink(missing_ok=True)
    return safety


def backup_dir(app: Flask) -> Path:
    path = Path(app.instance_path) / "backups"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _stamp() -> str:
    return utcnow().strftime("%Y%m%d-%H%M%S")


def scheduled_backup(app: Flask) -> Path | None:
    """The job: one backup into ``instance/backups/``, then forget the oldest ones."""
    suffix = ".sqlite" if sqlite_path(app) is not None else ".pgdump"
    try:
        path = new_backup(app, "director")
    except (BackupError, OSError, sqlite3.Error) as exc:
        app.logger.error("scheduled backup failed: %s", exc)
        return None
    found = [item for item in backups(app) if item[0].suffix == suffix]
    _keep, drop = retain(found, utcnow(), Retention.of(app))
    for old, _when, _size in drop:
        old.unlink(missing_ok=True)
    return path


@dataclass(frozen=True)
class Retention:
    """Which scheduled backups are kept: every one of the last hour, the newest of each
    hour for ``hourly`` hours, the newest of each day for ``daily`` days, at most
    ``keep`` of them and at most ``max_bytes`` together (the oldest go first; the
    newest is always kept).  48 backups of a 107 MB database were 5 GB."""

    keep: int = 48
    hourly: int = 24
    daily: int = 30
    max_bytes: int = 2048 * 1024 * 1024

    @classmethod
    def of(cls, app: Flask) -> Retention:
        """``DIRECTOR_BACKUP_KEEP``, ``_HOURLY``, ``_DAILY`` and ``_MAX_MB`` (0: no limit)."""
        config = app.config

        def number(name: str, default: int) -> int:
            try:
                return max(0, int(config.get(name, default)))
            except (TypeError, ValueError):
                return default

        mb = number("BACKUP_MAX_MB", cls.max_bytes // (1024 * 1024))
        return cls(keep=max(1, number("BACKUP_KEEP", cls.keep)),
                   hourly=number("BACKUP_HOURLY", cls.hourly),
                   daily=number("BACKUP_DAILY", cls.daily),
                   max_bytes=mb * 1024 * 1024 if mb else 0)


def retain(found: list[tuple[Path, datetime, int]], now: datetime,
           rule: Retention) -> tuple[list[tuple[Path, datetime, int]],
                                     list[tuple[Path, datetime, int]]]:
    """The backups ``found`` (path, time, bytes) split into those kept and those to delete,
    each newest first (see :class:`Retention`)."""
    newest_first = sorted(found, key=lambda item: item[1], reverse=True)
    seen: set[tuple[str, int]] = set()
    kept: list[tuple[Path, datetime, int]] = []
    for item in newest_first:
        age = now - item[1]
        if age <= timedelta(hours=1):
            slot: tuple[str, int] | None = ("recent", len(kept))
        elif age <= timedelta(hours=rule.hourly):
            slot = ("hour", int(item[1].timestamp() // 3600))
        elif age <= timedelta(days=rule.daily):
            slot = ("day", item[1].toordinal())
        else:
            slot = None
        if slot is not None and slot not in seen:
            seen.add(slot)
            kept.append(item)
    if newest_first and (not kept or kept[0] is not newest_first[0]):
        kept.insert(0, newest_first[0])
    kept = kept[:rule.keep]
    total = sum(item[2] for item in kept)
    while rule.max_bytes and len(kept) > 1 and total > rule.max_bytes:
        total -= kept.pop()[2]
    keep_paths = {item[0] for item in kept}
    return kept, [item for item in newest_first if item[0] not in keep_paths]


def backups(app: Flask) -> list[tuple[Path, datetime, int]]:
    """The scheduled backups, newest first: (path, modified UTC, bytes)."""
    found = []
    for path in backup_dir(app).glob("director-*"):
        if path.suffix not in (".sqlite", ".pgdump"):
            continue
        try:
            stat = path.stat()
        except FileNotFoundError:      # deleted meanwhile (another process's retention)
            continue
        found.append((path, datetime.fromtimestamp(stat.st_mtime, UTC), stat.st_size))
    return sorted(found, key=lambda item: item[1], reverse=True)


def _pg_dump(app: Flask, partial: Path) -> None:
    """``pg_dump`` of this server's schema into ``partial`` (the caller moves it)."""
    if shutil.which("pg_dump") is None:
        raise BackupError("pg_dump is not installed (apt-get install postgresql-client)")
    url = make_url(str(app.config["SQLALCHEMY_DATABASE_URI"])).set(drivername="postgresql")
    # Only our schema: another schema in the same database (another server's, or
    # one being dropped while the dump runs) is not ours to copy, and a table
    # dropped under pg_dump would fail the whole backup.
    with app.app_context(), db.engine.connect() as connection:
        schema = connection.scalar(text("SELECT current_schema()"))
    try:
        result = subprocess.run(  # noqa: S603 - our own URL, no shell
            ["pg_dump", "--format=custom", f'--schema="{schema}"', "--file", str(partial),
             url.render_as_string(hide_password=False)],
            capture_output=True, text=True, timeout=600, check=False)
    except subprocess.TimeoutExpired:
        raise BackupError("pg_dump took more than 10 minutes") from None
    if result.returncode != 0:
        raise BackupError(f"pg_dump failed: {result.stderr.strip()[:500]}")
