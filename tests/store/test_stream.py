"""StoredResults: a run's results read in chunks, in report order, again on every pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.report.synthetic import make_results

from failproof.core import Run
from failproof.errors import StoreError
from failproof.store import Store, StoredResults


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "results.db"
    with Store(path) as store:
        store.create_run(Run(id="r1", target={"name": "mock"}))
        store.create_run(Run(id="r2", target={"name": "mock"}))
        for result in reversed(make_results(25, samples=2)):
            store.add_result("r1", result)
        store.add_result("r2", make_results(1)[0])
    return path


@pytest.mark.parametrize("chunk", [1, 7, 50, 1000])
def test_chunks_give_every_result_of_the_run_once_in_key_order(db: Path, chunk: int) -> None:
    source = StoredResults(db, "r1", chunk=chunk)
    keys = [r.key for r in source]
    assert keys == sorted(keys)
    assert len(keys) == len(set(keys)) == len(source) == 50
    assert [r.key for r in source] == keys  # a second pass reads them again
    with Store(db) as store:
        assert [r.key for r in store.results("r1")] == keys


def test_chunks_are_at_most_the_chunk_size(db: Path) -> None:
    sizes = [len(block) for block in StoredResults(db, "r1", chunk=7).chunks()]
    assert max(sizes) == 7
    assert sum(sizes) == 50


def test_a_case_is_found_by_key_and_by_position(db: Path) -> None:
    source = StoredResults(db, "r1", chunk=7)
    ordered = list(source)
    for index in (0, 13, 49):
        assert source.rank(ordered[index].key) == index
        assert source.at(index).key == ordered[index].key
    assert source.rank(("nope", "x", 0)) is None
    first = ordered[10]
    assert source.first_key(first.suite, first.case_id) == (first.suite, first.case_id, 0)
    assert source.first_key(None, first.case_id) == (first.suite, first.case_id, 0)
    assert source.first_key(None, "missing") is None
    with pytest.raises(IndexError):
        source.at(50)


def test_a_missing_store_is_a_store_error(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no results store"):
        len(StoredResults(tmp_path / "none.db", "r1"))


def test_stored_results_equal_the_list_of_the_same_results(db: Path) -> None:
    source = StoredResults(db, "r1", chunk=7)
    with Store(db) as store:
        listed = list(store.results("r1"))
    assert source == listed
    assert listed == source
    assert source != listed[:-1]
    assert source == StoredResults(db, "r1")
    assert source != StoredResults(db, "r2")
