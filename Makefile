# simbalance: `make run` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Python keeps its bytecode beside the sources (__pycache__, where numba's caches already are) even
# where the environment says not to (PYTHONDONTWRITEBYTECODE, set in many container images): the
# suite starts hundreds of Python processes, each of which compiled simbalance's modules again
# (issue 56: about 0.15-0.3 CPU s a process; docs/architecture.md, "Tests").
unexport PYTHONDONTWRITEBYTECODE
# The project's main job, on the embedded defaults (local threads, local files).
MAIN_JOB ?= run captain-future --n 1e6

.PHONY: run test test-all test-exhaustive bench lint clean docs-figures docs-metagame docs-picture docs-your-game

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -q -e '.[test]'
	touch $(VENV)/.installed $@

run: $(VENV)/.installed
	$(BIN)/simbalance $(MAIN_JOB)

# The suite in two tiers (docs/architecture.md, "Tests"), on one pytest-xdist worker per core. Each
# game's kernels compile once: first, a game per core (--compile-first, tests/compile_first.py),
# and a game's tests share one worker (tests/conftest.py).
TEST_WORKERS ?= auto
PYTEST := $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadgroup

# Every behaviour at small n: the contract test over every game, the rules, unit and bad-input
# tests, one browser page, the cheap docs examples.
test: $(VENV)/.installed-test
	$(PYTEST) --compile-first -m "not exhaustive"

# Both tiers in one pytest session: every test of `make test` and the exhaustive tier
# (boundscheck recompiles, the wheel and new-game in fresh venvs, long statistical tests, the
# notebook, every browser page, fault sweeps). CI runs it. One session, not `test` then
# `test-exhaustive`: the kernels compile once up front, and neither tier's last long test leaves a
# core idle while the other tier waits to start (issue 56: `.ci/run` <= 25 min).
test-all: $(VENV)/.installed-test
	$(PYTEST) --compile-first

test-exhaustive: $(VENV)/.installed-test
	$(PYTEST) -m exhaustive

# The commit `make bench` sets this tree beside (A/B): the last commit before the speed round (issue 56).
BENCH_BEFORE ?= bd48b7a

bench: $(VENV)/.installed-test
	$(BIN)/python -m pip install --disable-pip-version-check -q open_spiel || echo "open_spiel not installable: the yardstick is skipped"
	$(BIN)/python -m benchmarks.run
	$(BIN)/python -m benchmarks.ab $(BENCH_BEFORE) --rounds 3 --threads 1 2 --headline --write
	$(BIN)/python -m benchmarks.search --write
	$(BIN)/python -m benchmarks.card_value --write

docs-figures: $(VENV)/.installed
	$(BIN)/python docs/figures/run.py $(GAMES)

# each rules page's metagame passage (issue 55; minutes per game: not part of docs-figures)
docs-metagame: $(VENV)/.installed
	$(BIN)/python docs/figures/metagame/passages.py $(GAMES)

# docs/your-game.md: the walk-through played again (new-game, install, runs) in a temporary venv
docs-your-game: $(VENV)/.installed-test
	$(BIN)/python docs/figures/your_game.py

# README's pictures: the main job's report.html and a comparison, through headless Chromium
docs-picture: $(VENV)/.installed
	$(BIN)/python docs/figures/report_picture.py

lint: $(VENV)/.installed-test
	$(BIN)/ruff check simbalance tests benchmarks docs/figures

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
	find . -name __pycache__ -prune -exec rm -rf {} +
