"""The run broken down: by suite, severity and category, its failure modes, its worst cases."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from failproof.metrics import AggregateMetrics, RankedCategory, SuiteRow
from failproof.render._table import Cell, Column, Table
from failproof.render._text import excerpt
from failproof.report._model import Report
from failproof.report._present.cases import CaseIndex, link_rows
from failproof.report._present.headline import class_parts
from failproof.report._tables import fields_of, keyed_table, records_table

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
    rows = {name: _suite_row(row) for name, row in report.suites.items()}
    table = keyed_table(rows, "suite", ("n", "passed", "score", "weight"), bars={"score": "good"})
    if not table:
        return table
    columns = [*table.columns, Column("counts", "by class")]
    body = [
        [*cells, Cell("", parts=class_parts(report.suites[cells[0].text].counts))]
        for cells in table.rows
    ]
    return Table(columns, body, table.more)


def _suite_row(row: SuiteRow) -> dict[str, Any]:
    """The suite's columns: every field but the class counts, latency without its n."""
    out = fields_of(row, skip=("counts", "latency"))
    if row.latency is not None:
        out["latency"] = fields_of(row.latency, skip=("n",))
    return out


def severity_table(report: Report) -> Table:
    """Pass / fail counts and pass rate per severity tier, critical first."""
    metrics = report.aggregate_metrics
    rows = {name: fields_of(row) for name, row in metrics.by_severity.items()} if metrics else {}
    return keyed_table(
        rows,
        "severity",
        ("n", "passed", "failed", "pass_rate"),
        labels=_RISK_GATE_LABELS,
        bars={"pass_rate": "good"},
        sort=SEVERITY_ORDER,
    )


#: These tables count the probe risk gate (a case passes under the risk threshold), not the
#: verdict: every count and rate says so.
_RISK_GATE_LABELS = {
    "passed": "under risk gate",
    "failed": "over risk gate",
    "pass_rate": "risk-gate pass rate",
}


def category_table(report: Report) -> Table:
    """Categories by mean risk, highest first (the category ranking), with their statistics."""
    metrics = report.aggregate_metrics
    if metrics is None:
        return Table([])
    ranked = {item.category: item for item in metrics.category_ranking}
    order = list(ranked) or list(metrics.by_category)
    rows = {name: _category_row(metrics, name, ranked) for name in order}
    return keyed_table(
        rows,
        "category",
        ("n", "pass_rate", "mean_risk", "median_risk", "mean_weighted_risk"),
        labels=_CATEGORY_LABELS,
        bars={"pass_rate": "good", "mean_risk": "bad"},
        hide=_CATEGORY_HIDDEN,
    )


_CATEGORY_LABELS = {
    **_RISK_GATE_LABELS,
    "critical_failures": "critical fails",
    "high_severity_failures": "high fails",
    "boundary_rate": "boundary language",
    "mean_weighted_risk": "weighted risk",
}
_CATEGORY_HIDDEN = {
    "passed", "failed", "avg_signal_hits", "avg_safe_signal_hits", "avg_unsafe_signal_hits",
}  # fmt: skip


def _category_row(
    metrics: AggregateMetrics, name: str, ranked: Mapping[str, RankedCategory]
) -> Mapping[str, Any]:
    """The category's statistics, or its ranking entry when the section has no row for it."""
    row = metrics.by_category.get(name)
    if row is not None:
        return fields_of(row)
    return fields_of(ranked[name], skip=("category",))


def failure_modes(report: Report, limit: int = 12) -> list[tuple[str, int]]:
    """The most frequent detected failure modes, most frequent first."""
    metrics = report.aggregate_metrics
    pairs = list(metrics.failure_mode_histogram.items()) if metrics else []
    return sorted(pairs, key=lambda p: (-p[1], p[0]))[:limit]


_WORST_SKIP = {"passed", "sample"}
_WORST_ORDER = ("case_id", "suite", "category", "severity", "weighted_risk", "risk_score")


def worst_cases(report: Report, index: CaseIndex, limit: int = 10) -> Table:
    """The cases with the highest weighted risk, with their class and the start of their output."""
    metrics = report.aggregate_metrics
    if metrics is None or not metrics.worst_cases:
        return Table([])
    records: list[dict[str, Any]] = []
    links: list[int | None] = []
    for item in metrics.worst_cases[:limit]:
        found = index.find(item.case_id, item.suite, item.sample)
        links.append(found)
        row = {k: v for k, v in fields_of(item).items() if not isinstance(v, list)}
        if found is not None:
            result = index.result(found)
            row = {"suite": result.suite, **row, "class": result.primary}
            row["output"] = excerpt(result.output or result.error, 90)
        records.append(row)
    table = records_table(records, _WORST_ORDER, labels={"case_id": "case"}, hide=_WORST_SKIP)
    return link_rows(table, links, index)
