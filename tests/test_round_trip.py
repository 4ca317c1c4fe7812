"""Suite file -> cases -> recorded responses -> stored run -> JSON report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from failproof import Report, Store, load_settings, score_responses, write_reports
from failproof.config import ScoringConfig

SUITE = """\
suite: support
weight: 2.0
cases:
  - id: a
    input: Say hello.
    expect: {must_contain: [hello]}
  - id: b
    input: Reply in JSON.
    expect: {format: json}
  - id: missing
    input: Nobody recorded me.
"""
RESPONSES = (
    '{"case_id": "a", "suite": "support", "output": "Hello there!", "latency_ms": 10}\n'
    '{"case_id": "b", "output": "{\\"ok\\": true}", "latency_ms": 20}\n'
    '{"case_id": "stranger", "output": "no such case"}\n'
)
TOP_LEVEL_KEYS = {
    "report_type",
    "schema_version",
    "generated_at",
    "run",
    "summary",
    "suites",
    "aggregate_metrics",
    "observability",
    "safe_v0",
    "extensions",
    "results",
}


@pytest.fixture
def outcome(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    (tmp_path / "support.yaml").write_text(SUITE)
    (tmp_path / "responses.jsonl").write_text(RESPONSES)
    settings = load_settings(cwd=tmp_path)
    return score_responses(
        tmp_path / "responses.jsonl", [tmp_path / "support.yaml"], settings=settings
    ), settings


def test_every_case_gets_a_result_and_missing_ones_are_errors(outcome) -> None:  # type: ignore[no-untyped-def]
    result, _ = outcome
    by_id = {r.case_id: r for r in result.report.results}
    assert sorted(by_id) == ["a", "b", "missing"]
    assert by_id["missing"].error == "no recorded response for case 'missing'"
    assert by_id["missing"].primary == "error"
    assert by_id["a"].output == "Hello there!" and by_id["a"].latency_ms == 10
    assert result.unmatched == [(None, "stranger")]


def test_the_run_is_stored_and_the_report_rebuilds_from_the_store(outcome) -> None:  # type: ignore[no-untyped-def]
    result, settings = outcome
    with Store(settings.db_path) as store:
        run = store.get_run(result.run.id)
        stored = list(store.results(run.id))
    assert run.status == "finished"
    record = ScoringConfig.of_run(run.config)
    assert record is not None and record.suite_weights == {"support": 2.0}
    assert [r.case_id for r in stored] == ["a", "b", "missing"]
    assert stored == result.report.results


def test_json_report_has_the_contract_keys_and_round_trips(outcome, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    result, _ = outcome
    (path,) = write_reports(result.report, ["json"], tmp_path / "report.json")
    data = json.loads(path.read_text())
    assert set(data) == TOP_LEVEL_KEYS
    assert data["report_type"] == "failproof_run"
    assert data["summary"]["total_cases"] == 3
    assert data["suites"]["support"]["n"] == 3
    assert data["suites"]["support"]["weight"] == 2.0
    assert Report.model_validate_json(path.read_text()) == result.report
