# The two commands of the README: `make run` and `make test`. Both set up .venv from nothing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
CORPUS ?= $(abspath ../shared/corpus)
export BRIDGE_CORPUS ?= $(CORPUS)

.PHONY: setup run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(VENV)/bin/tablectl demo-replay

test: setup
	$(PY) -m ruff check controller drivers firmware_bridge tablectl tests bench
	$(PY) -m mypy controller drivers firmware_bridge tablectl
	$(PY) -m pytest

bench: setup
	$(PY) bench/replay.py
	$(PY) bench/frames.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
