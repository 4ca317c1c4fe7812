"""Presenters select and format what the report carries; absent or odd sections never crash."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from failproof.errors import InputError
from failproof.report import Report, renderers
from failproof.report._load import read_report
from failproof.report._present.breakdown import (
    category_table,
    failure_modes,
    severity_table,
    suite_table,
    worst_cases,
)
from failproof.report._present.cases import CaseIndex
from failproof.report._present.extensions import extras
from failproof.report._present.geometry import clusters, mutual_information
from failproof.report._present.headline import class_counts, headline, verdict_counts
from failproof.report._present.safe import safe_view


def _with(report: Report, **sections: Any) -> Report:
    return report.model_copy(update=sections)


def test_headline_numbers_come_from_the_report(report: Report) -> None:
    stats = {s.key: s for s in headline(report)}
    assert stats["overall_run_score"].value.estimate == report.summary.overall_run_score
    assert stats["pass_rate"].value.estimate == report.summary.pass_rate
    assert stats["pass_rate"].value.low == report.summary.pass_rate_ci.low
    overall = report.aggregate_metrics.overall
    assert stats["risk_gate_pass_rate"].value.estimate == overall.pass_rate
    assert stats["risk_gate_pass_rate"].value.low == overall.pass_rate_ci.low
    composite = report.aggregate_metrics.composite
    assert stats["exposure_index"].value.estimate == composite.exposure_index
    assert [s.key for s in headline(report) if s.primary][:4] == [
        "pass_rate",  # the verdict first, the probe risk gate labelled as risk next to it
        "risk_gate_pass_rate",
        "overall_run_score",
        "weighted_run_score",
    ]
    assert stats["risk_gate_pass_rate"].label == "Risk gate (probe risk)"


def test_the_safe_headline_carries_the_interval_of_the_safe_pass_rate(report: Report) -> None:
    safe = report.safe_v0
    assert safe is not None
    stat = next(s for s in headline(report) if s.key == "safe_pass_rate")
    interval = safe.confidence_intervals.pass_rates["overall"]
    assert stat.value is not None
    assert (stat.value.low, stat.value.high) == (interval.low, interval.high)


def test_headline_of_a_bare_report_has_only_what_is_there(bare_report: Report) -> None:
    keys = [s.key for s in headline(bare_report)]
    assert "overall_run_score" in keys
    assert "resilience_index" not in keys
    assert "safe_pass_rate" not in keys


def test_class_counts_follow_the_class_order_and_skip_zeros(report: Report) -> None:
    names = [name for name, _ in class_counts(report)]
    assert names[0] == "pass"
    assert all(n > 0 for _, n in class_counts(report))


def test_verdicts_count_every_case(report: Report) -> None:
    assert sum(verdict_counts(report).values()) == len(report.results)


def test_suite_table_has_a_row_per_suite_with_counts(report: Report) -> None:
    table = suite_table(report)
    assert [row[0].text for row in table.rows] == sorted(report.suites)
    assert table.columns[-1].key == "counts"
    assert all(row[-1].parts for row in table.rows)


def test_severity_tiers_are_critical_first(report: Report) -> None:
    assert next(row[0].text for row in severity_table(report).rows) == "critical"


def test_categories_follow_the_ranking(report: Report) -> None:
    ranking = [c.category for c in report.aggregate_metrics.category_ranking]
    assert [row[0].text for row in category_table(report).rows] == ranking


def test_failure_modes_most_frequent_first(report: Report) -> None:
    assert report.aggregate_metrics is not None
    histogram = {"secret_leak": 3, "format_drift": 5}
    metrics = report.aggregate_metrics.model_copy(update={"failure_mode_histogram": histogram})
    assert failure_modes(_with(report, aggregate_metrics=metrics)) == [
        ("format_drift", 5),
        ("secret_leak", 3),
    ]


def test_worst_cases_link_to_their_case_and_show_its_class(report: Report) -> None:
    table = worst_cases(report, CaseIndex(report))
    first = report.aggregate_metrics.worst_cases[0]
    linked = report.results[table.rows[0][0].case]
    assert (linked.case_id, linked.suite) == (first.case_id, first.suite)
    assert "class" in [c.key for c in table.columns]


def test_geometry_clusters_and_mutual_information(report: Report) -> None:
    found = clusters(report, CaseIndex(report))
    assert len(found) == len(report.observability.clusters)
    assert found[0].examples and found[0].examples[0][1] is not None
    assert [s.key for s in mutual_information(report)] == ["category", "severity", "pass_fail"]


def test_safe_section_shows_labels_metrics_and_misses(report: Report) -> None:
    view = safe_view(report, CaseIndex(report))
    assert view is not None
    assert dict(view.labels) == report.safe_v0.label_distribution
    assert [row[0].text for row in view.metrics.rows][:3] == ["CR", "AH", "AC"]
    assert len(view.misses) == 3


def test_robustness_and_consistency_sections(report: Report, repeated_report: Report) -> None:
    robustness = extras(report, CaseIndex(report))[0]
    assert robustness.key == "robustness"
    first_table = robustness.tables[0][1]
    assert first_table.rows[0][0].text == "all mutators"
    consistency = next(
        e for e in extras(repeated_report, CaseIndex(repeated_report)) if e.key == "consistency"
    )
    assert any("pass^N" in label for label, _ in consistency.facts)


def test_a_plugin_section_is_drawn_generically(report: Report) -> None:
    plugin = {"score": 0.5, "by_model": {"a": {"n": 1, "pass_rate": 1.0}}, "rows": [{"x": 1}]}
    extra = next(
        e for e in extras(_with(report, extensions={"my_plugin": plugin}), CaseIndex(report))
    )
    assert extra.title == "My plugin"
    assert extra.facts == [("score", "50.0%")]
    assert [title for title, _ in extra.tables] == ["by model", "rows"]


ODD_CORE_SECTIONS = [
    pytest.param(
        {"aggregate_metrics": {"overall": "n/a", "by_severity": [1, 2]}}, id="wrong-types"
    ),
    pytest.param(
        {"aggregate_metrics": {"worst_cases": [None, "x", {"case_id": 3}]}}, id="odd-worst-cases"
    ),
    pytest.param(
        {"aggregate_metrics": {"category_ranking": ["a", ["b", 1], {"name": "c"}]}},
        id="ranking-shapes",
    ),
    pytest.param(
        {"observability": {"clusters": {"0": {"size": "big"}}, "points": "none"}}, id="odd-geometry"
    ),
    pytest.param(
        {"safe_v0": {"summary": None, "mean_scores": [], "by_archetype": "x"}}, id="odd-safe"
    ),
    pytest.param({"summary": {"counts": {"pass": "3x"}}, "suites": {"s": None}}, id="odd-summary"),
]


@pytest.mark.parametrize("sections", ODD_CORE_SECTIONS)
def test_a_report_file_with_odd_core_sections_is_refused_where_it_is_read(
    report: Report, sections: dict[str, Any], tmp_path: Path
) -> None:
    data = json.loads(report.model_dump_json()) | sections
    path = tmp_path / "report.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match="not a failproof JSON run report"):
        read_report(path)


def test_odd_plugin_sections_never_crash_any_renderer(report: Report) -> None:
    odd = _with(report, extensions={"robustness": {"mutators": None}, "consistency": [1]})
    for name in renderers.names():
        assert renderers.get(name)().render(odd)


def test_the_risk_tables_say_their_rates_count_the_risk_gate_not_the_verdict(
    report: Report,
) -> None:
    from failproof.report._present.breakdown import category_table, severity_table

    for table in (severity_table(report), category_table(report)):
        labels = {c.key: c.label for c in table.columns}
        assert labels["pass_rate"] == "risk-gate pass rate"
        assert "pass rate" not in {label.lower() for label in labels.values()}
