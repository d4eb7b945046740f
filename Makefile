# Two commands do everything on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test check lint typecheck pytest install bench clean compiled uncompiled

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/bob migrate
	$(BIN)/bob serve

lint: $(STAMP)
	$(BIN)/ruff check app tests bench

typecheck: $(STAMP)
	$(BIN)/mypy app

check: lint typecheck

pytest: $(STAMP)
	$(BIN)/pytest

test: check pytest

bench: $(STAMP)
	$(BIN)/python bench/run.py

# Opt-in, never part of install/test/CI: the Base on Board engine compiled with mypyc in place
# (needs a C compiler and the Python headers); `make uncompiled` goes back to pure Python.
compiled: $(STAMP)
	$(BIN)/python scripts/compile_engine.py

uncompiled:
	$(PYTHON) scripts/compile_engine.py --clean

clean: uncompiled
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
