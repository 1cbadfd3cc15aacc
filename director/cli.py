"""The ``director`` command: serve, init-db, token, scheduler, replay.

``make run`` is ``director init-db --demo-if-empty`` then ``director serve``.
``init-db`` and ``token`` are also ``flask --app director init-db`` / ``token``.
"""

from __future__ import annotations

import os
import signal
import socket
import sys
import threading

import click
from flask import Flask
from flask.cli import with_appcontext

# Screens are SSE streams, and each open stream holds one waitress thread.
# 256 threads serve ~240 screens (16 are kept for ordinary requests).
DEFAULT_THREADS = 256


def _app() -> Flask:
    from director import create_app  # noqa: PLC0415

    return create_app()


def lan_address() -> str | None:
    """The machine's address on the local network, if it has one (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def init_db(app: Flask, demo_if_empty: bool) -> str:
    from director.db import db  # noqa: PLC0415
    from director.services import tournaments  # noqa: PLC0415

    with app.app_context():
        db.create_all()
        if demo_if_empty:
            demo = tournaments.create_demo_if_empty()
            if demo is not None:
                return f"Database ready; demo tournament {demo.id} “{demo.name}” created."
        return "Database ready."


@click.group()
def main() -> None:
    """Omaha and stud tournament director."""


@main.command("init-db")
@click.option("--demo-if-empty", is_flag=True, help="Create the demo PLO tournament the first time.")
def init_db_command(demo_if_empty: bool) -> None:
    """Create the tables (and the demo event)."""
    click.echo(init_db(_app(), demo_if_empty))


@main.command("token")
def token_command() -> None:
    """Print the director token."""
    click.echo(_app().config["TOKEN"])


@main.command("serve")
@click.option("--host", default=lambda: os.environ.get("HOST", "0.0.0.0"), show_default="$HOST or 0.0.0.0")
@click.option("--port", type=int, default=lambda: int(os.environ.get("PORT", "5000")),
              show_default="$PORT or 5000")
def serve_command(host: str, port: int) -> None:
    """Serve with waitress; runs the level scheduler unless DIRECTOR_SCHEDULER=off."""
    from waitress import create_server  # type: ignore[import-untyped]  # noqa: PLC0415

    from director.services.events import events  # noqa: PLC0415
    from director.services.scheduler import start_scheduler, stop_scheduler  # noqa: PLC0415

    app = _app()
    init_db(app, demo_if_empty=False)
    threads = int(app.config.get("THREADS") or DEFAULT_THREADS)
    server = create_server(
        app, host=host, port=port, threads=threads,
        connection_limit=max(1000, threads * 4), channel_timeout=60,
        ident="director", clear_untrusted_proxy_headers=True,
    )
    scheduler_on = app.config["SCHEDULER"] not in ("off", "0", "false", "no")
    if scheduler_on:
        start_scheduler(app)

    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    base = f"http://{shown or '127.0.0.1'}:{port}"
    click.echo(f"Director:  {base}/director/   (log in with the token below)")
    click.echo(f"Clock:     {base}/            (projector: {base}/clock/<id>)")
    click.echo(f"API:       {base}/api/tournaments")
    click.echo(f"Token:     {app.config['TOKEN']}")
    click.echo(f"Scheduler: {'on' if scheduler_on else 'off (run `director scheduler`)'}; "
               f"threads: {threads} (about {threads - int(app.config['SSE_RESERVED_THREADS'])} "
               "live screens)")
    sys.stdout.flush()

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
        stop_scheduler(app)
        click.echo("Stopped.")


@main.command("scheduler")
def scheduler_command() -> None:
    """Run only the level scheduler (when the web app runs with DIRECTOR_SCHEDULER=off)."""
    from director.services.scheduler import start_scheduler, stop_scheduler  # noqa: PLC0415

    app = _app()
    init_db(app, demo_if_empty=False)
    start_scheduler(app)
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


@main.command("replay")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per hand.")
@click.option("--trace", is_flag=True, help="Print every action as it is replayed.")
@click.argument("files", nargs=-1)
def replay_command(as_json: bool, trace: bool, files: tuple[str, ...]) -> None:
    """Replay PHH hand histories through the rules engine."""
    from director.replay import replay_command as replay  # noqa: PLC0415

    out = sys.stdout
    err = sys.stderr
    raise SystemExit(replay(list(files), as_json, trace, out, err))


def register_flask_commands(app: Flask) -> None:
    """``flask --app director init-db`` and ``flask --app director token``."""

    @app.cli.command("init-db")
    @click.option("--demo-if-empty", is_flag=True)
    @with_appcontext
    def flask_init_db(demo_if_empty: bool) -> None:
        click.echo(init_db(app, demo_if_empty))

    @app.cli.command("token")
    def flask_token() -> None:
        click.echo(app.config["TOKEN"])
