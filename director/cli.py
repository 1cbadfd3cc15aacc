"""The ``director`` command: serve, init-db, db (upgrade, downgrade, history),
token, set-password, backup, restore, scheduler, replay.

``make run`` is ``director init-db --demo-if-empty`` then ``director serve``;
both upgrade the database first (``director.migrations.prepare``: a copy of it
into ``instance/backups/`` before any migration).  ``init-db``, ``db`` and
``token`` are also ``flask --app director init-db`` / ``db`` / ``token``.
"""

from __future__ import annotations

import gc
import os
import select
import signal
import sys
import threading
from collections.abc import Callable

import click
from flask import Flask
from flask.cli import with_appcontext
from waitress import create_server  # type: ignore[import-untyped]

from director import create_app, migrations, replay, security
from director.db import start_checkpointer
from director.lan import lan_address
from director.services import Invalid, backup, change_feed
from director.services import demo as demo_service
from director.services.audit import writer
from director.services.backup import start_backups
from director.services.events import events
from director.services.scheduler import start_scheduler, stop_scheduler
from director.streams import StreamServer
from director.workers import (
    SchedulerStandby,
    hold_scheduler_lock,
    release_scheduler_lock,
    run_workers,
)

__all__ = ["hold_scheduler_lock", "main", "release_scheduler_lock"]

# waitress's threads serve the pages and the API.  The screens' streams are served by
# the stream server (``director.streams``, no thread each) on the stream port; only a
# screen that cannot reach that port holds a waitress thread (16 are kept for requests).
DEFAULT_THREADS = 256


def _app() -> Flask:
    return create_app()


class DamagedDatabase(click.ClickException):
    """The database file cannot be read (``migrations.check_readable``): one line, exit 2."""

    exit_code = 2


def init_db(app: Flask, demo_if_empty: bool) -> str:
    """Create the database, or upgrade it to this version (``migrations.prepare``),
    then the demo event if asked.  A migration that cannot run stops here, with
    its reason, and leaves the database as it was."""
    try:
        ready = migrations.prepare(app).sentence()
    except migrations.DamagedDatabase as exc:
        raise DamagedDatabase(str(exc)) from None
    except migrations.MigrationError as exc:
        raise click.ClickException(str(exc)) from None
    if demo_if_empty:
        with app.app_context():
            demo = demo_service.create_demo_if_empty()
        if demo is not None:
            return (f"{ready[:-1]}; demo tournament {demo.tournament.id} “{demo.tournament.name}” "
                    f"created: {demo.players} players seated at {demo.tables} tables "
                    "(clock not started).")
    return ready


@click.group()
def main() -> None:
    """Omaha and stud tournament director."""


@main.command("init-db")
@click.option("--demo-if-empty", is_flag=True, help="Create the demo PLO tournament the first time.")
def init_db_command(demo_if_empty: bool) -> None:
    """Create the tables (and the demo event)."""
    click.echo(init_db(_app(), demo_if_empty))


def db_group(get_app: Callable[[], Flask]) -> click.Group:
    """``db upgrade [REV]``, ``db downgrade [REV]``, ``db history`` on ``get_app()``'s database."""

    @click.group("db")
    def group() -> None:
        """Schema migrations: upgrade, downgrade, history (a copy of the database first)."""

    def run(revision: str, down: bool) -> None:
        try:
            click.echo(migrations.migrate(get_app(), revision, down=down).sentence())
        except migrations.DamagedDatabase as exc:
            raise DamagedDatabase(str(exc)) from None
        except migrations.MigrationError as exc:
            raise click.ClickException(str(exc)) from None

    @group.command("upgrade")
    @click.argument("revision", default="head")
    def upgrade(revision: str) -> None:
        """Upgrade to REVISION (default: the newest, "head"; "+1": one step)."""
        run(revision, down=False)

    @group.command("downgrade")
    @click.argument("revision", default="-1")
    @click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
    def downgrade(revision: str, yes: bool) -> None:
        """Downgrade to REVISION (default: one step back, "-1"); its columns are dropped."""
        if not yes:
            click.confirm(f"Downgrade the database to {revision}? What the newer revisions "
                          "added is dropped (a copy is kept in instance/backups/)", abort=True)
        run(revision, down=True)

    @group.command("history")
    def history() -> None:
        """The revisions, oldest first; the database's own is marked."""
        try:
            revisions = migrations.history(get_app())
        except migrations.DamagedDatabase as exc:
            raise DamagedDatabase(str(exc)) from None
        except migrations.MigrationError as exc:
            raise click.ClickException(str(exc)) from None
        for revision in revisions:
            marks = "".join((" (head)" if revision.head else "",
                             " (current)" if revision.current else ""))
            click.echo(f"{revision.revision}{marks}  {revision.title}")
        if not any(revision.current for revision in revisions):
            click.echo("The database has no revision yet: `director init-db` creates or "
                       "stamps it.")

    return group


main.add_command(db_group(_app))


@main.command("token")
def token_command() -> None:
    """Print the director token."""
    click.echo(_app().config["TOKEN"])


def settle_garbage_collector() -> None:
    """Before serving: everything loaded so far (the app, its libraries, the
    templates) is kept for the life of the process, so it is moved out of the
    collector's sight (``gc.freeze``).  Python's full collection otherwise walks
    all of it every few seconds under load, and each walk held every request for
    30-70 ms (the dealer tablets' p99, ``benchmarks/dealer_load.py``); now it walks
    only what the requests left behind.  Cycles among the frozen objects are never
    collected, which is what a server's start-up state is for anyway.  The
    thresholds make the full walk about ten times rarer (every 100 second-level
    collections rather than 10); a request makes little cyclic garbage."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(1000, 20, 100)


@main.command("serve")
@click.option("--host", default=lambda: os.environ.get("HOST", "0.0.0.0"), show_default="$HOST or 0.0.0.0")
@click.option("--port", type=int, default=lambda: int(os.environ.get("PORT", "5000")),
              show_default="$PORT or 5000")
@click.option("--workers", type=click.IntRange(1, 64),
              default=lambda: int(os.environ.get("WORKERS", "1")), show_default="$WORKERS or 1",
              help="Server processes, on the ports PORT .. PORT+N-1 (PostgreSQL, behind a "
                   "reverse proxy: see the README).")
@click.option("--stream-port", type=int,
              default=lambda: int(os.environ["STREAM_PORT"]) if os.environ.get("STREAM_PORT") else None,
              show_default="$STREAM_PORT or PORT+N",
              help="The live screens' streams (no thread each); 0: served by waitress.")
def serve_command(host: str, port: int, workers: int, stream_port: int | None) -> None:
    """Serve with waitress; runs the level scheduler unless DIRECTOR_SCHEDULER=off."""

    if stream_port is None:
        stream_port = port + workers
    app = _app()
    click.echo(init_db(app, demo_if_empty=False))
    if workers > 1:
        writer(app).close()
        run_workers(workers, host, port, stream_port, _worker_environment(app), click.echo)
        return
    start_checkpointer(app)
    threads = int(app.config.get("THREADS") or DEFAULT_THREADS)
    server = create_server(
        app, host=host, port=port, threads=threads,
        connection_limit=max(1000, threads * 4), channel_timeout=60,
        # The app reads X-Forwarded-* from the proxies in TRUSTED_PROXIES only and
        # drops them from anybody else (security.TrustedProxies): waitress passes them on.
        ident="director", clear_untrusted_proxy_headers=False,
        # poll(), not select(): with thousands of screens' sockets open in this process,
        # waitress's own sockets get numbers above select()'s 1,024 (POSIX; Windows
        # has no poll, and counts sockets per select() call instead).
        asyncore_use_poll=hasattr(select, "poll"),
    )
    streams = _stream_server(app, host, stream_port)
    standby = None
    scheduler_on = app.config["SCHEDULER"] not in ("off", "0", "false", "no")
    if scheduler_on:
        standby = SchedulerStandby(app, on_take=lambda: click.echo(
            "This process now runs the level scheduler (the one that ran it stopped)."))
        scheduler_on = standby.start()
    events(app).start_feed()

    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    base = f"http://{shown or '127.0.0.1'}:{port}"
    click.echo(f"Director:  {base}/director/   (log in with the token below)")
    click.echo(f"Clock:     {base}/            (projector: {base}/clock/<id>)")
    click.echo(f"API:       {base}/api/tournaments")
    click.echo(f"Token:     {app.config['TOKEN']}")
    if standby is None:
        click.echo("Scheduler: off (run `director scheduler`)")
    else:
        click.echo("Scheduler: " + ("on" if scheduler_on else
                                    "standing by (another process runs it; this one takes over "
                                    "if it stops)"))
    click.echo(f"Threads:   {threads}; live screens: "
               + (f"port {stream_port} (up to {streams.cap:,} at once, no thread each)" if streams else
                  f"through waitress (about {threads - int(app.config['SSE_RESERVED_THREADS'])})")
               + f"; change feed: {change_feed.backend(app)}")
    sys.stdout.flush()
    settle_garbage_collector()

    def stop(signum: int, frame: object) -> None:
        # End the live streams first: waitress then waits for its worker threads.
        events(app).close()
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.run()  # returns after SIGTERM / Ctrl-C, once its threads are done
    finally:
        events(app).close()
        if streams is not None:
            streams.close()
        if standby is not None:
            standby.close()
        writer(app).close()
        click.echo("Stopped.")


def _stream_server(app: Flask, host: str, port: int) -> StreamServer | None:
    """The live screens' stream server on ``port``; None (waitress serves them) when
    ``port`` is 0 or taken."""
    if not port:
        return None
    streams = StreamServer(app, host, port)
    try:
        streams.start()
    except OSError as exc:
        click.echo(f"Live screens: port {port} is not free ({exc.strerror or exc}); "
                   "waitress serves them.")
        return None
    app.config["STREAM_PORT"] = port
    return streams


def _worker_environment(app: Flask) -> dict[str, str]:
    """What the processes of ``--workers`` share: a change feed that crosses
    processes (the table on SQLite), and stream URLs on the pages' own address
    (the reverse proxy sends them to the stream ports)."""
    env = {"DIRECTOR_STREAM_BASE": os.environ.get("DIRECTOR_STREAM_BASE", "same-origin")}
    if change_feed.backend(app) == "memory":
        env["DIRECTOR_CHANGE_FEED"] = "table"
    return env


@main.command("scheduler")
def scheduler_command() -> None:
    """Run only the level scheduler and backups (when the web app runs with DIRECTOR_SCHEDULER=off)."""
    app = _app()
    click.echo(init_db(app, demo_if_empty=False))
    lock = hold_scheduler_lock(app)
    if lock is None:
        raise click.ClickException("Another process already runs the level scheduler.")
    start_scheduler(app)
    start_backups(app)
    click.echo("Level scheduler running; Ctrl-C to stop.")
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda signum, frame: done.set())
    try:
        while not done.wait(1):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        stop_scheduler(app)
        release_scheduler_lock(lock)


@main.command("set-password")
@click.password_option("--password", prompt="Director password or PIN",
                       help="At least 6 characters or digits (asked for when omitted).")
def set_password_command(password: str) -> None:
    """Set the director's password or PIN (stored hashed in instance/)."""
    app = _app()
    try:
        security.set_password(password, app)
    except Invalid as exc:
        raise click.ClickException("; ".join(exc.errors.values())) from None
    click.echo(f"Password set ({security.password_path(app)}); log in with it on /login.")


@main.command("backup")
@click.argument("path", type=click.Path(dir_okay=False, writable=True))
def backup_command(path: str) -> None:
    """Copy the database to PATH while the server runs (SQLite online backup)."""
    app = _app()
    try:
        made = backup.backup(app, path)
    except backup.BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Backup written to {made} ({made.stat().st_size:,} bytes).")


@main.command("restore")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
def restore_command(path: str, yes: bool) -> None:
    """Replace the database with the backup at PATH (stop the server first)."""
    app = _app()
    if not yes:
        click.confirm(f"Replace the database with {path}? Stop the server first", abort=True)
    try:
        safety = backup.restore(app, path)
    except backup.BackupError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"Restored from {path}. The database as it was is in {safety}.")


@main.command("replay")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand.")
@click.option("--trace", is_flag=True, help="Print every action as it is replayed.")
@click.argument("files", nargs=-1)
def replay_command(as_json: bool, trace: bool, files: tuple[str, ...]) -> None:
    """Replay PHH hand histories through the rules engine."""
    out = sys.stdout
    err = sys.stderr
    raise SystemExit(replay.replay_command(list(files), as_json, trace, out, err))


def register_flask_commands(app: Flask) -> None:
    """``flask --app director init-db``, ``db ...`` and ``token``."""

    @app.cli.command("init-db")
    @click.option("--demo-if-empty", is_flag=True)
    @with_appcontext
    def flask_init_db(demo_if_empty: bool) -> None:
        click.echo(init_db(app, demo_if_empty))

    @app.cli.command("token")
    def flask_token() -> None:
        click.echo(app.config["TOKEN"])

    app.cli.add_command(db_group(lambda: app))
