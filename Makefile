# Two commands on a fresh machine (python3 and make are all they assume):
#   make run   - the platform on embedded defaults (SQLite, bundled Redis, Celery, ASGI)
#   make test  - the whole test suite on real services
# Dependencies come from requirements.lock (exact versions with hashes, for Python 3.11
# on Linux x86_64); `make lock` and `make upgrade` change it on purpose (see README).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
LOCK   := requirements.lock
STAMP  := $(VENV)/.installed-$(shell cksum < $(LOCK) | cut -d' ' -f1)
PO     := $(wildcard locale/*/LC_MESSAGES/*.po)
MO     := $(PO:.po=.mo)

# The locking tool (uv, at the version and hashes in requirements-tools.lock) lives in
# its own virtual environment, never in .venv.
TOOLS       := .venv-tools
TOOLS_LOCK  := requirements-tools.lock
TOOLS_STAMP := $(TOOLS)/.installed-$(shell cksum < $(TOOLS_LOCK) | cut -d' ' -f1)
UV          := $(TOOLS)/bin/uv
UV_VERSION  ?= $(shell sed -n 's/^uv==\([^ ]*\).*/\1/p' $(TOOLS_LOCK))
# Resolved for Python 3.11 (3.11.0 and later patch releases) on Linux x86_64, whatever
# interpreter runs the command. The runtime dependencies and the dev and postgres extras.
TARGET      := --python-version 3.11 --python-platform x86_64-unknown-linux-gnu
COMPILE     := $(UV) pip compile pyproject.toml --extra dev --extra postgres \
               --generate-hashes $(TARGET) --no-header --quiet --output-file $(LOCK)
define LOCK_HEADER
# Every dependency of dataprotect-classroom, pinned with hashes: the runtime
# dependencies and the dev and postgres extras of pyproject.toml, resolved for
# Python 3.11 on Linux x86_64 by `make lock` or `make upgrade` (uv pip compile, uv's
# version in requirements-tools.lock). Do not edit by hand. `make install` installs
# exactly this: pip install --require-hashes --no-deps -r requirements.lock
endef
export LOCK_HEADER

.PHONY: run test test-sqlite test-postgres install lock upgrade lock-tools tools messages \
        migrate demo chromium postgresql fonts lint clean-var help

help:
	@echo "make run      start the platform on http://127.0.0.1:8000 (HOST=0.0.0.0 for the LAN)"
	@echo "make test     run the whole test suite (unit, consumer, Celery, browser) on SQLite,"
	@echo "              and the live, match and concurrency tests on PostgreSQL, at once"
	@echo "              (make test-sqlite or make test-postgres runs one database; PYTEST_ARGS"
	@echo "              picks tests on SQLite, POSTGRES_TESTS on PostgreSQL)"
	@echo "make fonts    install Debian's fonts for the debrief PDF (as root; make run and"
	@echo "              make test ask for it)"
	@echo "make lint     ruff and mypy (the suite runs them too: tests/platform/test_style.py)"
	@echo "make lock     re-resolve requirements.lock after editing pyproject.toml (keeps pins)"
	@echo "make upgrade  re-resolve requirements.lock to the newest allowed versions"
	@echo "              (PACKAGES='django celery' upgrades only those)"

# A lock with new content (a new checksum, so a new stamp name) rebuilds .venv from
# nothing, so that it holds exactly the locked packages and nothing left from before.
$(STAMP):
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --require-hashes --no-deps -r $(LOCK)
	$(PY) -m pip check
	@touch $@

install: $(STAMP)

$(TOOLS_STAMP):
	rm -rf $(TOOLS)
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet --require-hashes --no-deps -r $(TOOLS_LOCK)
	@touch $@

tools: $(TOOLS_STAMP)

# Re-resolve within pyproject's ranges, keeping the current pins where they still fit.
lock: $(TOOLS_STAMP)
	$(COMPILE)
	@{ echo "$$LOCK_HEADER"; cat $(LOCK); } > $(LOCK).tmp && mv $(LOCK).tmp $(LOCK)
	@echo "$(LOCK) written: review 'git diff $(LOCK)', run 'make test', then commit it."

# Re-resolve to the newest versions pyproject's ranges allow (or only PACKAGES).
upgrade: $(TOOLS_STAMP)
	$(COMPILE) $(if $(PACKAGES),$(foreach p,$(PACKAGES),--upgrade-package $(p)),--upgrade)
	@{ echo "$$LOCK_HEADER"; cat $(LOCK); } > $(LOCK).tmp && mv $(LOCK).tmp $(LOCK)
	@echo "$(LOCK) written: review 'git diff $(LOCK)', run 'make test', then commit it."

# New hashes for uv itself: make lock-tools UV_VERSION=x.y.z
lock-tools: $(TOOLS_STAMP)
	@echo "# uv for make lock and make upgrade (in .venv-tools). Made by: make lock-tools UV_VERSION=x.y.z" > $(TOOLS_LOCK).tmp
	echo "uv==$(UV_VERSION)" | $(UV) pip compile - --generate-hashes $(TARGET) --no-header \
	    --no-annotate --quiet >> $(TOOLS_LOCK).tmp
	@mv $(TOOLS_LOCK).tmp $(TOOLS_LOCK)

# Compiled with Babel (pure Python), so that no system gettext is needed.
locale/%.mo: locale/%.po $(STAMP)
	$(PY) -m babel.messages.frontend compile -i $< -o $@ --statistics

messages: $(MO)

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

run: install messages demo fonts
	$(PY) -m config.run

# The debrief PDF's fonts (the worker's machine draws it): DejaVu Sans, the report's, and
# Noto for what DejaVu lacks. Nicknames come in any script and with emoji, and the PDF
# draws a character that no installed font has as a box. Installed with apt-get as root;
# otherwise `make run` says what to install and goes on (the rest of the platform does
# not need them), and the debrief test that checks the PDF for boxes fails.
FONTS := fonts-dejavu-core fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji
fonts:
	@missing=$$(for p in $(FONTS); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
	    echo "Installing Debian's" $$missing "with apt-get, for the debrief PDF"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "The debrief PDF draws emoji and the scripts DejaVu Sans lacks (Chinese, Korean,"; \
	    echo "Devanagari...) as boxes without these fonts: sudo apt-get install" $$missing; \
	  fi; \
	fi

# Debian's Chromium for the browser tests; never a downloaded browser.
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "Installing Debian's chromium with apt-get"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core libpango-1.0-0 libpangoft2-1.0-0 >/dev/null; \
	  else \
	    echo "Browser tests need /usr/bin/chromium: run 'sudo apt-get install chromium' once."; exit 1; \
	  fi; \
	fi

# Debian's PostgreSQL server programs (initdb, postgres) for the tests on PostgreSQL; the
# tests start a throwaway server of their own (config.run test --postgres), never the
# package's system service.
postgresql:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "Installing Debian's postgresql with apt-get"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	  else \
	    echo "Tests on PostgreSQL need its server: run 'sudo apt-get install postgresql' once."; exit 1; \
	  fi; \
	fi
	@# iproute2's ip and tc: a test cuts a database machine off in a network namespace of its own
	@if ! command -v ip >/dev/null && [ "$$(id -u)" = "0" ]; then \
	  echo "Installing Debian's iproute2 with apt-get"; \
	  DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2 >/dev/null; \
	fi

# `make test`: the whole suite, as the parts of TEST_PARTS in config/run.py at once (the
# browser and engine tests and the rest on SQLite, the match and live-play tests on
# PostgreSQL too). With PYTEST_ARGS (a part of the suite), only that part, on SQLite.
# `make test-sqlite` and `make test-postgres` run the parts on one database (or
# PYTEST_ARGS, POSTGRES_TESTS there).
POSTGRES_TESTS ?=

test: install messages chromium postgresql fonts
	$(PY) -m config.run test $(PYTEST_ARGS)

test-sqlite: install messages chromium fonts
	$(PY) -m config.run test --sqlite $(PYTEST_ARGS)

test-postgres: install messages chromium postgresql
	$(PY) -m config.run test --postgres $(POSTGRES_TESTS)

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy

clean-var:
	rm -rf var
