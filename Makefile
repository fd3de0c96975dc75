# The two commands of the README: `make run` and `make test`. Both set up .venv from nothing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup lock browser mosquitto run run-table test lint bench diagrams screenshots clean hardware hardware-tools kicad pi-check

# Exactly the versions of requirements.lock (pip and setuptools included), then the project
# itself without resolving anything: the same environment whatever the day.
$(STAMP): pyproject.toml requirements.lock
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -r requirements.lock
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# requirements.lock anew: a throwaway venv gets the newest versions the package index offers of
# what pyproject.toml asks for, and pip freezes them (commit the result once `make test` passes).
lock:
	set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(PYTHON) -m venv "$$tmp/venv"; \
	"$$tmp/venv/bin/python" -m pip install --quiet --upgrade pip setuptools; \
	"$$tmp/venv/bin/python" -m pip install --quiet -e '.[dev]'; \
	{ grep '^#' requirements.lock || true; "$$tmp/venv/bin/python" -m pip freeze --all --exclude-editable; } \
	  > "$$tmp/requirements.lock"; \
	mv "$$tmp/requirements.lock" requirements.lock

# The browser tests drive Debian's Chromium (never a browser downloaded by a test tool).
CHROMIUM ?= /usr/bin/chromium
browser:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  echo "installing Debian's chromium for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null \
	    || echo "could not install chromium: the browser tests will be skipped"; \
	fi

# The club room's broker, for its tests and the demo: Debian's Mosquitto (mosquitto_passwd is in it too).
MOSQUITTO ?= /usr/sbin/mosquitto
mosquitto:
	@if [ ! -x "$(MOSQUITTO)" ]; then \
	  echo "installing Debian's mosquitto for the club room"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq mosquitto >/dev/null \
	    || echo "could not install mosquitto: make run cannot start the room, and the room's tests fail"; \
	fi

# A whole club room on this machine: the broker, 4 simulated tables and the Director's console.
run: setup mosquitto
	$(VENV)/bin/tablectl room demo

# One simulated table alone, with its pages on http://127.0.0.1:8000
run-table: setup
	$(VENV)/bin/tablectl demo

test: setup browser mosquitto $(if $(CI),hardware-tools)
	$(PY) -m ruff check controller drivers firmware_bridge tablectl web_ui tests bench
	$(PY) -m mypy controller drivers firmware_bridge tablectl web_ui
	$(PY) -m pytest

bench: setup mosquitto
	$(PY) bench/replay.py
	$(PY) bench/frames.py
	$(PY) bench/table.py
	$(PY) bench/room.py
	$(PY) bench/event.py --tables 500
	$(PY) bench/score.py

# The wiring and bidding-box drawings of hardware/diagrams/, from diagrams.toml and the firmware's pin map.
diagrams: setup
	$(PY) hardware/diagrams/make_diagrams.py

# The README's pictures: every page at phone, tablet and desktop width, as the width tests see them
# (docs/<page>-<width>.png). A plain test run never writes them.
screenshots: setup browser
	BRIDGE_SCREENSHOTS=1 $(PY) -m pytest -q -p no:cacheprovider tests/web_ui/test_pages_widths.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# -- hardware (hardware/README.md) ---------------------------------------------------------------
# The EDA and CAD tools live in their own venvs: SKiDL pulls in a circuit simulator and plotting,
# build123d the OpenCASCADE kernel (about 1 GB), which the table never needs; KiCad's pcbnew is
# Debian's (`apt install kicad`, for the system python3). `make test` installs them under CI only
# (elsewhere their tests skip, saying so); once in .cache/ (and KiCad installed) nothing is fetched.
HW_VENV := .cache/hw-venv
HW_STAMP := $(HW_VENV)/.installed
CAD_VENV := .cache/cad-venv
CAD_STAMP := $(CAD_VENV)/.installed
KICAD_PYTHON ?= /usr/bin/python3
$(HW_STAMP): hardware/electronics/requirements.txt
	$(PYTHON) -m venv $(HW_VENV)
	$(HW_VENV)/bin/python -m pip install --quiet -r hardware/electronics/requirements.txt
	touch $(HW_STAMP)

$(CAD_STAMP): hardware/mechanical/requirements.txt
	$(PYTHON) -m venv $(CAD_VENV)
	$(CAD_VENV)/bin/python -m pip install --quiet -r hardware/mechanical/requirements.txt
	touch $(CAD_STAMP)

kicad:
	@if ! $(KICAD_PYTHON) -c 'import pcbnew' 2>/dev/null; then \
	  echo "installing Debian's kicad (pcbnew) and its footprints for the boards' layout"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq \
	    --no-install-recommends kicad kicad-footprints >/dev/null \
	    || echo "could not install kicad: the boards' layout and Gerbers cannot be made"; \
	fi

hardware-tools: $(HW_STAMP) $(CAD_STAMP) kicad

# Into hardware/build/: the boards' netlists through SKiDL's electrical rule check, KiCad netlists,
# BOMs and the antenna figures; the boards laid out in KiCad with their Gerbers, drill, position
# files and design-rule check; the printed and cut parts (STL, STEP, DXF) and their fit check; the
# cloth's zone artwork at real size. Then the cost of a table from hardware/bom/, and the drawings checked.
hardware: setup hardware-tools
	$(HW_VENV)/bin/python hardware/electronics/build.py --out hardware/build
	$(KICAD_PYTHON) hardware/electronics/layout.py --out hardware/build/boards
	$(CAD_VENV)/bin/python hardware/mechanical/build.py --out hardware/build/mechanical
	$(PY) hardware/diagrams/cloth.py --out hardware/build/cloth-zones.svg
	$(PY) hardware/bom/cost.py
	$(PY) hardware/diagrams/make_diagrams.py --check

# The project on the Pi's own OS: Debian bookworm arm64 under qemu-user (hardware/pi/README.md).
# 15 to 60 min the first time on a 2-core machine (the root and its venv are then kept in
# .cache/pi-root), 9 min after. Not part of `make test`: hardware/pi/README.md says why.
pi-check: setup
	bash hardware/pi/pi-check.sh
