"""Browser-test fixtures: Debian's chromium through Playwright, and a real
server (``director serve``: uvicorn, one port) on 127.0.0.1 with its own temp database.

``chromium`` is the one place that decides what happens without a browser:
skip with a one-line reason, or fail when ``REQUIRE_BROWSER=1`` (CI).
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import pytest
import requests

from tests.conftest import CHROMIUM

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
TOKEN = "browser-test-token"


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """A Playwright browser on Debian's chromium (``CHROMIUM``; skips, or fails if
    REQUIRE_BROWSER=1)."""
    required = os.environ.get("REQUIRE_BROWSER") == "1"
    if not os.access(CHROMIUM, os.X_OK):
        reason = (f"{CHROMIUM} is missing: run `make test` as root, "
                  "or apt-get install chromium-headless-shell")
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


def made_once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """A folder that ``make`` fills once per test run: the first test process to get
    here makes it while the others wait (a file lock), then they all use it.  Under
    pytest-xdist the processes share the parent of their temp folders; without
    ``fcntl`` (Windows) each process makes its own."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        fcntl = None  # type: ignore[assignment]
    shared = factory.getbasetemp()
    if fcntl is not None and os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    folder, done = shared / name, shared / f"{name}.done"
    with (shared / f"{name}.lock").open("w") as lock:   # closing it lets the others in
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)   # a half-made one (it failed)
            folder.mkdir()
            make(folder)
            done.touch()
    return folder


def copy_database(source: Path, target: Path) -> None:
    """A consistent copy of a SQLite database, its write-ahead log included."""
    with closing(sqlite3.connect(source)) as origin, closing(sqlite3.connect(target)) as copy:
        origin.backup(copy)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerProcess(Protocol):
    """What the tests do with a server process: a ``subprocess.Popen`` or a ``Forked``."""

    def poll(self) -> int | None: ...
    def wait(self, timeout: float | None = None) -> int: ...
    def terminate(self) -> None: ...
    def kill(self) -> None: ...


@dataclass
class Server:
    url: str
    token: str
    process: ServerProcess
    log: Path


# ``director serve`` in a process forked from a server process that has imported the
# app once (multiprocessing's forkserver, which holds no threads when it forks).
# A new Python that imports the app takes about 1.3 s of CPU; the browser tests
# start about 150 servers, on two cores shared with chromium.  The child runs the
# same click command as ``director serve``, in its own process with its own
# environment.  Where there is no fork (Windows), a plain subprocess.
FORKSERVER = "forkserver" in multiprocessing.get_all_start_methods()


def serve_process(environment: dict[str, str], log: Path) -> ServerProcess:
    """``director serve`` with ``environment``, its output in ``log``."""
    if not FORKSERVER:
        with log.open("wb") as out:
            return subprocess.Popen([sys.executable, "-c", "from director.cli import main; main()",
                                     "serve"], env=environment, stdout=out, stderr=subprocess.STDOUT)
    log.write_bytes(b"")
    process = _forkserver().Process(target=_serve_in_child, args=(environment, str(log)), daemon=False)
    process.start()
    return Forked(process)


@functools.cache
def _forkserver() -> Any:
    """The forkserver context, told once what to load before its first fork."""
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["tests.browser.server_preload"])
    return context


def _serve_in_child(environment: dict[str, str], log: str) -> None:
    output = os.open(log, os.O_WRONLY | os.O_APPEND)
    os.dup2(output, 1)
    os.dup2(output, 2)
    os.close(output)
    os.environ.clear()
    os.environ.update(environment)
    from director.cli import main

    main(["serve"], prog_name="director")


class Forked:
    """A ``multiprocessing.Process`` with the ``subprocess.Popen`` calls the tests use."""

    def __init__(self, process: multiprocessing.process.BaseProcess) -> None:
        self._process = process

    def poll(self) -> int | None:
        return self._process.exitcode

    def wait(self, timeout: float | None = None) -> int:
        self._process.join(timeout)
        if self._process.exitcode is None:
            raise subprocess.TimeoutExpired("director serve", timeout or 0)
        return self._process.exitcode

    def terminate(self) -> None:
        self._process.terminate()

    def kill(self) -> None:
        self._process.kill()


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
    log = tmp / "server.log"
    process = serve_process(environment, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            text = log.read_text()
            if "Address already in use" in text:
                raise PortTaken(text)
            raise RuntimeError(f"the server exited: {text}")
        # The banner ("Director:  http://..." to its last line, "Server: ...") is printed
        # once the server holds its port (and not before): a connection then reaches this
        # server, not one that took the port, and a test reads the whole banner (CI once
        # read it with its first line only).
        if "\nServer:" in log.read_text():
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    return Server(f"http://127.0.0.1:{port}", TOKEN, process, log)
            except OSError:
                pass
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"the server did not start: {log.read_text()}")


def stop_process(process: ServerProcess, timeout: float = 10) -> None:
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


def drawn_event(server: Server, names: list[str], *, draw: bool = True, **seating: Any) -> int:
    """An event through the API: a buy-in of 100 and 10,000 chips (late registration to
    level 1), ``names`` registered at 6-handed tables (``seating``: more settings), the
    seats drawn (unless ``draw`` is false); its id."""
    auth = {"Authorization": f"Bearer {server.token}"}
    api = f"{server.url}/api/tournaments"
    tid = int(requests.post(api, headers=auth, timeout=10, json={
        "name": "Drawn", "levels": [{"kind": "level", "game": "PO", "duration_seconds": 1200,
                                     "small_blind": 25, "big_blind": 50}]}).json()["id"])
    for path, body in (("money/settings", {"buy_in": 100, "starting_stack": 10_000,
                                           "late_registration_level": 1}),
                       ("seating/settings", {"table_size": 6, **seating})):
        answer = requests.post(f"{api}/{tid}/{path}", headers=auth, timeout=10, json=body)
        assert answer.status_code == 200, answer.text
    for name in names:
        answer = requests.post(f"{api}/{tid}/seating/players", headers=auth, timeout=10,
                               json={"name": name})
        assert answer.status_code == 201, answer.text
    if draw:
        assert requests.post(f"{api}/{tid}/seating/draw", headers=auth,
                             timeout=10).status_code == 200
    return tid


def director_page(chromium: Any, server: Server, width: int = 1280, height: int = 900) -> Any:
    """A new browser context logged in as the director (the token on the login page)."""
    page = chromium.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{server.url}/login")
    page.fill("#token", server.token)
    page.click("button[type=submit]")
    return page


@pytest.fixture(autouse=True)
def close_the_tests_browser_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """Close every browser context a test opened and left open (a tablet, a projector):
    left open, its pages went on running their timers and reconnecting to a server
    that was gone, for the rest of the run.  The contexts of a module's fixture
    (``test_layout.pages``) were made before the test and stay."""
    if "chromium" not in request.fixturenames:
        yield
        return
    browser = request.getfixturevalue("chromium")
    before = set(browser.contexts)
    yield
    for context in [context for context in browser.contexts if context not in before]:
        context.close()
