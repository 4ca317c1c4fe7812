"""The view reads the store through a read-only connection."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from tests.view.conftest import RUN_A, RUN_HOSTILE

from failproof.config import Settings
from failproof.errors import StoreError
from failproof.report import Report
from failproof.view._reader import ReadOnlyStore


def test_runs_newest_first_with_counts(settings: Settings, runs: dict[str, Report]) -> None:
    listed = ReadOnlyStore(settings.db_path).list_runs()
    assert listed[0].id == RUN_HOSTILE
    assert {r.id: r.total for r in listed}[RUN_A] == len(runs[RUN_A].results)


def test_run_and_results_read_back(settings: Settings, runs: dict[str, Report]) -> None:
    store = ReadOnlyStore(settings.db_path)
    assert store.get_run(RUN_A) == runs[RUN_A].run
    assert [r.key for r in store.results(RUN_A)] == sorted(r.key for r in runs[RUN_A].results)
    assert store.get_run("nope") is None


def test_the_connection_refuses_writes(settings: Settings) -> None:
    store = ReadOnlyStore(settings.db_path)
    with store._open() as db, pytest.raises(sqlite3.OperationalError, match="readonly"):
        db.finish_run("any", "finished")


def test_a_missing_store_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no results store"):
        ReadOnlyStore(tmp_path / "none.db")
    assert not (tmp_path / "none.db").exists()
