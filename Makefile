# Two commands on a fresh machine (python3 and make are all they assume):
#   make run   - the platform on embedded defaults (SQLite, bundled Redis, Celery, ASGI)
#   make test  - the whole test suite on real services
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-$(shell cksum < pyproject.toml | cut -d' ' -f1)
PO     := $(wildcard locale/*/LC_MESSAGES/*.po)
MO     := $(PO:.po=.mo)

.PHONY: run test install messages migrate demo chromium lint clean-var help

help:
	@echo "make run    start the platform on http://127.0.0.1:8000 (HOST=0.0.0.0 for the LAN)"
	@echo "make test   run the whole test suite (unit, consumer, Celery, browser)"
	@echo "make lint   ruff"

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $@

install: $(STAMP)

# Compiled with Babel (pure Python), so that no system gettext is needed.
locale/%.mo: locale/%.po $(STAMP)
	$(PY) -m babel.messages.frontend compile -i $< -o $@ --statistics

messages: $(MO)

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py load_demo

run: install messages demo
	$(PY) -m config.run

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

test: install messages chromium
	$(PY) -m config.run test $(PYTEST_ARGS)

lint: install
	$(PY) -m ruff check .

clean-var:
	rm -rf var
