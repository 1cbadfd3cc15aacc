"""Shared fixtures: an app per test on its own temp-file SQLite DB, its client
and CLI runner, the director's auth header, and factories that return callables."""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from jinja2.bccache import Bucket, BytecodeCache
from sqlalchemy import event

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


class BeforeTheTwinCommitted:
    """A service's read of a request key (``real``) as a copy of the request racing its
    twin sees it: the first read finds nothing (the twin has not committed yet), the
    later ones what is committed.  ``reads``: how many reads were made."""

    def __init__(self, real: Callable[..., Any]) -> None:
        self.real = real
        self.reads = 0

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.reads += 1
        return None if self.reads == 1 else self.real(*args, **kwargs)


# `make test-postgres` sets this: every test then runs on PostgreSQL, in a
# schema of its own (created before the test, dropped after it).
POSTGRES_URL = os.environ.get("DIRECTOR_TEST_DATABASE_URL", "")


# Debian's chromium for the browser tests: its headless shell (package
# chromium-headless-shell, the same engine without the desktop browser around it)
# when it is installed, else the browser itself; CHROMIUM_PATH chooses another.
# On the same browser tests the shell took 37 % less CPU than the full browser.
BROWSERS = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
CHROMIUM = os.environ.get("CHROMIUM_PATH") or next(
    (path for path in BROWSERS if os.access(path, os.X_OK)), BROWSERS[-1])


# On PostgreSQL the tests of SQLite itself are skipped.
SQLITE_ONLY = {"test_sqlite_runs_in_wal_mode_with_foreign_keys": "SQLite's own pragmas"}


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):
        _temp_folders_in_memory(config)
        if _browser_tests_run(config):
            _read_the_browser_into_memory()    # the main process, before any worker starts
    _hypothesis_has_no_deadline()
    _playwright_polls_functions_not_strings()
    werkzeug_compiles_each_url_builder_once()


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collecting loaded (the app's modules, the tests, their libraries) stays
    for the whole run: frozen, the collector no longer walks it.  A web test builds
    an app, and its cyclic garbage (the app, its URL map, its engine) outlives the
    young collections, so the process ran a full collection every 20 or so tests.
    Measured on tests/web, 3 processes: 18-22 s of each process's 70-80 s of CPU
    went to the collector before (db.group_commit also kept every engine alive);
    with this, 18-21 s of 61-66 s, and 146 s of wall time became 117 s."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After each test, its garbage is collected and what outlives it is frozen.

    Frozen at collection only, what the tests left behind (caches, the registries
    of the libraries) grew to 300,000-390,000 objects per process, and the
    collector walked all of them in each of its 44-48 full collections: 14-19 s of
    a web test process's 71-74 s of CPU.  Collected here, each test's garbage is
    freed while it is small, and frozen, the survivors are not walked again.
    Measured on tests/web, 3 processes: the collector took 6.4-7.6 s per process
    (this collection included) instead of 17-23 s, and the wall time went from
    133-136 s to 115 s.  The cost: a survivor that later becomes cyclic garbage is
    not freed (each process ended 80-120 MB larger)."""
    yield
    gc.collect()
    gc.freeze()


SHARED_MEMORY = Path("/dev/shm")
SHARED_MEMORY_FREE = 2 << 30   # bytes


def _temp_folders_in_memory(config: pytest.Config) -> None:
    """The tests' temp folders (every test's SQLite file, every browser test's
    server instance) in memory, on Linux's ``/dev/shm``, when nothing else is asked
    for (``--basetemp``, ``PYTEST_DEBUG_TEMPROOT``): the app syncs each commit to
    disk (``synchronous=FULL``), which on a disk waited for the device and spent
    kernel time for every test; in memory a sync returns at once.  The test
    processes started later inherit the setting (pytest-xdist's workers get their
    folders inside the main process's).  Measured on seven web test modules (246
    tests, one process): 63 s wall and 28.4 s of CPU on the disk, 38.5 s and
    25.7 s in memory.  pytest keeps the last three runs' folders, as on the disk
    (one run of the whole suite leaves about 100 MB): with less than
    ``SHARED_MEMORY_FREE`` free there (a container's is often 64 MB), the disk."""
    if config.option.basetemp or os.environ.get("PYTEST_DEBUG_TEMPROOT"):
        return
    try:
        folder = os.statvfs(SHARED_MEMORY)
    except OSError:  # no /dev/shm (macOS, Windows)
        return
    if folder.f_bavail * folder.f_frsize >= SHARED_MEMORY_FREE \
            and os.access(SHARED_MEMORY, os.W_OK | os.X_OK):
        os.environ["PYTEST_DEBUG_TEMPROOT"] = str(SHARED_MEMORY)


def _browser_tests_run(config: pytest.Config) -> bool:
    """Whether the paths pytest was given hold browser tests (none given: all tests)."""
    browser = Path(__file__).resolve().parent / "browser"
    base = config.invocation_params.dir
    paths = [(base / arg.split("::")[0]).resolve() for arg in config.args] or [browser]
    return any(path == browser or path in browser.parents or browser in path.parents
               for path in paths)


def _read_the_browser_into_memory() -> None:
    """Read chromium's files and Playwright's driver once, in order, in the background.

    On these machines the kernel pages out files not used for a minute (DAMON), so
    chromium usually starts cold: it then faults its 350 MB in at random, and one
    launch took 20-27 s (56 s with three test processes launching at once).  Read
    in order first, the same files take about 3 s, and the launch about 0.3 s.  The
    test processes start and collect meanwhile."""
    import threading

    folders = [Path("/usr/lib/chromium")]
    try:
        import playwright

        folders.append(Path(playwright.__file__).parent / "driver")
    except ImportError:  # pragma: no cover - no browser tests here
        pass
    # The folder holds both browsers' programs (about 220 and 300 MB): read only ours.
    others = {Path(path).name for path in BROWSERS} - {Path(CHROMIUM).resolve().name}

    def read() -> None:
        for folder in folders:
            for path in sorted(folder.rglob("*")):
                if not path.is_file() or path.name in others:
                    continue
                try:
                    with path.open("rb") as file:
                        while file.read(1 << 20):
                            pass
                except OSError:  # no permission: chromium reads it itself
                    continue

    threading.Thread(target=read, name="read-browser", daemon=True).start()


def _hypothesis_has_no_deadline() -> None:
    """Speed is measured in benchmarks, not in tests: hypothesis's default 200 ms per
    example is a timed check, and on two loaded cores a large case (1,500 entries
    to pay) ran past it and failed a correct property."""
    from hypothesis import settings

    settings.register_profile("director", deadline=None)
    settings.load_profile("director")


def werkzeug_compiles_each_url_builder_once() -> None:
    """Most tests build an app of their own, and ``create_app`` spent most of its 70 ms
    in werkzeug generating and compiling Python code for the URL builders of its 160
    rules, the same code for every app.  Here each builder is compiled once per test
    process and bound to each new rule.  The generated function reads the rule's
    converters from ``self`` when it is called, so a builder depends only on what the
    key holds (the rule's text, its defaults and host, and the map's settings); the
    tests' apps differ in none of them.  Tests only: the server builds one app (the
    browser tests' servers are forked from a process that did this once:
    ``tests/browser/server_preload.py``)."""
    from werkzeug.routing.rules import Rule

    original = Rule._compile_builder
    if getattr(original, "memoized", False):
        return
    cache: dict[Any, Any] = {}

    def compile_builder(self: Rule, append_unknown: bool = True) -> Any:
        assert self.map is not None
        key = (self.rule, self.subdomain, self.host, self.merge_slashes,
               self.map.host_matching, self.map.merge_slashes,
               repr(sorted((self.defaults or {}).items(), key=repr)), append_unknown)
        found = cache.get(key)
        if found is None:
            found = cache[key] = original(self, append_unknown)
        return found

    compile_builder.memoized = True  # type: ignore[attr-defined]
    Rule._compile_builder = compile_builder  # type: ignore[method-assign]


def _playwright_polls_functions_not_strings() -> None:
    """Our CSP forbids ``unsafe-eval``.  Playwright's ``wait_for_function`` evaluates a
    function once but re-``eval``s a bare expression on every poll, which the CSP
    refuses; so a bare expression is wrapped as ``() => (expression)``."""
    import re

    try:
        from playwright.sync_api import Frame, Page
    except ImportError:  # pragma: no cover - no browser tests here
        return
    looks_like_function = re.compile(r"^\s*(async\s+)?(function\b|\(|[A-Za-z_$][\w$]*\s*=>)")
    for cls in (Page, Frame):
        original = cls.wait_for_function
        if getattr(original, "csp_safe", False):
            continue

        def wait_for_function(self: Any, expression: str, *args: Any,
                              _original: Any = original, **kwargs: Any) -> Any:
            if isinstance(expression, str) and not looks_like_function.match(expression):
                expression = f"() => ({expression})"
            return _original(self, expression, *args, **kwargs)

        wait_for_function.csp_safe = True  # type: ignore[attr-defined]
        cls.wait_for_function = wait_for_function  # type: ignore[method-assign]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # The long tests first: the test processes share them out from the start, and
    # the run does not end on one process finishing a long test while the others wait.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    if not POSTGRES_URL:
        return
    for item in items:
        name = item.name.split("[")[0]
        if name in SQLITE_ONLY:
            item.add_marker(pytest.mark.skip(reason=f"SQLite only: {SQLITE_ONLY[name]}"))


@pytest.fixture
def database(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """This test's own database: config keys for a temp SQLite file, or a fresh
    PostgreSQL schema when ``DIRECTOR_TEST_DATABASE_URL`` is set."""
    if not POSTGRES_URL:
        yield {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'director.sqlite'}"}
        return
    import sqlalchemy

    from director.config import database_url

    url = database_url(POSTGRES_URL)
    schema = "t_" + uuid.uuid4().hex[:16]
    admin = sqlalchemy.create_engine(url, poolclass=sqlalchemy.pool.NullPool)
    with admin.begin() as connection:
        connection.execute(sqlalchemy.text(f'CREATE SCHEMA "{schema}"'))
    yield {
        "SQLALCHEMY_DATABASE_URI": url,
        "SQLALCHEMY_ENGINE_OPTIONS": {
            "pool_pre_ping": True,
            "connect_args": {"options": f"-csearch_path={schema}", "application_name": schema},
        },
        "TEST_SCHEMA": schema,
        # The scheduler's advisory lock is database-wide: one key per test.
        "SCHEDULER_LOCK_KEY": int(schema[2:14], 16),
        # So are NOTIFY channels: the change feed of each test has its own.
        "CHANGE_FEED_CHANNEL": schema,
    }
    for attempt in range(5):  # connections a test left open (threads, servers)
        try:
            with admin.begin() as connection:
                connection.execute(sqlalchemy.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE application_name = :name AND pid <> pg_backend_pid()"), {"name": schema})
                connection.execute(sqlalchemy.text(f'DROP SCHEMA "{schema}" CASCADE'))
            break
        except sqlalchemy.exc.OperationalError:
            # a thread of the test (the audit writer) reconnected meanwhile: a deadlock
            # with the drop; terminate it again and retry
            if attempt == 4:
                raise
            time.sleep(0.2)
    admin.dispose()


@pytest.fixture
def app_config(tmp_path: Path, database: dict[str, Any]) -> dict[str, Any]:
    return {
        "TESTING": True,
        "INSTANCE_PATH": str(tmp_path / "instance"),
        "TOKEN": TOKEN,
        "SECRET_KEY": "test-secret",
        "SSE_PING_SECONDS": 0.5,
        "SSE_WATCH_SECONDS": 0.2,
        **database,
    }


@pytest.fixture(scope="session")
def sqlite_tables(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """A SQLite file with every table (``create_all``), made once per test process.

    Each test's database starts as a copy of it: copying takes about a millisecond,
    where ``create_all`` takes 0.15-0.25 s (thirty statements, each synced to disk).
    None on PostgreSQL."""
    if POSTGRES_URL:
        return None
    import sqlalchemy

    from director import models  # noqa: F401  (registers the tables)
    from director.models import audit  # noqa: F401

    path = tmp_path_factory.mktemp("tables") / "director.sqlite"
    engine = sqlalchemy.create_engine(f"sqlite:///{path}", poolclass=sqlalchemy.pool.NullPool)
    db.metadata.create_all(engine)
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    engine.dispose()
    return path


class _CompiledTemplates(BytecodeCache):
    """Jinja's compiled templates, kept for every app of this test process.

    Each test builds an app of its own, and each app's Jinja compiled every page
    it rendered again (three page-heavy web modules: 34.0 s, 32.4 s with this).
    Jinja's bytecode cache is keyed by the template's name and a hash of its
    source, so an edited template is compiled again.  Tests only: the server
    builds one app, which compiles each template once."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        found = self.code.get(bucket.key)
        if found is not None:
            bucket.bytecode_from_string(found)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = _CompiledTemplates()


_DIALECTS: dict[tuple[Any, ...], tuple[Any, Any]] = {}


def share_compiled_statements(engine: Any) -> None:
    """SQLite: this app's engine compiles its SQL into the cache of the test
    process's first engine of the same settings, with that engine's dialect.

    Each test builds an app, so each test's engine compiled every statement it ran
    again: SQLAlchemy caches a compiled statement per engine, keyed by the dialect
    object (a new one per engine), and so does each mapper for its inserts and
    updates.  The SQL is the same for every test's database file, so the engines
    of a test process share one dialect and one cache (thread-safe, as within
    one engine).  Measured on seven web test modules (246 tests, one process):
    36.9 s of CPU before, 31.7 s with the statement cache alone, 28.4 s with the
    dialect shared too.  PostgreSQL (each test in a schema of its own) keeps an
    engine of its own per test."""
    if engine.dialect.name != "sqlite":
        return
    from sqlalchemy.util import LRUCache

    dialect = engine.dialect
    key = (type(dialect), engine.url.drivername, tuple(sorted(engine.url.query.items())),
           dialect.paramstyle, dialect.isolation_level, dialect.native_datetime,
           dialect._json_serializer, dialect._json_deserializer)
    shared = _DIALECTS.get(key)
    if shared is None or shared[0].server_version_info is None:
        # A dialect is set up by its own engine's first connection: until the one
        # kept here has been, this engine's dialect is kept instead (and stays its own).
        _DIALECTS[key] = (dialect, shared[1] if shared else LRUCache(5000))
        engine._compiled_cache = _DIALECTS[key][1]
        return
    engine.dialect, engine._compiled_cache = shared
    engine.pool._dialect = shared[0]


def _sqlite_file(app: Flask) -> Path | None:
    uri = str(app.config["SQLALCHEMY_DATABASE_URI"])
    return Path(uri.removeprefix("sqlite:///")) if uri.startswith("sqlite:///") else None


@pytest.fixture
def make_app(app_config: dict[str, Any],
             sqlite_tables: Path | None) -> Iterator[Callable[..., Flask]]:
    """Build an app on this test's DB (call it again to 'restart' the server)."""
    from director.services.events import events
    from director.services.scheduler import stop_scheduler

    apps: list[Flask] = []

    def build(tables: bool = True, **overrides: Any) -> Flask:
        """``tables=False``: no tables made (the migration tests make their own)."""
        app = create_app({**app_config, **overrides})
        app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
        if tables:
            database = _sqlite_file(app)
            if sqlite_tables is not None and database is not None and not database.exists():
                shutil.copyfile(sqlite_tables, database)
            else:
                with app.app_context():
                    db.create_all()
        with app.app_context():
            for engine in db.engines.values():
                share_compiled_statements(engine)
        apps.append(app)
        return app

    yield build
    from director.services.audit import writer

    for app in apps:
        stop_scheduler(app)
        events(app).close()
        writer(app).close()
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


ENTRY = {"currency": "EUR", "buy_in": "100", "fee": "10", "starting_stack": 20_000,
         "late_registration_level": 6}


@pytest.fixture
def make_entry_tournament(make_tournament: Callable[..., int], client: FlaskClient,
                          auth: dict[str, str]) -> Callable[..., int]:
    """Tournaments that take entries (``ENTRY``): every registration is a buy-in."""

    def make(*args: Any, **kwargs: Any) -> int:
        tid = make_tournament(*args, **kwargs)
        r = client.post(f"/api/tournaments/{tid}/money/settings", json=ENTRY, headers=auth)
        assert r.status_code == 200, r.get_json()
        return tid

    return make


class EventApi:
    """One tournament driven through the JSON API as the director: ``post``, ``buy_in``,
    ``eliminate``, ``chips``, ``clock``."""

    def __init__(self, client: FlaskClient, auth: dict[str, str], tournament_id: int) -> None:
        self.client, self.auth, self.id = client, auth, tournament_id

    def post(self, path: str, **body: Any) -> Any:
        return self.client.post(f"/api/tournaments/{self.id}/{path}", json=body, headers=self.auth)

    def buy_in(self, name: str) -> int:
        response = self.post("money/entries", kind="buy-in", name=name)
        assert response.status_code == 201, response.get_json()
        return int(response.get_json()["player_id"])

    def eliminate(self, *ids: int) -> Any:
        return self.post("seating/eliminate", player_ids=list(ids))

    def chips(self, player_id: int) -> int:
        seating = self.client.get(f"/api/tournaments/{self.id}/seating", headers=self.auth).get_json()
        return int(next(p["chips"] for p in seating["players"] if p["id"] == player_id))

    def clock(self) -> dict[str, Any]:
        return dict(self.client.get(f"/api/tournaments/{self.id}/clock").get_json())


def query_plans(app: Flask, statements: list[tuple[str, Any]]) -> list[list[str]]:
    """SQLite's query plan of each ``(statement, parameters)`` (``statements_sent``): the
    steps ``EXPLAIN QUERY PLAN`` gives, e.g. "SEARCH player USING INDEX ix_player_name"."""
    with app.app_context():
        connection = db.engine.raw_connection()
        try:
            return [[row[3] for row in connection.execute(f"EXPLAIN QUERY PLAN {statement}",
                                                          parameters)]
                    for statement, parameters in statements]
        finally:
            connection.close()


@contextlib.contextmanager
def statements_sent(app: Flask, keep: Callable[[str, Any], Any] = lambda statement, parameters:
                    (statement, parameters)) -> Iterator[list[Any]]:
    """The SQL statements the app sends from this thread while the block runs, each as
    ``keep`` makes it (by default ``(statement, parameters)``): the test client runs each
    request here, while the log's background writer flushes from its own thread."""
    sent: list[Any] = []
    here = threading.get_ident()

    def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_args: Any) -> None:
        if threading.get_ident() == here:
            sent.append(keep(statement, parameters))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield sent
    finally:
        event.remove(engine, "before_cursor_execute", record)
