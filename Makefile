# The two commands of the quick start: `make demo` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo demo-aor test lint bench soak clean
GAMES ?= 10000

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python games/demo.py

demo-aor: $(STAMP)
	$(BIN)/python games/demo_aor.py

# -n auto: one pytest worker per core (pytest-xdist); the suite is CPU-bound.
test: $(STAMP)
	$(BIN)/python -m pytest -n auto
	$(BIN)/ruff check engine pbem tests bench games
	$(BIN)/mypy

lint: $(STAMP)
	$(BIN)/ruff check engine pbem tests bench games
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/run.py

# Long self-play (issue 14), not part of `make test`: GAMES games over every map, option and
# player count of both games, checks on; failures go to soak-failures/.
soak: $(STAMP)
	$(BIN)/python -m pbem.play.soak --games $(GAMES) --out soak-failures

clean:
	rm -rf $(VENV) build dist *.egg-info
