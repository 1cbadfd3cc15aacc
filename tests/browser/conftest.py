"""Browser-test fixtures: Debian's chromium through Playwright, and a real
waitress server (``director serve``) on 127.0.0.1 with its own temp database.

``chromium`` is the one place that decides what happens without a browser:
skip with a one-line reason, or fail when ``REQUIRE_BROWSER=1`` (CI).
"""

from __future__ import annotations

import functools
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
TOKEN = "browser-test-token"


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """A Playwright browser on /usr/bin/chromium (skips, or fails if REQUIRE_BROWSER=1)."""
    required = os.environ.get("REQUIRE_BROWSER") == "1"
    if not os.access(CHROMIUM, os.X_OK):
        reason = f"{CHROMIUM} is missing: run `make test` as root, or apt-get install chromium"
        if required:
            pytest.fail(f"REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # pragma: no cover
        if required:
            pytest.fail(f"REQUIRE_BROWSER=1 but playwright is not installed: {exc}")
        pytest.skip(f"playwright is not installed: {exc}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    url: str
    token: str
    process: subprocess.Popen[bytes]
    log: Path


@functools.cache
def prepared_database() -> Path:
    """A database at the head revision (``director init-db`` on an empty file), made
    once per test process: each server starts on a copy, so ``director serve`` finds
    nothing to create or migrate."""
    from director import create_app, migrations
    from director.db import db

    folder = Path(tempfile.mkdtemp(prefix="director-browser-"))
    app = create_app({"TESTING": True, "INSTANCE_PATH": str(folder / "instance"), "TOKEN": TOKEN,
                      "SECRET_KEY": "browser-tests",
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'director.sqlite'}"})
    migrations.prepare(app, backup=False)
    with app.app_context():
        db.engine.dispose()
    return folder / "director.sqlite"


def start_server(tmp: Path, port: int | None = None, **env: str) -> Server:
    """``director serve`` in a subprocess on ``tmp/instance`` (its database a copy of
    ``prepared_database()`` the first time); waits until it answers.  A port picked
    here that another process took meanwhile (tests run in parallel) is picked again."""
    instance = tmp / "instance"
    instance.mkdir(parents=True, exist_ok=True)
    if not (instance / "director.sqlite").exists():
        shutil.copyfile(prepared_database(), instance / "director.sqlite")
    for attempt in range(3):
        try:
            return _serve(tmp, port or free_port(), env)
        except PortTaken:
            if port is not None or attempt == 2:
                raise
    raise AssertionError("unreachable")


class PortTaken(RuntimeError):
    """The server could not listen on its port: another process has it."""


def _serve(tmp: Path, port: int, env: dict[str, str]) -> Server:
    environment = {**os.environ, "DIRECTOR_INSTANCE_PATH": str(tmp / "instance"),
                   "DIRECTOR_TOKEN": TOKEN, "HOST": "127.0.0.1", "PORT": str(port),
                   "PYTHONUNBUFFERED": "1", **env}
    environment.pop("DIRECTOR_DATABASE_URL", None)
    run = [sys.executable, "-c", "from director.cli import main; main()"]
    log = tmp / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen([*run, "serve"], env=environment, stdout=out,
                                   stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            text = log.read_text()
            if "Address already in use" in text:
                raise PortTaken(text)
            raise RuntimeError(f"the server exited: {text}")
        # "Director:  http://..." is printed once the server holds its port (and not
        # before): a connection then reaches this server, not one that took the port.
        if "Director:" in log.read_text():
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    return Server(f"http://127.0.0.1:{port}", TOKEN, process, log)
            except OSError:
                pass
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"the server did not start: {log.read_text()}")


def stop_process(process: subprocess.Popen[Any], timeout: float = 10) -> None:
    """Terminate a server process; kill it when it has not ended within ``timeout``."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def stop_server(server: Server) -> None:
    stop_process(server.process)


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[Server]:
    server = start_server(tmp_path)
    yield server
    stop_server(server)


@pytest.fixture
def restartable_server(tmp_path: Path) -> Iterator[list[Server]]:
    """A list holding the running server; ``restart(servers)`` replaces it on the same port."""
    servers = [start_server(tmp_path)]
    yield servers
    stop_server(servers[-1])


def restart(servers: list[Server], tmp: Path) -> Server:
    stop_server(servers[-1])
    port = int(servers[-1].url.rsplit(":", 1)[1])
    servers.append(start_server(tmp, port=port))
    return servers[-1]


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


def director_page(chromium: Any, server: Server, width: int = 1280, height: int = 900) -> Any:
    """A new browser context logged in as the director (the token on the login page)."""
    page = chromium.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{server.url}/login")
    page.fill("#token", server.token)
    page.click("button[type=submit]")
    return page



# Modules whose tests share one module-scoped server (and the events set up on it):
# under pytest-xdist each runs whole on one worker (``--dist loadgroup``), so the
# server and its events are made once, not once per worker.
ONE_SERVER_MODULES = {"test_layout.py"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.name in ONE_SERVER_MODULES and item.path.parent == Path(__file__).parent:
            item.add_marker(pytest.mark.xdist_group(item.path.stem))
