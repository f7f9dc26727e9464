# Two entry points (see README): `make run` and `make test`. Both set up everything they need.
PY ?= python3
VENV := .venv
UV := $(VENV)/bin/uv
BIN := $(VENV)/bin

.PHONY: run demo test setup setup-app lint bench bench-quick clean browser wheel

# uv, put into a venv made without a pip of its own by the system's pip (pip >= 22.3 installs
# into another interpreter with --python): the venv's own pip, installed and byte-compiled for
# nothing the set-up uses, cost a fresh clone about 4 s (issue 27 item 3). Without the system's
# pip, the venv's own does it.
$(UV):
	$(PY) -m venv --without-pip $(VENV)
	$(PY) -m pip --python $(BIN)/python install --quiet --disable-pip-version-check uv 2>/dev/null \
	  || { $(BIN)/python -m ensurepip --default-pip >/dev/null \
	       && $(BIN)/pip install --quiet --disable-pip-version-check uv; }

# What the app needs and nothing else (make run, make demo): the locked runtime dependencies.
setup-app: $(UV)
	$(UV) sync --frozen --no-dev --inexact --python $(BIN)/python

# Everything: the extras (numpy, dask) and the development group (pytest, playwright, ruff, mypy).
# No --compile-bytecode: it compiled all 4,600 modules installed (about 11 s of CPU on a fresh
# clone) where the tests import a seventh of them; `make test` writes the .pyc of what it imports
# once, in its first collection (.ci/test; issue 27 item 3).
setup: $(UV)
	$(UV) sync --frozen --all-extras --inexact --python $(BIN)/python

# The main job with the embedded default store (SQLite): the local web app on
# http://127.0.0.1:8765/ with a sample game of every ruleset (Ctrl-C stops it).
run: setup-app
	$(BIN)/vedette serve

# The CLI's own sample: Herman's fixing example played in the terminal.
demo: setup-app
	$(BIN)/vedette demo

# Debian's chromium-headless-shell for the real-browser tests (Playwright drives it; no browser
# download; a third less CPU than the full chromium). Waits for apt's lock while another apt-get
# runs; off Debian, install your system's `chromium` or set VEDETTE_CHROMIUM=/path/to/chromium
# (.ci/browser says so).
browser:
	@bash .ci/browser

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

# ruff, then mypy beside the suite (.ci/test): the wall time is the longer of the two, not
# their sum. Options for pytest: make test PYTEST_ARGS="-x -k builder".
test: setup browser
	@bash .ci/test $(PYTEST_ARGS)

# The wheel as a user installs it: built, installed into a clean venv, then checked
# (--version, a ruleset's scenarios, serve answering a page). .ci/run runs it after make test.
wheel: setup
	@bash .ci/wheel

bench: setup
	$(BIN)/python -m bench

# Every bench small (seconds each, rough figures): they still run and agree with their
# baselines. .ci/run runs it after make test.
bench-quick: setup
	$(BIN)/python -m bench --quick

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
