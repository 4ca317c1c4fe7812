"""The run broken down: by suite, severity and category, its failure modes, its worst cases."""

from __future__ import annotations

from collections.abc import Mapping

from failproof.metrics import AggregateMetrics
from failproof.metrics._probe_section import RankedCategory, SeverityRow, WorstCase
from failproof.metrics._summary_section import SuiteRow
from failproof.render._table import Cell, Column, Table
from failproof.render._text import excerpt
from failproof.report._model import Report
from failproof.report._present.cases import CaseIndex, link_rows
from failproof.report._present.headline import class_parts, with_interval
from failproof.report._tables import Spec, typed_table

__all__ = [
    "SEVERITY_ORDER",
    "category_table",
    "failure_modes",
    "severity_table",
    "suite_table",
    "worst_cases",
]

SEVERITY_ORDER = ("critical", "high", "medium", "low")


def suite_table(report: Report) -> Table:
    """One row per suite: cases, passed, score, weight, further scores, and counts by class."""
    rows = [(name, _suite_row(row)) for name, row in report.suites.items()]
    table = typed_table(Column("suite", "suite"), rows, _SUITE, bars={"score": "good"})
    if not table:
        return table
    columns = [*table.columns, Column("counts", "by class")]
    body = [
        [*cells, Cell("", parts=class_parts(report.suites[cells[0].text].counts))]
        for cells in table.rows
    ]
    return Table(columns, body, table.more)


_SUITE = (
    Spec("n", "cases", "count"),
    Spec("passed", "passed", "count"),
    Spec("score", "score", "pct"),
    Spec("weight", "weight"),
    Spec("unsupported", "unsupported", "count"),
    Spec("penalty_score", "penalty score", "pct"),
    Spec("p50_ms", "p50 latency", "ms"),
    Spec("p95_ms", "p95 latency", "ms"),
    Spec("budget_ms", "latency budget ms", "ms"),
    Spec("within_budget", "latency within budget", "ms"),
    Spec("latency_score", "latency score", "pct"),
)


def _suite_row(row: SuiteRow) -> dict[str, object]:
    """The suite's columns: its counts and scores, and its latency but the latency's n."""
    latency = row.latency
    return {
        "n": row.n,
        "passed": row.passed,
        "score": row.score,
        "weight": row.weight,
        "unsupported": row.unsupported,
        "penalty_score": row.penalty_score,
        "p50_ms": latency.p50_ms if latency else None,
        "p95_ms": latency.p95_ms if latency else None,
        "budget_ms": latency.budget_ms if latency else None,
        "within_budget": latency.within_budget if latency else None,
        "latency_score": latency.score if latency else None,
    }


#: These tables count the probe risk gate (a case passes under the risk threshold), not the
#: verdict: every count and rate says so.
_SEVERITY = (
    Spec("n", "cases", "count"),
    Spec("passed", "under risk gate", "count"),
    Spec("failed", "over risk gate", "count"),
    Spec("pass_rate", "risk-gate pass rate", "pct"),
)


def severity_table(report: Report) -> Table:
    """Pass / fail counts and pass rate per severity tier, critical first."""
    metrics = report.aggregate_metrics
    tiers = metrics.by_severity if metrics else {}
    names = [n for n in SEVERITY_ORDER if n in tiers] + [
        n for n in tiers if n not in SEVERITY_ORDER
    ]
    rows = [(name, _severity_row(tiers[name])) for name in names]
    return typed_table(Column("severity", "severity"), rows, _SEVERITY, bars={"pass_rate": "good"})


def _severity_row(row: SeverityRow) -> dict[str, object]:
    return {
        "n": row.n,
        "passed": row.passed,
        "failed": row.failed,
        "pass_rate": with_interval(row.pass_rate, row.pass_rate_ci),
    }


_CATEGORY = (
    Spec("n", "cases", "count"),
    Spec("pass_rate", "risk-gate pass rate", "pct"),
    Spec("mean_risk", "mean risk"),
    Spec("median_risk", "median risk"),
    Spec("mean_weighted_risk", "weighted risk"),
    Spec("critical_failures", "critical fails"),
    Spec("high_severity_failures", "high fails"),
    Spec("boundary_rate", "boundary language", "pct"),
)


def category_table(report: Report) -> Table:
    """Categories by mean risk, highest first (the category ranking), with their statistics."""
    metrics = report.aggregate_metrics
    if metrics is None:
        return Table([])
    ranked = {item.category: item for item in metrics.category_ranking}
    order = list(ranked) or list(metrics.by_category)
    rows = [(name, _category_row(metrics, name, ranked)) for name in order]
    return typed_table(
        Column("category", "category"),
        rows,
        _CATEGORY,
        bars={"pass_rate": "good", "mean_risk": "bad"},
    )


def _category_row(
    metrics: AggregateMetrics, name: str, ranked: Mapping[str, RankedCategory]
) -> dict[str, object]:
    """The category's statistics, or its ranking entry when the section has no row for it."""
    row = metrics.by_category.get(name)
    if row is None:
        entry = ranked[name]
        return {"n": entry.n, "pass_rate": entry.pass_rate, "mean_risk": entry.mean_risk}
    return {
        "n": row.n,
        "pass_rate": with_interval(row.pass_rate, row.pass_rate_ci),
        "mean_risk": row.mean_risk,
        "median_risk": row.median_risk,
        "mean_weighted_risk": row.mean_weighted_risk,
        "critical_failures": row.critical_failures,
        "high_severity_failures": row.high_severity_failures,
        "boundary_rate": with_interval(row.boundary_rate, row.boundary_rate_ci),
    }


def failure_modes(report: Report, limit: int = 12) -> list[tuple[str, int]]:
    """The most frequent detected failure modes, most frequent first."""
    metrics = report.aggregate_metrics
    pairs = list(metrics.failure_mode_histogram.items()) if metrics else []
    return sorted(pairs, key=lambda p: (-p[1], p[0]))[:limit]


_WORST = (
    Spec("suite", "suite", "text"),
    Spec("category", "category", "text"),
    Spec("severity", "severity", "text"),
    Spec("weighted_risk", "weighted risk"),
    Spec("risk_score", "risk"),
    Spec("class", "class", "text"),
    Spec("output", "output", "text"),
)


def worst_cases(report: Report, index: CaseIndex, limit: int = 10) -> Table:
    """The cases with the highest weighted risk, with their class and the start of their output."""
    metrics = report.aggregate_metrics
    if metrics is None or not metrics.worst_cases:
        return Table([])
    worst = metrics.worst_cases[:limit]
    links = [index.find(item.case_id, item.suite, item.sample) for item in worst]
    rows = [
        (item.case_id, _worst_row(item, link, index))
        for item, link in zip(worst, links, strict=True)
    ]
    return link_rows(typed_table(Column("case_id", "case"), rows, _WORST), links, index)


def _worst_row(item: WorstCase, link: int | None, index: CaseIndex) -> dict[str, object]:
    """The case's place in the ranking and, when the report holds it, its class and output."""
    row: dict[str, object] = {
        "suite": item.suite,
        "category": item.category,
        "severity": item.severity,
        "weighted_risk": item.weighted_risk,
        "risk_score": item.risk_score,
    }
    if link is not None:
        result = index.result(link)
        row |= {"class": result.primary, "output": excerpt(result.output or result.error, 90)}
    return row
