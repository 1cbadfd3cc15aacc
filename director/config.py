"""Configuration: defaults, then ``instance/config.py``, then ``DIRECTOR_*``
environment variables, then the test config.

=========================  =================================================
``DIRECTOR_DATABASE_URL``  SQLAlchemy URL; ``postgresql://...`` selects
                           PostgreSQL (psycopg 3, extra ``postgres``).
                           Default: ``sqlite:///instance/director.sqlite``.
``DIRECTOR_TOKEN``         the director token (default: generated into
                           ``instance/director_token`` on first run).
``DIRECTOR_SECRET_KEY``    the session key (default: generated into
                           ``instance/secret_key``).
``DIRECTOR_SCHEDULER``     ``on`` (default) or ``off``: whether
                           ``director serve`` runs the level scheduler.
``DIRECTOR_THREADS``       the threads that run the pages' and the API's
                           requests in each server process (default 32).
``DIRECTOR_MAX_CONNECTIONS`` connections one server process holds at once
                           (default 10,000, and at most the open-files limit
                           less ``RESERVED_FILES``, 256).
``DIRECTOR_HEAD_SECONDS``  a connection must send its request head within this
                           (default 5); ``KEEP_ALIVE_SECONDS`` (5) an idle
                           keep-alive connection is kept.
``DIRECTOR_CHANGE_FEED``   how server processes tell each other what changed
                           (``services.change_feed``): ``auto`` (default:
                           ``postgres`` on PostgreSQL, else ``memory``),
                           ``memory`` (one process), ``postgres``
                           (LISTEN/NOTIFY) or ``table`` (several processes on
                           one SQLite file; read every
                           ``CHANGE_FEED_POLL_SECONDS``, default 0.2).
``DIRECTOR_BACKUP_MINUTES`` minutes between the scheduler process's backups
                           into ``instance/backups/`` (default 10; 0: off).
``DIRECTOR_BACKUP_KEEP``   how many of those to keep (default 48).
``DIRECTOR_PASSWORD_HASH`` the director password's werkzeug hash (default:
                           ``instance/director_password``, written by
                           ``director set-password``).
``DIRECTOR_LOGIN_MAX_FAILURES`` failed logins from one client before it is
                           locked out (default 5, within
                           ``LOGIN_WINDOW_SECONDS`` = 900) for
                           ``LOGIN_LOCK_SECONDS`` (default 300).  Counted in
                           the database: every server process shares them.
``DIRECTOR_PAIRING_MAX_FAILURES`` the same for a tablet's wrong pairing codes
                           per client (5; ``PAIRING_WINDOW_SECONDS`` 900,
                           ``PAIRING_LOCK_SECONDS`` 300).
``DIRECTOR_PAIRING_TABLE_MAX_FAILURES`` wrong pairing codes for one table
                           (default 5 within ``PAIRING_TABLE_WINDOW_SECONDS``
                           = 86400) before that table's pairing is locked
                           until the director resets it (Dealer tablets page).
``DIRECTOR_TRUSTED_PROXIES`` the reverse proxies whose ``X-Forwarded-For`` and
                           ``X-Forwarded-Proto`` name the client: their
                           addresses or networks, comma-separated
                           (``127.0.0.1``), or a number of hops (every request
                           comes through them).  Default: none, the headers
                           are dropped and the peer is the client.
=========================  =================================================
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import sqlalchemy
from flask import Flask

ENV_PREFIX = "DIRECTOR_"

DEFAULTS: dict[str, Any] = {
    "SCHEDULER": "on",
    # The threads that run the Flask app's requests in each server process (the live
    # screens' streams need none: director.streams).
    "THREADS": 32,
    # A stream served through Flask itself (the test client) holds a thread: beyond
    # THREADS less this, such streams answer 503.
    "SSE_RESERVED_THREADS": 16,
    "SSE_PING_SECONDS": 12.0,
    "SSE_WATCH_SECONDS": 0.5,
    # The server's door (director.asgi): connections held at once per process, at
    # most the open-files limit less RESERVED_FILES; a connection whose request head
    # is not complete HEAD_SECONDS after it opened (or KEEP_ALIVE_SECONDS +
    # HEAD_SECONDS after its last answer) is let go.
    "MAX_CONNECTIONS": 10_000,
    "RESERVED_FILES": 256,
    "HEAD_SECONDS": 5.0,
    "KEEP_ALIVE_SECONDS": 5.0,
    "CHANGE_FEED": "auto",
    "CHANGE_FEED_CHANNEL": "director_changes",
    "CHANGE_FEED_POLL_SECONDS": 0.2,
    "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
    "SESSION_COOKIE_SAMESITE": "Lax",
    "SESSION_COOKIE_HTTPONLY": True,
    "PERMANENT_SESSION_LIFETIME": 7 * 24 * 3600,
    # The session cookie is sent only when the session changes: a tablet's poll that
    # started before the dealer switched language cannot answer with the old cookie and
    # switch him back (cookie sessions race).  A login lasts 7 days from its start.
    "SESSION_REFRESH_EACH_REQUEST": False,
    "MAX_CONTENT_LENGTH": 2 * 1024 * 1024,
    "BACKUP_MINUTES": 10,
    "BACKUP_KEEP": 48,
    "LOGIN_MAX_FAILURES": 5,
    "LOGIN_WINDOW_SECONDS": 900,
    "LOGIN_LOCK_SECONDS": 300,
    "PAIRING_MAX_FAILURES": 5,
    "PAIRING_WINDOW_SECONDS": 900,
    "PAIRING_LOCK_SECONDS": 300,
    "PAIRING_TABLE_MAX_FAILURES": 5,
    "PAIRING_TABLE_WINDOW_SECONDS": 86400,
    "PAIRING_TABLE_LOCK_SECONDS": None,    # until the director resets it
    "TRUSTED_PROXIES": "",
}


SQLITE_POOL = 32

# A PostgreSQL connection kept for the process's life (the change feed's LISTEN and its
# sender) on a link that died without a word (a second machine's cable, a switch
# restarted) waited for the kernel to give up, about 15 minutes, before it was opened
# again.  libpq's keepalives find an idle one dead within a minute; ``tcp_user_timeout``
# (Linux; ignored elsewhere) one whose write is not acknowledged within 30 s.  A URL's
# or the settings' own values win.
POSTGRES_KEEPALIVES: dict[str, Any] = {"keepalives": 1, "keepalives_idle": 30,
                                       "keepalives_interval": 10, "keepalives_count": 3,
                                       "tcp_user_timeout": 30_000}


def database_url(url: str) -> str:
    """Normalise a PostgreSQL URL to the psycopg 3 driver.

    >>> database_url("postgres://u:p@db/director")
    'postgresql+psycopg://u:p@db/director'
    >>> database_url("sqlite:////tmp/x.sqlite")
    'sqlite:////tmp/x.sqlite'
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


def load(app: Flask, test_config: dict[str, Any] | None) -> None:
    """Fill ``app.config`` in order of precedence (later wins)."""
    app.config.update(DEFAULTS)
    app.config.from_pyfile("config.py", silent=True)
    for key, value in os.environ.items():
        if key.startswith(ENV_PREFIX) and len(key) > len(ENV_PREFIX):
            app.config[key[len(ENV_PREFIX):]] = value
    if test_config:
        app.config.update(test_config)

    url = app.config.get("DATABASE_URL") or app.config.get("SQLALCHEMY_DATABASE_URI")
    if not url:
        url = "sqlite:///" + str(Path(app.instance_path) / "director.sqlite")
    app.config["SQLALCHEMY_DATABASE_URI"] = database_url(str(url))
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite") \
            and app.config["SQLALCHEMY_ENGINE_OPTIONS"] == DEFAULTS["SQLALCHEMY_ENGINE_OPTIONS"]:
        # A file on this laptop: no ping needed, and enough pooled connections that
        # fifty tablets writing at once never open (and PRAGMA) a fresh one each time.
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"pool_size": SQLITE_POOL, "max_overflow": 2 * SQLITE_POOL}
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        options = dict(app.config["SQLALCHEMY_ENGINE_OPTIONS"])
        given = sqlalchemy.engine.make_url(app.config["SQLALCHEMY_DATABASE_URI"]).query
        options["connect_args"] = {**{k: v for k, v in POSTGRES_KEEPALIVES.items()
                                      if k not in given}, **options.get("connect_args", {})}
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    app.config["THREADS"] = int(app.config["THREADS"])
    for name in ("MAX_CONNECTIONS", "RESERVED_FILES"):
        app.config[name] = int(app.config[name])
    for name in ("HEAD_SECONDS", "KEEP_ALIVE_SECONDS", "SSE_PING_SECONDS"):
        app.config[name] = float(app.config[name])
    app.config["SCHEDULER"] = str(app.config["SCHEDULER"]).strip().lower()
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = _instance_secret(app, "secret_key")
    if not app.config.get("TOKEN"):
        app.config["TOKEN"] = _instance_secret(app, "director_token")
    app.config["TOKEN"] = str(app.config["TOKEN"]).strip()


def _instance_secret(app: Flask, name: str) -> str:
    """Read ``instance/<name>``, generating it (mode 0600) on first run."""
    path = Path(app.instance_path) / name
    if path.exists():
        value = path.read_text(encoding="utf-8").strip()
        if value:
            return value
    value = secrets.token_urlsafe(24)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process won the race: use its value
        return path.read_text(encoding="utf-8").strip() or value
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(value + "\n")
    return value
