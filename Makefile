# Developer shortcuts. `make check` is what a pull request must pass; `make test` runs the tests.
PY ?= python

.PHONY: check lint format typecheck test test-fast bench

check: lint typecheck

lint:
	$(PY) -m ruff check src tests bench scripts
	$(PY) -m ruff format --check src tests bench scripts

format:
	$(PY) -m ruff format src tests bench scripts
	$(PY) -m ruff check --fix src tests bench scripts

typecheck:
	$(PY) -m mypy

test:
	$(PY) -m pytest

# skips the real local model and the browser
test-fast:
	$(PY) -m pytest -m "not local_model and not browser"
