"""The ``director`` command: serve, init-db, db (upgrade, downgrade, history),
token, set-password, backup, restore, scheduler, replay.

``make run`` is ``director init-db --demo-if-empty`` then ``director serve``;
both upgrade the database first (``director.migrations.prepare``: a copy of it
into ``instance/backups/`` before any migration).  ``init-db``, ``db`` and
``token`` are also ``flask --app director init-db`` / ``db`` / ``token``.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

import click
import uvicorn
import uvicorn.supervisors
from flask import Flask
from flask.cli import with_appcontext

from director import asgi, create_app, migrations, replay, security
from director.lan import lan_address, local_certificates
from director.services import Invalid, backup, change_feed
from director.services import demo as demo_service
from director.services.audit import writer
from director.services.scheduler import start_backups, start_scheduler, stop_scheduler
from director.workers import hold_scheduler_lock, release_scheduler_lock

__all__ = ["hold_scheduler_lock", "main", "release_scheduler_lock"]


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


@main.command("serve")
@click.option("--host", default=lambda: os.environ.get("HOST", "0.0.0.0"), show_default="$HOST or 0.0.0.0")
@click.option("--port", type=int, default=lambda: int(os.environ.get("PORT", "5000")),
              show_default="$PORT or 5000")
@click.option("--workers", type=click.IntRange(1, 64),
              default=lambda: int(os.environ.get("WORKERS", "1")), show_default="$WORKERS or 1",
              help="Server processes, all on the one port, started again by the server when "
                   "one dies (several on one SQLite file share its change feed table).")
@click.option("--tls", is_flag=True, default=lambda: os.environ.get("TLS", "") in ("1", "on", "yes"),
              help="HTTPS with a certificate of this laptop's own certificate authority "
                   "(made in instance/tls/ on first start; the tablets download its root "
                   "from /ca.crt).")
@click.option("--stream-port", type=int, hidden=True,
              help="Ignored: the live screens' streams are served on --port since issue 28.")
def serve_command(host: str, port: int, workers: int, tls: bool, stream_port: int | None) -> None:
    """Serve pages, API and live screens on one port (uvicorn); runs the level
    scheduler in one process unless DIRECTOR_SCHEDULER=off."""
    app = _app()
    click.echo(init_db(app, demo_if_empty=False))
    if stream_port is not None:
        click.echo("Note: --stream-port is ignored: the live screens are served on the same port.")
    certificate = None
    if tls:
        try:
            certificate = local_certificates(Path(app.instance_path) / "tls", host)
        except OSError as exc:
            raise click.ClickException(f"Could not make the TLS certificates: {exc}") from None
    settings = asgi.server_settings(
        app, workers, None if certificate is None else (str(certificate.cert), str(certificate.key)))
    if workers > 1:
        asgi.feed_for_workers(app)
        config = uvicorn.Config("director.cli:served_app", factory=True, host=host, port=port,
                                **settings)
    else:
        config = uvicorn.Config(asgi.build(app), host=host, port=port, **settings)
    try:
        sock = config.bind_socket()
    except SystemExit:   # uvicorn said why (the port is taken) and exits
        raise click.ClickException(f"Could not listen on {host}:{port}: Address already in use "
                                   "or not allowed") from None
    sock.listen(config.backlog)   # from now on a connection waits for the server, not refused
    scheme = "https" if certificate is not None else "http"
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    base = f"{scheme}://{shown or '127.0.0.1'}:{port}"
    click.echo(f"Director:  {base}/director/   (log in with the token below)")
    click.echo(f"Clock:     {base}/            (projector: {base}/clock/<id>)")
    click.echo(f"API:       {base}/api/tournaments")
    if certificate is not None:
        click.echo(f"Tablets:   {base}{asgi.CA_PATH}  (this laptop's root certificate: "
                   "install it once on each tablet)")
    click.echo(f"Token:     {app.config['TOKEN']}")
    click.echo(f"Server:    uvicorn, {workers} process{'es' if workers > 1 else ''} on port "
               f"{port}, up to {asgi.Door.cap:,} connections each, {app.config['THREADS']} "
               f"threads each for pages; live screens on the same port; change feed: "
               f"{change_feed.backend(app) if workers == 1 else os.environ.get('DIRECTOR_CHANGE_FEED') or change_feed.backend(app)}")
    sys.stdout.flush()
    if workers > 1:
        writer(app).close()
        uvicorn.supervisors.Multiprocess(config, sockets=[sock]).run()
        click.echo("Stopped.")
        return
    uvicorn.Server(config).run(sockets=[sock])


def served_app() -> Callable[..., Awaitable[None]]:
    """Each process of ``director serve --workers N`` (uvicorn's factory): the app
    from the environment, and its door's limits in this process."""
    app = _app()
    asgi.configure_door(app)
    return asgi.build(app)


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
