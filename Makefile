# The two commands of the quick start: `make demo` and `make test`.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo demo-aor test test-long lint bench soak soak-mail clean torture fuzz
GAMES ?= 10000
FIRST ?= 0
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
SHARDS ?= $(sort $(wildcard soak-shard-*.json))
FUZZ_N ?= 100000
DAYS ?= 30

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/python games/demo.py

demo-aor: $(STAMP)
	$(BIN)/python games/demo_aor.py

# -n auto: one pytest worker per core (pytest-xdist); the suite is CPU-bound. worksteal: an
# idle worker takes tests queued on the other, so one long test does not make the tail.
test: $(STAMP)
	$(BIN)/python -m pytest -n auto --dist worksteal
	$(BIN)/ruff check engine pbem tests bench games
	$(BIN)/mypy

# The soak-like tests at full length (tests/scale.py: more seeded games, the same checks);
# `make test` plays a few games of each.
test-long: $(STAMP)
	PBEM_TEST_LONG=1 $(BIN)/python -m pytest -n auto --dist worksteal

lint: $(STAMP)
	$(BIN)/ruff check engine pbem tests bench games
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/run.py
	$(BIN)/python bench/_commands.py

# Long self-play (issue 14), not part of `make test`: GAMES games over every map, option and
# player count of both games, checks on; failures go to soak-failures/.
# Sharded: `make soak FIRST=0 GAMES=500`, `make soak FIRST=500 GAMES=500` (any process or
# session) each write soak-shard-FIRST.json; `make soak-merge` sums them, refusing a gap or overlap.
# JOBS processes play at once (one per core unless told): the same games, the same summary.
soak: $(STAMP)
	$(BIN)/python -m pbem.play.soak --first $(FIRST) --games $(GAMES) --jobs $(JOBS) \
		--out soak-failures --summary soak-shard-$(FIRST).json

.PHONY: soak-merge
soak-merge: $(STAMP)
	$(BIN)/python -m pbem.play.soak --merge $(SHARDS)

# Issue 20: real processes racing and killed with -9 (minutes, not in CI), then the figures.
torture: $(STAMP)
	nice -n 19 $(BIN)/python tools/torture.py

# Issue 20: FUZZ_N inputs across the fuzz families; fails on exit 70 or an input over 1 s CPU.
fuzz: $(STAMP)
	FUZZ_N=$(FUZZ_N) nice -n 19 $(BIN)/python tools/fuzz.py

# A host's month under cron (issue 23): DAYS simulated days of three games by mail, hourly
# inbox, remind, timeout and digest; prints the mail figures. One day of it runs in `make test`.
soak-mail: $(STAMP)
	$(BIN)/python -m tests.soak.month --days $(DAYS) --folder soak-mail-$(DAYS)d

clean:
	rm -rf $(VENV) build dist *.egg-info
