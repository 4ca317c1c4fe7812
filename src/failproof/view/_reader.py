"""The results store, opened read-only: ``failproof view`` can never write to it.

Each call opens its own read-only `Store` (SQLite ``mode=ro`` refuses every write at the database
level), so the threads of the HTTP server never share a connection.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from failproof.core import CaseResult, Run
from failproof.errors import StoreError
from failproof.store import RunSummary, Store

__all__ = ["ReadOnlyStore"]


class ReadOnlyStore:
    """Runs and results of a failproof store, read through read-only connections."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        with self._open():  # fail early, with the store's own message, when there is no store
            pass

    @contextmanager
    def _open(self) -> Iterator[Store]:
        with Store(self.path, readonly=True) as store:
            yield store

    def list_runs(self, limit: int = 50) -> list[RunSummary]:
        """The newest runs, with their result counts."""
        with self._open() as store:
            return store.list_runs(limit)

    def get_run(self, run_id: str) -> Run | None:
        """The run, or None when the store has no run of that id."""
        with self._open() as store:
            try:
                return store.get_run(run_id)
            except StoreError:
                return None

    def count_results(self, run_id: str) -> int:
        with self._open() as store:
            return store.count_results(run_id)

    def results(self, run_id: str) -> list[CaseResult]:
        """The run's results in (suite, case_id, sample) order."""
        with self._open() as store:
            return list(store.results(run_id))
