"""Batch files: discovery by glob, and a clear error naming file and record for bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.safe.factories import EXAMPLES, passing, write_batch

from failproof.errors import InputError
from failproof.safe._loader import find_batch_files, load_batches


def test_examples_load_all_batches_in_natural_order() -> None:
    loaded = load_batches(EXAMPLES, "I25", "*")
    assert [b.batch_id for b in loaded.batches] == ["I25_batch_1", "I25_batch_2", "I25_batch_3"]
    assert len(loaded.records) == 18
    assert loaded.skipped == ()


def test_glob_matches_batch_ids_and_file_names(tmp_path: Path) -> None:
    for name in ("C1_batch_1.json", "C1_batch_2.jsonl", "C1_batch_10.json", "golden_set.json"):
        write_batch(tmp_path / "C1", name, [passing(name)])
    (tmp_path / "C1" / "notes.txt").write_text("ignored")
    names = [p.name for p in find_batch_files(tmp_path, "C1", "C1_batch_*")]
    assert names == ["C1_batch_1.json", "C1_batch_2.jsonl", "C1_batch_10.json"]
    assert [p.name for p in find_batch_files(tmp_path, "C1", "golden_set")] == ["golden_set.json"]
    assert [p.name for p in find_batch_files(tmp_path, "C1", "*.jsonl")] == ["C1_batch_2.jsonl"]


def _error(tmp_path: Path, name: str, content: Any, *, raw: str | None = None) -> str:
    folder = tmp_path / "C1"
    if raw is not None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(raw, encoding="utf-8")
    else:
        write_batch(folder, name, content)
    with pytest.raises(InputError) as info:
        load_batches(tmp_path, "C1", "*")
    return str(info.value)


def _without(data: dict[str, Any], *path: str) -> dict[str, Any]:
    node = data
    for key in path[:-1]:
        node = node[key]
    del node[path[-1]]
    return data


def _set(data: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    data["expectations"]["signal_generation"][key] = value
    return data


@pytest.mark.parametrize(
    ("name", "records", "raw", "expected"),
    [
        pytest.param(
            "b.json", None, "[{", "b.json: not valid JSON: Expecting property name", id="not-json"
        ),
        pytest.param(
            "b.json",
            None,
            '{"test_id": "x"}',
            "b.json: a .json batch must be a JSON array",
            id="not-an-array",
        ),
        pytest.param(
            "b.json",
            [passing("a"), _without(passing("b"), "test_id")],
            None,
            "b.json: record[1]: test_id: Field required",
            id="record-without-test-id",
        ),
        pytest.param(
            "b.json",
            [{**passing("a"), "expectations": ["x"]}],
            None,
            "record[0] (test_id 'a'): expectations: Input should be a valid dictionary",
            id="expectations-not-an-object",
        ),
        pytest.param(
            "b.json",
            [_set(passing("a"), "must_find_signals", "chest pain")],
            None,
            "expectations.signal_generation.must_find_signals: Input should be a valid list",
            id="expectation-list-is-a-string",
        ),
        pytest.param(
            "b.json",
            [_without(passing("a"), "output", "summary")],
            None,
            "record[0] (test_id 'a'): output.summary: Field required",
            id="output-missing-summary",
        ),
        pytest.param(
            "b.json",
            [_without(passing("a"), "output")],
            None,
            "output: Field required",
            id="record-without-output",
        ),
        pytest.param(
            "b.json",
            [{**passing("a"), "output": {**passing("a")["output"], "signals": [1]}}],
            None,
            "output.signals[0]: Input should be a valid string",
            id="signal-not-a-string",
        ),
        pytest.param(
            "b.json",
            ["just text"],
            None,
            "record[0]: a record must be a JSON object, not a string",
            id="record-not-an-object",
        ),
        pytest.param(
            "b.jsonl",
            None,
            '{"test_id": "a"\n',
            "b.jsonl: record[0] (line 1): not valid JSON",
            id="jsonl-bad-line",
        ),
        pytest.param(
            "b.json",
            [passing("a"), passing("a")],
            None,
            "record[1] (test_id 'a'): duplicate test_id (first seen in",
            id="duplicate-test-id",
        ),
    ],
)
def test_bad_input_names_file_and_record(
    tmp_path: Path, name: str, records: Any, raw: str | None, expected: str
) -> None:
    assert expected in _error(tmp_path, name, records, raw=raw)


def test_jsonl_counts_lines_past_blank_ones(tmp_path: Path) -> None:
    import json

    raw = json.dumps(passing("a")) + "\n\n" + '{"test_id": 3}\n'
    message = _error(tmp_path, "b.jsonl", None, raw=raw)
    assert "record[1] (line 3): test_id: Input should be a valid string" in message


def test_glob_matching_nothing_lists_the_batches(tmp_path: Path) -> None:
    write_batch(tmp_path / "C1", "C1_batch_1.json", [passing("a")])
    with pytest.raises(InputError, match=r"no batch file in .*C1 matches 'nope_\*'") as info:
        load_batches(tmp_path, "C1", "nope_*")
    assert "C1_batch_1" in str(info.value)


def test_missing_concern_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"no folder .* for concern 'C9'"):
        load_batches(tmp_path, "C9", "*")


def test_keep_going_skips_and_lists_every_bad_record_and_file(tmp_path: Path) -> None:
    folder = tmp_path / "C1"
    write_batch(folder, "a.json", [passing("ok1"), _without(passing("bad"), "output"), "x"])
    (folder / "b.json").write_text("not json")
    write_batch(folder, "c.jsonl", [passing("ok2")])
    loaded = load_batches(tmp_path, "C1", "*", keep_going=True)
    assert [r.test_id for _, r in loaded.records] == ["ok1", "ok2"]
    described = [s.describe() for s in loaded.skipped]
    assert len(described) == 3
    assert described[0].endswith("a.json: record[1] (test_id 'bad'): output: Field required")
    assert "a.json: record[2]: a record must be a JSON object" in described[1]
    assert described[2].endswith("b.json: not valid JSON: Expecting value (line 1, column 1)")


def test_nothing_valid_to_score_is_an_error_even_with_keep_going(tmp_path: Path) -> None:
    write_batch(tmp_path / "C1", "a.json", [{"test_id": ""}])
    with pytest.raises(InputError, match="no valid record to score"):
        load_batches(tmp_path, "C1", "*", keep_going=True)
    write_batch(tmp_path / "C2", "a.json", [])
    with pytest.raises(InputError, match="the files are empty"):
        load_batches(tmp_path, "C2", "*")


def test_undecodable_jsonl_is_a_bad_file_with_keep_going_listing_it(tmp_path: Path) -> None:
    import json

    folder = tmp_path / "C1"
    folder.mkdir()
    (folder / "a.jsonl").write_bytes(json.dumps(passing("a")).encode() + b"\n\xff\xfe\n")
    write_batch(folder, "b.json", [passing("b")])
    loaded = load_batches(tmp_path, "C1", "*", keep_going=True)
    assert [r.test_id for _, r in loaded.records] == ["b"]
    assert "a.jsonl: cannot read the batch file" in loaded.skipped[0].describe()
    assert "codec can't decode" in loaded.skipped[0].describe()
