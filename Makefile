# Two commands: `make run` and `make test`.  Everything else is a helper for them.
# `make test-fast` is the quick loop: the rules engine and the tournament rules.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
HOST   ?= 0.0.0.0
PORT   ?= 5000
STAMP  := $(VENV)/.installed
# pytest-xdist: test processes in parallel.  Four on two cores: a browser test
# spends much of its time waiting on chromium, its server or the page's timers:
# on the whole suite, three processes left the two cores idle for 67 s of a
# 236 s run (all three waiting at once), four for 20 s of a 225 s run.  The
# long tests come first (tests/conftest.py), and each process is given at most
# 4 tests at a time from the one queue: with xdist's default first share (a
# quarter of the run each), one process was left alone for two minutes at the
# end with the browser tests it had been handed at the start.
#
# Where the CPU goes (user+sys of the whole process tree; REQUIRE_BROWSER=1, the
# whole suite of d493e8f, 2,355 tests, on this 2-core machine shared with other
# runs): 506 s, and 464 s wall.  The test processes 263 s (tests/web 180 s,
# tests/engine 30 s, tests/tournament 15 s, the browser tests' own side 9 s,
# collecting and reporting 30 s); chromium 133 s and Playwright's driver 18 s;
# the browser tests' servers 59 s and their forkservers 5 s (a server's start
# takes 0.05 s of CPU: the rest is serving the pages, so one server shared by
# the browser tests of a process would save about 8 s).  tests/conftest.py puts
# the temp folders in memory (/dev/shm: no sync to disk for each test's commits)
# and gives the SQLite engines of a test process one dialect and one statement
# cache (each test's new engine compiled all its SQL again): tests/web in two
# processes, run side by side before and after, took 204 s of CPU and 269 s
# wall before, 165 s and 216 s after (-19 %, -20 %); tests/browser the same way
# 251 s and 248 s of CPU (no change: chromium and the servers' requests).  What
# is left is the tests' own work: requests through the app, pages in chromium.
WORKERS ?= 4
XDIST   := -n $(WORKERS) --dist load --maxschedchunk 4
# Python writes its compiled files, even where the shell says not to: every test
# process, and every server a test starts, imports the app, and collecting the
# tests took 9.8 s a process with nothing compiled against 3.3 s with it.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test test-fast venv lint typecheck bench clean browser test-postgres postgres

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

# Both steps upgrade an existing database first (a copy goes to instance/backups/).
run: $(STAMP)
	$(BIN)/director init-db --demo-if-empty
	HOST=$(HOST) PORT=$(PORT) $(BIN)/director serve

# The browser tests use Debian's chromium in its headless shell (the package
# chromium-headless-shell: the same engine, about a third less CPU than the full
# browser; CHROMIUM_PATH chooses another).  As root, install it when it is
# missing; without it they use /usr/bin/chromium, and without either they skip
# with a reason (or fail if REQUIRE_BROWSER=1).
browser:
	@if [ ! -x /usr/bin/chromium-headless-shell ] && [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		echo "installing Debian's chromium (headless shell) for the browser tests"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null) \
		|| echo "could not install chromium-headless-shell: the browser tests use /usr/bin/chromium, or skip"; \
	fi

test: $(STAMP) browser
	$(BIN)/ruff check director tests benchmarks
	$(BIN)/lint-imports
	$(BIN)/mypy --strict --follow-imports=silent director/poker
	$(BIN)/python -m pytest -q $(XDIST)

# The rules engine and the tournament rules (no app, no browser): under a minute.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist worksteal tests/engine tests/tournament

# The same suite on a real PostgreSQL server.  As root it installs Debian's
# postgresql when missing, starts the local cluster, and creates a role and a
# database; every test then runs in a schema of its own (tests/conftest.py).
PG_URL ?= postgresql://director:director@127.0.0.1:5432/director_test
postgres:
	@if ! command -v pg_lsclusters >/dev/null; then \
		if [ "$$(id -u)" = "0" ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
		else echo "install postgresql (or set PG_URL to a server)"; exit 1; fi; \
	fi
	@if [ "$$(id -u)" = "0" ]; then \
		set -- $$(pg_lsclusters -h | head -1); \
		[ -n "$$1" ] || { pg_createcluster --start 15 main >/dev/null 2>&1 || pg_createcluster --start "$$(ls /usr/lib/postgresql | sort -n | tail -1)" main; set -- $$(pg_lsclusters -h | head -1); }; \
		[ "$$4" = "online" ] || pg_ctlcluster "$$1" "$$2" start; \
		su postgres -c "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='director'\"" | grep -q 1 || \
			su postgres -c "psql -qc \"CREATE ROLE director LOGIN PASSWORD 'director'\""; \
		su postgres -c "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='director_test'\"" | grep -q 1 || \
			su postgres -c "createdb -O director director_test"; \
	fi

test-postgres: $(STAMP) browser postgres
	$(BIN)/python -c "import psycopg" 2>/dev/null || $(BIN)/python -m pip install -q -e '.[dev,postgres]'
	DIRECTOR_TEST_DATABASE_URL=$(PG_URL) $(BIN)/python -m pytest -q $(XDIST)

lint: $(STAMP)
	$(BIN)/ruff check director tests benchmarks
	$(BIN)/lint-imports

# The engine's types, strictly (``make test`` runs it too; the rest of director/ is not
# annotated strictly enough yet: ``mypy director`` reports loose annotations).
typecheck: $(STAMP)
	$(BIN)/mypy --strict --follow-imports=silent director/poker

bench: $(STAMP)
	for b in benchmarks/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis tests/artifacts
