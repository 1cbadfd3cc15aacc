"""Shared fixtures: an app per test on its own temp-file SQLite DB, its client
and CLI runner, the director's auth header, and factories that return callables."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from director import create_app
from director.db import db

TOKEN = "test-director-token"


def level(small_blind: int = 100, big_blind: int = 200, *, seconds: int = 1200,
          game: str = "PO", **more: Any) -> dict[str, Any]:
    """A blind level as the API takes it."""
    return {"kind": "level", "game": game, "duration_seconds": seconds,
            "small_blind": small_blind, "big_blind": big_blind, **more}


def break_(seconds: int = 600, note: str = "") -> dict[str, Any]:
    return {"kind": "break", "duration_seconds": seconds, "note": note}


@pytest.fixture
def app_config(tmp_path: Path) -> dict[str, Any]:
    return {
        "TESTING": True,
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'director.sqlite'}",
        "TOKEN": TOKEN,
        "SECRET_KEY": "test-secret",
        "SSE_PING_SECONDS": 0.5,
        "SSE_WATCH_SECONDS": 0.2,
    }


@pytest.fixture
def make_app(app_config: dict[str, Any]) -> Iterator[Callable[..., Flask]]:
    """Build an app on this test's DB (call it again to 'restart' the server)."""
    from director.services.events import events
    from director.services.scheduler import stop_scheduler

    apps: list[Flask] = []

    def build(**overrides: Any) -> Flask:
        app = create_app({**app_config, **overrides})
        with app.app_context():
            db.create_all()
        apps.append(app)
        return app

    yield build
    for app in apps:
        stop_scheduler(app)
        events(app).close()
        with app.app_context():
            db.engine.dispose()


@pytest.fixture
def app(make_app: Callable[..., Flask]) -> Flask:
    return make_app()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def auth() -> dict[str, str]:
    """Headers of an API call made by the director."""
    return {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def make_tournament(client: FlaskClient, auth: dict[str, str]) -> Callable[..., int]:
    """``make_tournament(levels=[...], name=...)`` creates one through the API; returns its id."""

    def make(levels: list[dict[str, Any]] | None = None, name: str = "Test PLO") -> int:
        body = {"name": name, "levels": levels or [level(25, 50), level(50, 100), level(75, 150)]}
        response = client.post("/api/tournaments", json=body, headers=auth)
        assert response.status_code == 201, response.get_json()
        return int(response.get_json()["id"])

    return make


@pytest.fixture
def login(client: FlaskClient) -> Callable[[], None]:
    """Log the test client in as the director (session cookie)."""

    def do() -> None:
        response = client.post("/login", data={"token": TOKEN})
        assert response.status_code == 302

    return do


@pytest.fixture
def csrf(client: FlaskClient) -> Callable[[], str]:
    """The session's CSRF token (log in first)."""

    def get() -> str:
        with client.session_transaction() as session:
            return str(session["csrf"])

    return get
