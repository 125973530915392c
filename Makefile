# Two entry points: `make run` and `make test`. Both set up .venv first.

VENV := .venv
PY := $(VENV)/bin/python
BOOTSTRAP_PYTHON := $(shell command -v python3.11 2>/dev/null || command -v python3)
INSTALLED := $(VENV)/.installed
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/ttr
TEST_REDIS_URL ?= redis://127.0.0.1:6379/15
SCALE_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/ttr_scale
SCALE_REDIS_URL ?= redis://127.0.0.1:6379/12

.PHONY: install run test lint test-sqlite test-postgres test-slow test-scale test-hosts fuzz schema \
	chromium \
	gettext messages maps

$(PY):
	@test -n "$(BOOTSTRAP_PYTHON)" || { echo "error: neither python3.11 nor python3 is on PATH" >&2; exit 1; }
	$(BOOTSTRAP_PYTHON) -m venv $(VENV)

# Reinstalls when pyproject.toml changes; delete $(INSTALLED) to force it.
$(INSTALLED): pyproject.toml | $(PY)
	$(PY) -m pip install -e '.[dev]'
	@touch $@

# Then the translation catalogues, compiled next to each .po (the .mo files are not
# committed), and the bots' hot modules, compiled with mypyc into build/native when a C
# compiler is present (engine/bots/native.py); quick when they are up to date, and never
# fatal.
install: $(INSTALLED) gettext
	@$(PY) scripts/messages.py --compile
	@$(PY) scripts/build_native.py

# GNU gettext's msgfmt compiles the catalogues (and xgettext reads the code for
# `make messages`). Installed with apt when missing.
gettext:
	@if ! command -v msgfmt >/dev/null 2>&1; then \
		echo "msgfmt is missing; installing Debian's gettext"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y --no-install-recommends gettext; \
	fi

# Refresh every catalogue from the code (scripts/messages.py): new marked strings arrive
# untranslated, and tests/i18n/ fails until each has its Greek, Vietnamese and Russian.
messages: install
	$(PY) scripts/messages.py

run: install
	bash scripts/serve

test: install chromium lint test-sqlite test-postgres

# The web client's end-to-end tests drive Debian's Chromium (Playwright cannot download its
# own browser here); they fail, not skip, without it. Installed with apt when missing.
CHROMIUM := /usr/bin/chromium
chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
		echo "Chromium is missing; installing Debian's chromium"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y --no-install-recommends chromium; \
	fi

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	$(PY) scripts/lint_schema.py
	$(VENV)/bin/openapi-spec-validator openapi/schema.yaml

# The tests marked `slow` stay out of `make test` (pyproject.toml's addopts leave them out,
# and a -m given here replaces that one, so these -m expressions say "not slow" again).
# The embedded default: no DATABASE_URL or REDIS_URL, whatever the shell has exported.
test-sqlite: install
	env -u DATABASE_URL -u REDIS_URL $(VENV)/bin/pytest -n 2 -m "not postgres and not slow"

# The production stack: the tests that need PostgreSQL, and the API, games and worker
# suites again (marked `stacks` by tests/conftest.py), on PostgreSQL and Redis. Each of the
# two xdist workers gets its own database and its own Redis database (TEST_REDIS_URL's
# number, and the one below it). pytest exits 5 when it collects no tests; here that means
# the PostgreSQL tests silently went missing, so it counts as a failure.
PG_MARKERS := (postgres or stacks) and not slow
test-postgres: install
	@echo "DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(VENV)/bin/pytest -n 2 -m '$(PG_MARKERS)'"
	@DATABASE_URL='$(TEST_DATABASE_URL)' REDIS_URL='$(TEST_REDIS_URL)' $(VENV)/bin/pytest -n 2 -m '$(PG_MARKERS)'; status=$$?; \
	if [ $$status -eq 5 ]; then \
		echo "error: the PostgreSQL pass collected no tests marked 'postgres';" \
			"check DATABASE_URL ($(TEST_DATABASE_URL)) and the markers" >&2; \
		exit 1; \
	fi; \
	exit $$status

# The long sweeps, outside `make test`: 200 random Europe games per player count, more on
# every other board, and the simulate command with the hard bot at its full search budget.
# The same as: env -u DATABASE_URL -u REDIS_URL .venv/bin/pytest -n 2 -m slow
test-slow: install
	env -u DATABASE_URL -u REDIS_URL $(VENV)/bin/pytest -n 2 -m slow

# The service as compose.yaml runs it (two web servers, two workers, one beat) under 22
# games at once, a worker and a web server killed mid-run (tests/scale/, about 3 minutes).
# Its own database and Redis database, so it can run beside the other passes.
test-scale: install
	DATABASE_URL='$(SCALE_DATABASE_URL)' REDIS_URL='$(SCALE_REDIS_URL)' $(VENV)/bin/pytest -m scale tests/scale

# The service on seven hosts made of network namespaces (a data host with its own
# PostgreSQL cluster and Redis, two web, two worker and two beat hosts), with network
# faults across them (tests/hosts/, about 4 minutes). Needs root; touches neither the
# machine's PostgreSQL nor its Redis.
test-hosts: install
	env -u DATABASE_URL -u REDIS_URL $(VENV)/bin/pytest -p no:xdist -rA -m hosts tests/hosts

# A longer schemathesis run than the bounded one in `make test`: FUZZ_EXAMPLES examples per
# operation (and persona, in process), new cases every run, in process and against the
# service as `make run` starts it, with development and production settings (minutes).
# make fuzz FUZZ_EXAMPLES=300 for more.
FUZZ_EXAMPLES ?= 100
fuzz: install
	env -u DATABASE_URL -u REDIS_URL FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(VENV)/bin/pytest -n 2 tests/trust/test_fuzz.py tests/trust/test_fuzz_live.py

# The committed schema and docs/api.md's problem tables, both generated from the code.
schema: install
	$(PY) manage.py spectacular --api-version v1 --validate --fail-on-warn --file openapi/schema.yaml
	$(PY) scripts/problem_tables.py

# The boards' land-and-sea backdrops (web/static/web/maps/), built from Natural Earth with
# Node.js and committed: not part of install or the tests. See docs/web.md.
maps:
	cd scripts/maps && npm ci --no-audit --no-fund && node build.mjs
