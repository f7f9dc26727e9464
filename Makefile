# Two entry points (see README): `make run` and `make test`. Both set up everything they need.
PY ?= python3
VENV := .venv
UV := $(VENV)/bin/uv
BIN := $(VENV)/bin

.PHONY: run demo test setup lint bench clean browser

$(UV):
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip uv

setup: $(UV)
	$(UV) sync --frozen --all-extras --inexact --python $(BIN)/python

# The main job with the embedded default store (SQLite): the local web app on
# http://127.0.0.1:8765/ with a sample game of every ruleset (Ctrl-C stops it).
run: setup
	$(BIN)/vedette serve

# The CLI's own sample: Herman's fixing example played in the terminal.
demo: setup
	$(BIN)/vedette demo

# Debian's chromium for the real-browser tests (Playwright drives it; no browser download).
# Waits for apt's lock while another apt-get runs; off Debian, install your system's `chromium`
# or set VEDETTE_CHROMIUM=/path/to/chromium (.ci/browser says so).
browser:
	@bash .ci/browser

lint: setup
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

test: setup browser lint
	$(BIN)/pytest -n auto

bench: setup
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
