"""report.json keeps its shape: the same responses give the keys, nesting and value kinds of a
report written before runs recorded their scoring (``data/report_before.json``).

Only ``run.config`` may differ (it is open, and now holds the scoring record). When the contract
changes on purpose, write the fixture again with ``failproof score data/pinned_responses.jsonl
--suite data/pinned.yaml -f json -o data/report_before.json`` and say so in the changelog.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from failproof import Report
from failproof.report import renderers

DATA = Path(__file__).parent / "data"


def shape(value: Any) -> Any:
    """Keys and nesting, with each leaf replaced by its JSON kind (numbers are one kind)."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(item) for item in value]
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return "null" if value is None else type(value).__name__


@pytest.fixture
def report_now(pinned_report: Report) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(renderers.get("json")().render(pinned_report))
    return data


def test_report_json_has_the_shape_it_had_before_run_records(report_now: dict[str, Any]) -> None:
    before = json.loads((DATA / "report_before.json").read_text())
    for data in (before, report_now):
        data["run"].pop("config")
    assert shape(report_now) == shape(before)


def test_key_order_of_report_json_is_unchanged(report_now: dict[str, Any]) -> None:
    before = json.loads((DATA / "report_before.json").read_text())
    assert list(report_now) == list(before)
    assert list(report_now["results"][0]) == list(before["results"][0])
    assert list(report_now["results"][0]["case_score"]) == list(before["results"][0]["case_score"])
    assert list(report_now["safe_v0"]) == list(before["safe_v0"])
