# Two commands matter: `make demo` (the offline main job) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: demo test fuzz bench eval-extract lint clean

# pip's and setuptools' chatter goes to a log; it is shown only when the install fails.
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "installing release-tracker and its test extras into $(VENV) (log: $(VENV)/install.log)"
	@($(BIN)/python -m pip install --upgrade pip && $(BIN)/python -m pip install -e '.[test]') \
		> $(VENV)/install.log 2>&1 || (tail -30 $(VENV)/install.log; exit 1)
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/tracker demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

# The fuzz suite (tests/fuzz) with many random examples; `make test` runs it bounded
# and derandomized. FUZZ_EXAMPLES=N sets how many per test.
fuzz: $(STAMP)
	FUZZ_EXAMPLES=$${FUZZ_EXAMPLES:-1500} $(BIN)/python -m pytest -q tests/fuzz

bench: $(STAMP)
	$(BIN)/python bench/run.py $(BENCH_ARGS)

# Extraction scored on the labelled corpus (default ../shared/articles; CORPUS=dir to change).
eval-extract: $(STAMP)
	$(BIN)/python bench/extract_eval.py $(CORPUS)

# ruff (style), mypy (types of claims/ and tracker/), import-linter (the layers in pyproject.toml).
lint: $(STAMP)
	$(BIN)/python -m ruff check claims tracker tests
	$(BIN)/python -m ruff format --check claims tracker tests
	$(BIN)/python -m mypy
	$(BIN)/lint-imports

clean:
	rm -rf site site-demo-db data/tracker.db data/tracker.db-* data/snapshots
