# Two commands from nothing: `make lab` and `make test`. Each bootstraps what it needs:
# uv (into .tools/, from PyPI) and the project environment (.venv/, from uv.lock). What only root
# can install comes first (`node`, and for `make test` `browser`): as root, apt-get installs it;
# otherwise make stops before anything runs, naming the one command to run.

PYTHON ?= python3
UV_VERSION := 0.13.9
UV := .tools/bin/uv
VENV := .venv
BIN := $(VENV)/bin
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab test soak browser node lint typecheck pytest bench bench-peer bench-speedup bench-suite bench-referee env js clean voila marimo html site site-serve test-site

env: $(VENV)/.synced js

# The board's front-end: js/ bundled by esbuild (from the npm registry) into the package, the
# files package.json's build script writes (a package build runs the same script: pyproject.toml).
STATIC := kum_widget/static/widget.js kum_widget/static/widget.css kum_widget/static/replay.js
js: $(STATIC)

$(STATIC) &: $(wildcard js/*.js js/*.css) package.json package-lock.json | node
	npm ci --no-audit --no-fund --loglevel=error
	npm run --silent build

$(UV):
	$(PYTHON) -m venv .tools
	.tools/bin/python -m pip install --quiet --disable-pip-version-check "uv==$(UV_VERSION)"

$(VENV)/.synced: pyproject.toml uv.lock | node $(UV)
	$(UV) sync --locked --all-extras --group hosts --python $(PYTHON)
	touch $@

# The server is rooted at the repository (a file to open alone would root it at notebooks/): the
# file browser shows RULES.md, COURT.md and GAMES.md, and the notebooks' links to them open.
lab: env
	$(BIN)/jupyter lab $(ROOT_FLAG) --config=jupyter/jupyter_server_config.py --ServerApp.root_dir="$(CURDIR)" notebooks/01_play.ipynb

# The other hosts (README, "Every notebook host"): a notebook served as a page without code
# (what a class sees), the marimo app, and an executed notebook as a page that works offline.
NB ?= notebooks/01_play.ipynb
voila: env
	$(BIN)/voila $(NB)

marimo: env
	$(BIN)/marimo run notebooks/play_marimo.py

html: env
	$(BIN)/jupyter nbconvert --to html --execute --ExecutePreprocessor.store_widget_state=False $(NB)

# The course with nothing to install (README, "A course in the browser"): a static JupyterLite site
# in site/ where the board, the bots and the notebooks run in the browser's Pyodide. Every input is
# pinned in lite/manifest.toml and cached outside the clone (KUM_SITE_CACHE, by default
# ~/.cache/kum-widget/site): fetched once from PyPI and npm, then rebuilt with no network.
# `make site-serve` serves it at http://127.0.0.1:8000/course/ (SITE_PORT); `make test-site` plays
# it in Chromium with every other host blocked (the `site` marker, which `make test` leaves out).
SITE_PORT ?= 8000
site: env
	$(BIN)/python lite/build.py

site-serve:
	$(BIN)/python lite/serve.py --port $(SITE_PORT)

test-site: browser site
	$(BIN)/python -m pytest -m site tests/site

test: browser lint typecheck pytest

# What only root can install, from Debian: Chromium for the browser tests (Playwright drives it)
# and Node.js with npm for the front-end. $(call debian,<commands>,<packages>,<what needs them>):
# one of the commands is on PATH; or, as root, apt-get installs the packages (as CI runs);
# or make stops at once, naming the one command to run. Each comes before any step that needs
# it (and .NOTPARALLEL keeps that order under -j).
define debian
@for c in $(1); do command -v $$c >/dev/null 2>&1 && exit 0; done; \
if [ "$$(id -u)" = 0 ]; then \
  echo "$(3): installing Debian's $(2)"; \
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2); \
else \
  echo "$(3), which only root can install (Debian's $(2)). Run:" >&2; \
  echo "    sudo apt-get install -y $(2)" >&2; \
  echo "then make again." >&2; \
  exit 1; \
fi
endef
.NOTPARALLEL:

browser:
	$(call debian,chromium chromium-browser,chromium,The browser tests need Chromium)

node:
	$(call debian,npm,nodejs npm,Building the board's front-end (js/) needs Node.js and npm)

lint: env
	$(BIN)/ruff check .

typecheck: env
	$(BIN)/mypy

# pytest on every core (pytest-xdist): each worker has its own JupyterLab and Chromium, shared
# by its browser tests (tests/conftest.py); the tests using a module's fixture stay on one worker
# (loadgroup), so the fixture is built once. `make test` leaves out the long runs (the `soak`
# marker: random play, statistical checks, whole games and the longer notebooks in a browser,
# the suite's audit) and runs the property tests marked `fuzz` at a fifth of their examples;
# `make soak` runs both in full, after `make test` in CI (.ci/run).
PYTEST_WORKERS ?= auto
PYTEST_PARALLEL = -n $(PYTEST_WORKERS) --dist loadgroup
# PYTHONDONTWRITEBYTECODE= (empty: unset) for the run alone, on a machine that sets it: the
# modules a test imports (the environment's packages, the project's own, the tests' rewritten
# asserts) are compiled once, into __pycache__/ (git ignores it), not again in every kernel,
# server and worker the tests start (ipykernel, pandas and matplotlib import in 0.9 s, not 3.5).
pytest: browser env
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest $(PYTEST_PARALLEL) -m "not soak and not site"

soak: browser env
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest $(PYTEST_PARALLEL) -m "(soak or fuzz) and not site" --soak

# bench/against.py (about 7 min): engine throughput, `import kum_widget` time and the board's
# click-to-redraw latency, this tree and BASE in turn in one run, side by side with intervals.
# BASE defaults to where this branch left main (git merge-base main HEAD; on main, HEAD~1);
# BENCH_ARGS passes more (e.g. --rounds 5). The other scripts in bench/ run on their own.
BASE ?=
BENCH_ARGS ?=
bench: browser env
	$(BIN)/python bench/against.py $(if $(BASE),--base $(BASE)) $(BENCH_ARGS)

# bench/peer.py beside OpenSpiel's C++ crazy_eights (about 45 s; PEER_ARGS=--quick for a few seconds).
# OpenSpiel is the `bench` dependency group: synced in for the run, synced out after it, so the
# environment is again exactly what `make test` syncs (which never installs it).
PEER_ARGS ?=
bench-peer: | $(UV)
	$(UV) sync --locked --all-extras --group hosts --group bench --python $(PYTHON)
	$(BIN)/python bench/peer.py $(PEER_ARGS); status=$$?; \
	$(UV) sync --locked --all-extras --group hosts --python $(PYTHON); exit $$status

# bench/speedup.py (about 2 min): the code the speed issue measured (a git revision) and today's,
# alternately on this machine, each goal read through the speed-up (no OpenSpiel needed).
bench-speedup: env
	$(BIN)/python bench/speedup.py

# bench/suite.py: `make test` on a fresh clone of BASE (default HEAD~1), then of HEAD, one after the
# other, wall times side by side (as long as both suites take: commit first, a clone has no edits).
bench-suite: env
	$(BIN)/python bench/suite.py --base $(or $(BASE),HEAD~1)

# bench/referee.py (about a minute): the referee's round trip, from an act to every client's new frame, at
# 7 tables of 4 seats played by 28 scripted websocket clients in a process of their own (a real
# `kum-widget serve` on 127.0.0.1), then with bot seats; REFEREE_ARGS passes more (e.g. --rounds 5).
REFEREE_ARGS ?=
bench-referee: env
	$(BIN)/python bench/referee.py $(REFEREE_ARGS)

clean:
	rm -rf .tools $(VENV) node_modules kum_widget/static .pytest_cache .mypy_cache .ruff_cache site build/lite
