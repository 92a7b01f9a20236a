# The two commands of the README: `make run` and `make test`. Both create the virtualenv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/weiqi serve --host 127.0.0.1 --port 8000

test: $(STAMP)
	$(BIN)/pytest -n 2 -q

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/board.py
	$(BIN)/python bench/pairing.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
