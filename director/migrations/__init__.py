"""Schema migrations (Alembic): an upgrade keeps the event that is in the database.

The revisions are in ``versions/``, written by hand; ``0001`` is the schema of
the first release (git 1ace821), each later one adds what the models added.

* ``prepare(app)``, run by ``director init-db``, ``director serve`` and
  ``director scheduler`` (so ``make run``):

  - an empty database gets every table from the models (``create_all``) and is
    stamped at the head revision (the migration tests check that the head
    revision builds exactly the models' schema, so both ways give one schema);
  - a database from before the migrations (tables, no ``alembic_version``: a
    release's ``init-db`` made it) is stamped at ``0001``, or at the head if it
    already has the models' schema, and then upgraded;
  - whatever is pending is applied, after a copy of the database into
    ``instance/backups/before-upgrade-<revision>-<UTC time>.sqlite`` (SQLite's
    online backup, checked; ``.pgdump`` on PostgreSQL when ``pg_dump`` is
    installed).  No copy, no upgrade: the database is left as it was.

* ``migrate(app, revision)`` and ``history(app)``: ``director db upgrade
  [REV]``, ``director db downgrade [REV]`` and ``director db history``.  A
  downgrade is copied first too (``before-downgrade-<revision>-<UTC time>``).

On SQLite the foreign keys are off while a migration runs, since a batch
migration copies a table and drops the old one, and with them on the drop would
delete the rows that point at it (``ON DELETE CASCADE``); they are checked
after it (``PRAGMA foreign_key_check``).  On PostgreSQL the whole upgrade is
one transaction.

A new column: change the model, write the next revision by hand (like
``0002``: ``add_column`` with ``nullable=True`` or a ``server_default``, in a
``batch_alter_table``), and give it an upgrade test with its own data in
``tests/web/test_migrations.py``.  ``make test`` fails until the head revision
equals the models.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Flask
from sqlalchemy import inspect
from sqlalchemy.engine import Connection

from director.db import db, utcnow
from director.services import backup

HERE = Path(__file__).resolve().parent
FIRST = "0001"
VERSION_TABLE = "alembic_version"


class MigrationError(RuntimeError):
    """A migration that was not run (the database is unchanged), or that failed half-way
    (the message names the copy made before it); the message says why."""


class DamagedDatabase(MigrationError):
    """The database file is there but cannot be read as a database: nothing was done."""


def check_readable(app: Flask) -> None:
    """Refuse, before anything opens it, a SQLite file that is not a readable database.

    A damaged file (another file's bytes, a truncated or corrupt copy) and a 0-byte
    file (the app never leaves one: its first connection writes the header at once, so
    it is the trace of a crash or a failed copy) are refused with one sentence naming
    the file and the way out; the file is only read (same bytes, same time stamp).
    Without this an empty file was silently made a new, empty database, and a damaged
    one ended the start in a traceback.  No file yet: a new database, as before.
    """
    try:
        path = backup.sqlite_path(app)
    except backup.BackupError:
        return                                       # in memory
    if path is None or not path.exists():
        return
    reason = backup.unreadable(path)
    if reason is not None:
        raise DamagedDatabase(
            f"{path} is not a readable database ({reason}): restore a backup with "
            "`director restore BACKUP` (instance/backups/ holds them), or move the file "
            "away to start with an empty database. The file was left as it was.")


@dataclass(frozen=True)
class Outcome:
    """What ``prepare`` or ``migrate`` did: from which revision (None: an empty
    database) to which, and where the copy made before it is."""

    before: str | None
    after: str | None
    backup: Path | None = None
    created: bool = False
    down: bool = False

    def sentence(self) -> str:
        """What happened, in one sentence for the command line.

        >>> Outcome("0001", "0002", Path("b.sqlite")).sentence()
        'Database upgraded from revision 0001 to 0002; the database as it was: b.sqlite.'
        """
        if self.created:
            return f"Database created (revision {self.after})."
        if self.before == self.after:
            return f"Database ready (revision {self.after or 'none: empty'})."
        way = "downgraded" if self.down else "upgraded"
        copy = f"; the database as it was: {self.backup}" if self.backup else ""
        return (f"Database {way} from revision {self.before or 'none (empty)'} "
                f"to {self.after or 'none (empty)'}{copy}.")


def scripts() -> ScriptDirectory:
    return ScriptDirectory(str(HERE))


def head() -> str:
    found = scripts().get_current_head()
    assert found is not None
    return found


def _config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(HERE))
    config.attributes["connection"] = connection
    return config


@contextmanager
def _connection(app: Flask) -> Iterator[Connection]:
    """A connection of the app's engine; on SQLite with foreign keys off, checked after."""
    with app.app_context():
        engine = db.engine
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            yield connection
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise MigrationError(f"The migration broke foreign keys: {broken[:5]}")
        finally:
            if sqlite:
                connection.rollback()
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


def differences(connection: Connection) -> list[Any]:
    """What the models have that this database has not, or the other way round (Alembic's
    ``compare_metadata``: tables, columns, types, nullability, server defaults, indexes)."""
    context = MigrationContext.configure(connection, opts={
        "compare_type": True, "compare_server_default": True,
        "include_name": lambda name, kind, parent: kind != "table" or name != VERSION_TABLE})
    with warnings.catch_warnings():
        # SQLite cannot reflect an index on an expression (``ix_player_name``), so it
        # is not compared there; PostgreSQL compares it.
        warnings.filterwarnings("ignore", message=".*expression-based index")
        return list(compare_metadata(context, db.metadata))


def current(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


def _tables(connection: Connection) -> set[str]:
    return set(inspect(connection).get_table_names()) - {VERSION_TABLE}


def _versioned(app: Flask, connection: Connection, config: Config, *,
               backup: bool) -> tuple[str | None, Path | None]:
    """The database's revision, stamping a database from before the migrations
    (copied first when a migration is to follow).  None: an empty database."""
    if VERSION_TABLE in inspect(connection).get_table_names():
        return current(connection), None
    tables = _tables(connection)
    if not tables:
        return None, None
    if "tournament" not in tables:
        raise MigrationError("This is not a director database (no tournament table): "
                             f"its tables are {', '.join(sorted(tables))}")
    revision = head() if not differences(connection) else FIRST
    copy = _backup(app, revision) if backup and revision != head() else None
    _run(connection, command.stamp, config, revision)
    return revision, copy


def _backup(app: Flask, revision: str | None, *, down: bool = False) -> Path | None:
    """The copy made before a migration.  SQLite: none, no migration.  PostgreSQL
    without ``pg_dump``: a warning (its migration is one transaction)."""
    try:
        sqlite = backup.sqlite_path(app) is not None
    except backup.BackupError:
        return None                                   # in memory: nothing to keep
    stem = f"before-{'downgrade' if down else 'upgrade'}-{revision}-{utcnow():%Y%m%d-%H%M%S}"
    suffix = ".sqlite" if sqlite else ".pgdump"
    try:
        path = backup.backup_dir(app) / f"{stem}{suffix}"
        for n in range(2, 100):       # two migrations within a second keep both copies
            if not path.exists():
                break
            path = path.with_name(f"{stem}-{n}{suffix}")
        return backup.backup(app, path)
    except (backup.BackupError, OSError) as exc:
        if sqlite:
            raise MigrationError(f"No migration: the database could not be copied first ({exc})") \
                from None
        app.logger.warning("migrating without a copy of the database: %s", exc)
        return None


def prepare(app: Flask, *, backup: bool = True) -> Outcome:
    """Make the database ready for this version: create it, or upgrade it to the head.
    A damaged file is refused first (:func:`check_readable`)."""
    check_readable(app)
    with _connection(app) as connection:
        config = _config(connection)
        revision, copy = _versioned(app, connection, config, backup=backup)
        if revision is None:
            db.metadata.create_all(connection)
            connection.commit()
            _run(connection, command.stamp, config, "head")
            return Outcome(None, head(), created=True)
        if revision == head():
            return Outcome(revision, revision, copy)
        if copy is None and backup:
            copy = _backup(app, revision)
        _failed_keeps(copy, lambda: _run(connection, command.upgrade, config, "head"))
        return Outcome(revision, current(connection), copy)


def migrate(app: Flask, revision: str = "head", *, down: bool = False,
            backup: bool = True) -> Outcome:
    """Upgrade (or with ``down``, downgrade) to ``revision``: an id, "head", "base",
    or a step such as "+1" / "-1".  An empty database is built revision by revision."""
    target = _resolve(revision)
    check_readable(app)
    with _connection(app) as connection:
        config = _config(connection)
        before, copy = _versioned(app, connection, config, backup=backup)
        if before is None and down:
            raise MigrationError("The database is empty: there is nothing to downgrade")
        if target == before:
            return Outcome(before, before, copy)
        _check_direction(before, target, down)
        if before is not None and copy is None and backup:
            copy = _backup(app, before, down=down)
        _failed_keeps(copy, lambda: _run(connection, command.downgrade if down else command.upgrade,
                                         config, revision))
        return Outcome(before, current(connection), copy, down=down)


def _failed_keeps(copy: Path | None, run: Callable[[], None]) -> None:
    """Run a migration; one that fails says so and where the copy made before it is
    (SQLite has no transaction around DDL: a revision may have stopped half-way)."""
    try:
        run()
    except Exception as exc:
        kept = f"; the database as it was: {copy}" if copy else ""
        raise MigrationError(f"The migration failed: {exc}{kept}") from exc


def _check_direction(before: str | None, target: str | None, down: bool) -> None:
    """An upgrade goes forward, a downgrade back: say which command to use otherwise."""
    if target == "":
        return
    order = [script.revision for script in reversed(list(scripts().walk_revisions()))]
    rank: dict[str | None, int] = {None: -1}
    rank.update({revision: i for i, revision in enumerate(order)})
    if not down and rank[target] < rank[before]:
        raise MigrationError(f"The database is at {before}, newer than {target}: "
                             f"`director db downgrade {target}` goes back")
    if down and rank[target] > rank[before]:
        raise MigrationError(f"The database is at {before}, older than {target}: "
                             f"`director db upgrade {target}` goes forward")


def _run(connection: Connection, alembic_command: Any, config: Config, revision: str) -> None:
    """Run an Alembic command in a transaction of its own (env.py begins and commits it:
    on PostgreSQL every revision of the run in one)."""
    connection.commit()          # end what the look-ups began, so Alembic's own is the one
    alembic_command(config, revision)
    connection.commit()


def _resolve(revision: str) -> str | None:
    """The revision id that ``revision`` names ("" for a step such as "+1" or "-1")."""
    if revision in ("head", "heads"):
        return head()
    if revision == "base":
        return None
    if revision[:1] in ("+", "-") and revision[1:].isdigit():
        return ""
    try:
        found = scripts().get_revision(revision)
    except Exception:  # noqa: BLE001 - alembic's own error names no way out
        found = None
    if found is None:
        raise MigrationError(f"There is no revision {revision!r} "
                             "(`director db history` lists them)")
    return str(found.revision)


@dataclass(frozen=True)
class Revision:
    revision: str
    down_revision: str | None
    title: str
    current: bool
    head: bool


def history(app: Flask) -> list[Revision]:
    """Every revision, oldest first, with the database's current one marked."""
    check_readable(app)
    with app.app_context(), db.engine.connect() as connection:
        now = current(connection) if VERSION_TABLE in inspect(connection).get_table_names() \
            else None
    top = head()
    found = []
    for script in reversed(list(scripts().walk_revisions())):
        title = (script.doc or "").strip().splitlines()[0] if script.doc else ""
        down = script.down_revision if isinstance(script.down_revision, str) else None
        found.append(Revision(script.revision, down, title, script.revision == now,
                              script.revision == top))
    return found
