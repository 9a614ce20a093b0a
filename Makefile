# simbalance: `make run` and `make test` set everything up on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The project's main job, on the embedded defaults (local threads, local files).
MAIN_JOB ?= run captain-future --n 1e6

.PHONY: run test test-fast bench lint clean docs-figures docs-picture docs-your-game

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

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q

# The inner loop: the contract test on small n and the unit tests, not the long statistical ones.
test-fast: $(VENV)/.installed-test
	$(BIN)/python -m pytest -q -m "not slow"

bench: $(VENV)/.installed-test
	$(BIN)/python -m pip install --disable-pip-version-check -q open_spiel || echo "open_spiel not installable: the yardstick is skipped"
	$(BIN)/python -m benchmarks.run
	$(BIN)/python -m benchmarks.search --write

docs-figures: $(VENV)/.installed
	$(BIN)/python docs/figures/run.py $(GAMES)

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
