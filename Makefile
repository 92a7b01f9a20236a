# The two commands of the README: `make run` and `make test`. Both create the virtualenv on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-packages lint bench i18n requirements clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/weiqi serve --host 127.0.0.1 --port 8000

# GNU Go, Chromium and CJK fonts: installed when missing if root, else one line says what to install.
test-packages:
	@.ci/test-packages

# --dist worksteal: a worker that runs out of tests takes half of the other's queue. The default
# (load) hands out large chunks up front and never moves them: with this suite's durations one
# worker finished 1.5-2 min before the other (a simulation of xdist's scheduler on measured
# durations: 1351 s against 1260 s for the slower worker).
test: test-packages $(STAMP)
	$(BIN)/pytest -n 2 --dist worksteal -q

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/board.py
	$(BIN)/python bench/pairing.py
	$(BIN)/python bench/round_sheet.py
	$(BIN)/python bench/cli_events.py
	$(BIN)/python bench/sgf.py
	$(BIN)/python bench/archive.py
	$(BIN)/python bench/referee.py
	$(BIN)/python bench/dead_stones.py
	$(BIN)/python bench/clock.py
	$(BIN)/python bench/startup.py
	$(BIN)/python bench/pages.py
	$(BIN)/python bench/rating_lists.py
	$(BIN)/python bench/live_round.py

# Messages: extract from code and templates, merge into each locale's .po, then translate the
# empty msgstr entries (the .po files are compiled in memory when the server starts).
I18N := src/weiqi/i18n
i18n: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k translate:2 -k Msg --no-location --sort-output \
		--project weiqi --copyright-holder weiqi -o $(I18N)/messages.pot .
	$(BIN)/pybabel update -i $(I18N)/messages.pot -d $(I18N)/locales --no-wrap --ignore-obsolete --no-fuzzy-matching
	for l in zh_CN en; do $(BIN)/pybabel compile --statistics -l $$l \
		-i $(I18N)/locales/$$l/LC_MESSAGES/messages.po -o /dev/null; done

# The requirement IDs the traceability test checks, kept in docs/ for clones without ../shared.
RULES ?= ../shared/spec/RULES.md
requirements: $(STAMP)
	$(BIN)/python -m tests.requirements $(RULES)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
