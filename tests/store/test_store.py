"""The SQLite store: migrations, runs, results, cache, SAFE observations."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from failproof.core import CaseResult, Classification, Response, Run
from failproof.errors import StoreError
from failproof.store import Store
from failproof.store._migrations import MIGRATIONS
from failproof.store._store import PAGE_SIZE


def result(case_id: str, primary: str = "pass", sample: int = 0) -> CaseResult:
    return CaseResult(
        case_id=case_id,
        suite="s",
        category="c",
        severity="low",
        sample=sample,
        classification=Classification(primary=primary),  # type: ignore[arg-type]
        accuracy=int(primary == "pass"),
    )


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store(tmp_path / "home" / "failproof.db")


def test_new_store_applies_every_migration_in_order_in_wal_mode(store: Store) -> None:
    assert store.applied_migrations() == [name for name, _ in MIGRATIONS]
    mode = sqlite3.connect(store.path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"


def test_a_new_store_file_has_pages_large_enough_for_a_result_each(store: Store) -> None:
    with closing(sqlite3.connect(store.path)) as other:
        assert other.execute("PRAGMA page_size").fetchone() == (PAGE_SIZE,)
    assert PAGE_SIZE >= 16_384


def test_a_store_made_with_small_pages_keeps_them_and_stores_as_before(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with closing(sqlite3.connect(path)) as made:
        made.execute("PRAGMA page_size=4096")
        made.execute("CREATE TABLE kept (x)")
    old = Store(path)
    old.create_run(Run(id="r1", target={"name": "t"}))
    old.add_results("r1", [result("a"), result("b", "fail")])
    assert old._db.execute("PRAGMA page_size").fetchone() == (4096,)
    assert [(r.case_id, r.primary) for r in old.results("r1")] == [("a", "pass"), ("b", "fail")]


def test_reopening_does_not_reapply_migrations(tmp_path: Path) -> None:
    path = tmp_path / "f.db"
    Store(path).close()
    with Store(path) as again:
        assert again.applied_migrations() == [name for name, _ in MIGRATIONS]


def test_migration_names_are_unique_and_append_only() -> None:
    names = [name for name, _ in MIGRATIONS]
    assert names == sorted(names)
    assert len(set(names)) == len(names)


def test_results_are_visible_to_another_connection_at_once(store: Store) -> None:
    store.create_run(Run(id="r1", target={"name": "mock"}, suites=["s"]))
    store.add_result("r1", result("a"))
    other = sqlite3.connect(store.path)
    assert other.execute("SELECT case_id FROM results").fetchall() == [("a",)]


def test_results_stored_together_are_committed_together_with_their_cache_entries(
    store: Store,
) -> None:
    store.create_run(Run(id="r1", target={"name": "mock"}, suites=["s"]))
    answered, failed = Response.from_output("fine"), Response.failure("HTTP 500: boom")

    store.add_results("r1", [result("a"), result("b", "error")], [("ka", answered), ("kb", failed)])

    other = sqlite3.connect(store.path)
    rows = other.execute("SELECT case_id, primary_class FROM results ORDER BY case_id")
    assert rows.fetchall() == [("a", "pass"), ("b", "error")]
    assert other.execute("SELECT key FROM response_cache").fetchall() == [("ka",)]


def test_a_group_commit_that_fails_stores_none_of_its_results(store: Store) -> None:
    store.create_run(Run(id="r1", target={"name": "mock"}, suites=["s"]))
    with closing(sqlite3.connect(store.path)) as other:  # a disk that refuses the second row
        other.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON results WHEN NEW.case_id = 'boom' "
            "BEGIN SELECT RAISE(ABORT, 'disk full'); END"
        )

    with pytest.raises(sqlite3.IntegrityError, match="disk full"):
        store.add_results("r1", [result("a"), result("boom")])
    store.add_results("r1", [result("b")])

    assert store.done_keys("r1") == {("s", "b", 0)}


def test_run_round_trip_and_listing(store: Store) -> None:
    store.create_run(Run(id="r1", target={"name": "mock"}, suites=["s"], config={"k": 1}))
    store.add_result("r1", result("b", "fail"))
    store.add_result("r1", result("a"))
    store.finish_run("r1", "finished")
    run = store.get_run("r1")
    assert (run.status, run.config, run.finished_at is not None) == ("finished", {"k": 1}, True)
    assert [r.case_id for r in store.results("r1")] == ["a", "b"]
    assert store.done_keys("r1") == {("s", "a", 0), ("s", "b", 0)}
    (summary,) = store.list_runs()
    assert (summary.id, summary.target, summary.total, summary.passed) == ("r1", "mock", 2, 1)


def test_a_result_stored_twice_is_replaced_not_duplicated(store: Store) -> None:
    store.create_run(Run(id="r1", target={"name": "mock"}))
    store.add_result("r1", result("a", "fail"))
    store.add_result("r1", result("a", "pass"))
    assert store.count_results("r1") == 1
    assert [r.primary for r in store.results("r1")] == ["pass"]


def test_unknown_run_is_a_clear_error(store: Store) -> None:
    with pytest.raises(StoreError, match=r"no run 'nope'.*runs list"):
        store.get_run("nope")


def test_cache_keeps_successes_and_never_errors(store: Store) -> None:
    store.cache_put("k1", Response.from_output("hello"))
    store.cache_put("k2", Response.failure("HTTP 500"))
    cached = store.cache_get("k1")
    assert cached is not None and cached.output == "hello"
    assert store.cache_get("k2") is None


def test_safe_observations_are_recorded_with_timestamps(store: Store) -> None:
    store.add_safe_result(
        batch_id="b1",
        concern_id="I25",
        test_id="t1",
        label="Pass",
        scores={"CR": 1.0, "AH": 1.0, "AC": 1.0},
        timestamp="2026-01-01T00:00:00Z",
    )
    (row,) = store.safe_results("I25")
    assert row["label"] == "Pass" and row["timestamp"] == "2026-01-01T00:00:00Z"
    assert store.safe_results("other") == []


def test_unwritable_location_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="FAILPROOF_HOME"):
        Store(blocker / "failproof.db")


def test_a_file_that_is_not_a_store_is_named_with_moving_it_aside_as_the_fix(
    tmp_path: Path,
) -> None:
    path = tmp_path / "failproof.db"
    path.write_bytes(b"this is no SQLite file, but a long enough text of some other kind" * 20)
    with pytest.raises(StoreError) as caught:
        Store(path)
    assert "not a database" in str(caught.value)
    assert "move it aside" in (caught.value.hint or "")
    assert "writable" not in (caught.value.hint or "")


def test_readonly_store_reads_but_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "f.db"
    with Store(path) as writable:
        writable.create_run(Run(id="r1", target={"name": "mock"}))
        writable.add_result("r1", result("a"))
    with Store(path, readonly=True) as readonly:
        assert [r.case_id for r in readonly.results("r1")] == ["a"]
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            readonly.add_result("r1", result("b"))


def test_readonly_store_needs_an_existing_file(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no results store at"):
        Store(tmp_path / "missing.db", readonly=True)
    assert not (tmp_path / "missing.db").exists()


def test_safe_observations_can_be_recorded_in_bulk(store: Store) -> None:
    rows = [
        {
            "batch_id": "b",
            "concern_id": "I25",
            "test_id": f"t{i}",
            "label": "Review",
            "scores": {"CR": 0.5},
            "timestamp": "2026-01-01T00:00:00Z",
        }
        for i in range(3)
    ]
    assert store.add_safe_results(rows) == 3
    assert [r["test_id"] for r in store.safe_results("I25")] == ["t0", "t1", "t2"]


def test_a_failed_mcp_scan_stored_before_the_unscanned_column_is_read_as_failed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.db"
    failed = {"servers": [{"server": "stdio:x", "error": "exited"}, {"server": "y", "error": None}]}
    with closing(sqlite3.connect(path)) as made, made:
        made.execute("CREATE TABLE migrations (name TEXT PRIMARY KEY, applied_at TEXT)")
        before = [m for m in MIGRATIONS if m[0] < "0008_mcp_scan_unscanned"]
        for name, sql in before:
            made.executescript(sql)
            made.execute("INSERT INTO migrations VALUES (?, '')", (name,))
        rows = [("mcp-a", "2026", "stdio:x, y", 0, json.dumps(failed))]
        rows += [("mcp-b", "2025", "y", 4, json.dumps({"servers": [{"server": "y"}]}))]
        made.executemany("INSERT INTO mcp_scans VALUES (?, ?, ?, ?, ?)", rows)
    with Store(path) as store:
        assert [(r.id, r.unscanned, r.failed) for r in store.mcp_scans()] == [
            ("mcp-a", 1, True),
            ("mcp-b", 0, False),
        ]
