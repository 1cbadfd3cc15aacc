# Two commands: `make run` and `make test`.  Everything else is a helper for them.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
HOST   ?= 0.0.0.0
PORT   ?= 5000
STAMP  := $(VENV)/.installed

.PHONY: run test venv lint typecheck bench clean browser

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/director init-db --demo-if-empty
	HOST=$(HOST) PORT=$(PORT) $(BIN)/director serve

# The browser tests use Debian's chromium.  As root, install it when it is
# missing; otherwise those tests skip with a reason (or fail if REQUIRE_BROWSER=1).
browser:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		echo "installing Debian's chromium for the browser tests"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
		|| echo "could not install chromium: browser tests will skip"; \
	fi

test: $(STAMP) browser
	$(BIN)/ruff check director tests benchmarks
	$(BIN)/mypy --strict --follow-imports=silent director/poker
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check director tests benchmarks

bench: $(STAMP)
	for b in benchmarks/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis tests/artifacts
