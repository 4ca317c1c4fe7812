"""Section 5: the JSON report, the console scorecard, the Markdown report, and where they go."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from rich.console import Console
from tests.safe.factories import EXAMPLES, passing, record_data, write_batch

from failproof.errors import ConfigError
from failproof.safe import SafeConfig, SafeReport
from failproof.safe._api import score_concern
from failproof.safe._console import console_text
from failproof.safe._markdown import render_markdown
from failproof.safe._outputs import parse_safe_formats, write_outputs

WHEN = datetime(2025, 1, 15, 10, 30, tzinfo=UTC)


@pytest.fixture(scope="module")
def report() -> SafeReport:
    return score_concern("I25", "*", SafeConfig(), data_dir=EXAMPLES, generated_at=WHEN)


def test_json_report_has_the_keys_of_5_1_and_4_2(report: SafeReport) -> None:
    data = report.to_json()
    assert data["report_type"] == "SAFE_v0"
    assert data["generated_at"] == "2025-01-15T10:30:00Z"
    assert data["concern_id"] == "I25"
    assert data["batch_id"] == "I25_batch_1,I25_batch_2,I25_batch_3"
    assert {
        "summary",
        "mean_scores",
        "by_archetype",
        "results",
        "failure_analysis",
        "total_cases",
        "pass_rates",
        "label_distribution",
        "confidence_intervals",
    } <= set(data)
    assert data["summary"] == {
        "total_cases": 18,
        "pass": 9,
        "review": 5,
        "fail": 4,
        "overall_pass_rate": 0.5,
        "skipped": 0,
    }
    assert set(data["failure_analysis"]) == {
        "worst_performers",
        "common_CR_misses",
        "common_AH_violations",
        "common_AC_misses",
    }
    assert json.loads(json.dumps(data)) == data


def test_example_data_exercises_every_label_and_edge_case(report: SafeReport) -> None:
    labels = {r.test_id: r.label for r in report.results}
    assert set(labels.values()) == {"Pass", "Review", "Fail"}
    notes = {note for r in report.results for note in r.notes}
    assert {
        "CR: no must_find_signals, vacuously 1.0",
        "CR: empty output, 0.0",
        "AH: no forbidden_terms, 1.0",
        "AH: no follow-up questions, 1.0",
        "AC: no must_contain_phrases, vacuously 1.0",
        "AC: empty summary, 0.0",
    } <= notes
    assert next(r for r in report.results if r.test_id == "I25-B1-003").scores.AH == 0.5
    assert len(report.aggregate.by_archetype) >= 4


def test_console_scorecard_has_the_sections_of_5_2(report: SafeReport) -> None:
    text = console_text(report)
    for piece in (
        "SAFE v0 Scorecard - I25",
        "Total Cases: 18",
        "Pass: 9 (50%)",
        "Review: 5 (28%)",
        "Fail: 4 (22%)",
        "Metric",
        "Mean Score",
        "Pass Rate",
        "Status",
        "Composite:",
        "Per-Case Breakdown:",
        "I25-B1-003",
        "REVIEW",
        "Top Issues:",
        "CR Misses:",
        "AH Violations:",
        "AC Misses:",
        "╔",
        "║",
    ):
        assert piece in text
    assert "WARN (6 violations across batch)" in text
    assert "CR found:" not in text


def test_verbose_console_shows_found_and_missing(report: SafeReport) -> None:
    text = console_text(report, verbose=True, width=200)
    assert 'CR found: "weekend admission", "no on-call interventionalist"' in text
    assert 'missing: "taken to cath lab over 24 hours"' in text
    assert 'AH violations: "blame", "policy"' in text
    assert "note: AC: empty summary, 0.0" in text


def test_markdown_report_sections(report: SafeReport) -> None:
    text = render_markdown(report)
    for heading in (
        "# SAFE v0 Report - I25",
        "## Summary",
        "## Metrics",
        "## By archetype",
        "## Per-case results",
        "## Failure analysis",
        "## Case details",
        "## Configuration",
    ):
        assert heading in text
    assert "| CR | 0." in text
    assert "Process\\_Auditor" in text


def test_markdown_escapes_model_output(tmp_path: Path) -> None:
    evil = record_data(
        test_id="x|<script>alert(1)</script>", must_find=["a|b"], signals=["nothing"]
    )
    write_batch(tmp_path / "C", "b.json", [evil])
    text = render_markdown(score_concern("C", "*", SafeConfig(), data_dir=tmp_path))
    assert "<script>" not in text
    assert "x\\|\\<script\\>" in text  # the run report's Markdown escaping
    assert '"a\\|b"' in text


def test_console_does_not_interpret_markup_in_data(tmp_path: Path) -> None:
    write_batch(tmp_path / "C", "b.json", [passing("[bold]id[/bold]", archetype="[red]A")])
    text = console_text(score_concern("C", "*", SafeConfig(), data_dir=tmp_path))
    assert "[bold]id[/bold]" in text
    assert "[red]A" in text


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("json", ("json",), id="one"),
        pytest.param("console,md", ("console", "markdown"), id="comma-list-and-md-alias"),
        pytest.param("all", ("json", "console", "markdown"), id="all"),
    ],
)
def test_parse_formats(value: str, expected: tuple[str, ...]) -> None:
    assert parse_safe_formats(value) == expected


def test_unknown_format_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown SAFE report format 'html'"):
        parse_safe_formats("html")


def _write(report: SafeReport, formats: tuple, output: Path | None, tmp_path: Path) -> list[Path]:
    console = Console(file=open(tmp_path / "console.txt", "w"), width=120)  # noqa: SIM115
    try:
        return write_outputs(
            report, formats, output=output, report_dir=tmp_path / "reports", console=console
        )
    finally:
        console.file.close()


def test_default_files_go_to_the_report_dir_with_the_spec_name(
    report: SafeReport, tmp_path: Path
) -> None:
    written = _write(report, ("json", "console", "markdown"), None, tmp_path)
    assert [p.name for p in written] == [
        "SAFE_v0_I25_20250115T103000Z.json",
        "SAFE_v0_I25_20250115T103000Z.md",
    ]
    assert all(p.parent == tmp_path / "reports" for p in written)
    assert "SAFE v0 Scorecard - I25" in (tmp_path / "console.txt").read_text()
    again = _write(report, ("markdown",), None, tmp_path)
    assert again[0].name == "SAFE_v0_I25_20250115T103000Z_2.md"


def test_output_is_a_file_for_one_format_and_a_folder_for_several(
    report: SafeReport, tmp_path: Path
) -> None:
    single = _write(report, ("json",), tmp_path / "golden.json", tmp_path)
    assert single == [tmp_path / "golden.json"]
    assert json.loads(single[0].read_text())["report_type"] == "SAFE_v0"
    several = _write(report, ("json", "markdown"), tmp_path / "out", tmp_path)
    assert {p.parent for p in several} == {tmp_path / "out"}
    console_only = _write(report, ("console",), tmp_path / "card.txt", tmp_path)
    assert "Per-Case Breakdown:" in console_only[0].read_text()


def test_console_lists_the_lowest_composites_past_the_limit() -> None:
    config = SafeConfig(consoleMaxCases=2)
    report = score_concern("I25", "*", config, data_dir=EXAMPLES, generated_at=WHEN)
    text = console_text(report, width=200)
    assert "I25-B2-102" in text and "I25-B2-103" in text
    assert "I25-B1-001" not in text
    assert "Showing the 2 lowest composites of 18 cases" in text
    assert "Total Cases: 18" in text
