# The two commands of the README: `make run` and `make test`. Both set up .venv from nothing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CORPUS ?= $(abspath ../shared/corpus)
export BRIDGE_CORPUS ?= $(CORPUS)

.PHONY: setup browser run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# The browser tests drive Debian's Chromium (never a browser downloaded by a test tool).
CHROMIUM ?= /usr/bin/chromium
browser:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  echo "installing Debian's chromium for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null \
	    || echo "could not install chromium: the browser tests will be skipped"; \
	fi

run: setup
	$(VENV)/bin/tablectl demo

test: setup browser
	$(PY) -m ruff check controller drivers firmware_bridge tablectl web_ui tests bench
	$(PY) -m mypy controller drivers firmware_bridge tablectl web_ui
	$(PY) -m pytest

bench: setup
	$(PY) bench/replay.py
	$(PY) bench/frames.py
	$(PY) bench/table.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
