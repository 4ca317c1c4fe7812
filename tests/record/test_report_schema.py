"""``failproof report schema``: the JSON Schema of report.json, which real reports satisfy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from failproof import Report
from failproof.cli import main
from failproof.report import renderers

DATA = Path(__file__).parent / "data"


@pytest.fixture
def schema(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    assert main(["report", "schema"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_the_schema_is_draft_2020_12_and_names_the_seed_sections(schema: dict[str, Any]) -> None:
    assert schema["$schema"].endswith("2020-12/schema")
    jsonschema.Draft202012Validator.check_schema(schema)
    for key in ("summary", "suites", "aggregate_metrics", "observability", "safe_v0", "results"):
        assert key in schema["properties"]
    interval = schema["$defs"]["Interval"]["properties"]
    assert set(interval) >= {"estimate", "low", "high", "n", "method", "confidence"}


def test_a_report_written_before_typed_sections_satisfies_the_schema(
    schema: dict[str, Any],
) -> None:
    before = json.loads((DATA / "report_before.json").read_text())
    jsonschema.validate(before, schema, cls=jsonschema.Draft202012Validator)


def test_a_report_written_now_satisfies_the_schema(
    schema: dict[str, Any], pinned_report: Report
) -> None:
    now = json.loads(renderers.get("json")().render(pinned_report))
    jsonschema.validate(now, schema, cls=jsonschema.Draft202012Validator)


def test_the_schema_rejects_a_summary_of_the_wrong_kind(schema: dict[str, Any]) -> None:
    before = json.loads((DATA / "report_before.json").read_text())
    before["summary"]["total_cases"] = "eight"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(before, schema, cls=jsonschema.Draft202012Validator)
