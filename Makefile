# The two commands of the quick start: `make demo` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo demo-aor test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python games/demo.py

demo-aor: $(STAMP)
	$(BIN)/python games/demo_aor.py

test: $(STAMP)
	$(BIN)/python -m pytest
	$(BIN)/ruff check engine pbem tests bench games
	$(BIN)/mypy

lint: $(STAMP)
	$(BIN)/ruff check engine pbem tests bench games
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build dist *.egg-info
