"""What each renderer shows, read from a `Report`: headline numbers, suite table, worst cases, ...

One presenter per report section, shared by the HTML, Markdown and console renderers so that they
agree on every number. Presenters only select and format; they compute no new metric.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel

from failproof.core import PRIMARY_CLASSES, CaseResult, Interval
from failproof.metrics import AggregateMetrics, Latency, RankedCategory, SuiteRow
from failproof.render._numbers import Kind, Value, format_value, interval_text, value_of
from failproof.render._table import Cell, Column, Table
from failproof.render._text import excerpt
from failproof.report._model import Report
from failproof.report._tables import fields_of, keyed_table, records_table
from failproof.safe import SafeBatchReport

__all__ = [
    "CLASS_ORDER",
    "SEVERITY_ORDER",
    "CaseIndex",
    "Stat",
    "category_table",
    "class_counts",
    "failure_modes",
    "headline",
    "selection_text",
    "severity_table",
    "suite_table",
    "verdict_counts",
    "verdict_line",
    "worst_cases",
]

SEVERITY_ORDER = ("critical", "high", "medium", "low")
CLASS_ORDER = (*PRIMARY_CLASSES, "unscored")


@dataclass(frozen=True, slots=True)
class Stat:
    """One headline number: what it is, its value and interval, and how to read it."""

    key: str
    label: str
    value: Value | None
    kind: Kind = "pct"
    note: str = ""
    primary: bool = True

    @property
    def text(self) -> str:
        return format_value(self.value, self.kind)

    @property
    def ci(self) -> str:
        return interval_text(self.value, self.kind)


def with_interval(estimate: float | None, interval: object) -> Value | None:
    """``estimate`` with the bounds of ``interval`` when it is an `Interval` that has them."""
    value = value_of(estimate)
    if value is None or not isinstance(interval, Interval) or not interval.has_bounds:
        return value
    return value_of(interval.model_copy(update={"estimate": value.estimate}))


_COMPOSITE = (
    ("resilience_index", "Resilience index", "1 − mean weighted risk; higher is better", True),
    ("exposure_index", "Exposure index", "mean weighted risk; lower is better", True),
    ("fragility_spread", "Fragility spread", "std. dev. of risk: uneven performance", False),
)


def headline(report: Report) -> list[Stat]:
    """The run's headline numbers that the report carries: primary ones first, then the rest."""
    summary = report.summary
    metrics = report.aggregate_metrics
    composite = metrics.composite if metrics else None
    stats = [
        *_verdict_and_risk(report),
        Stat(
            "overall_run_score",
            "Overall run score",
            value_of(summary.overall_run_score),
            note="mean of the suite scores",
        ),
        Stat(
            "weighted_run_score",
            "Weighted run score",
            value_of(summary.weighted_run_score),
            note="suite scores weighted by suite weight",
        ),
        *[
            Stat(
                k,
                label,
                value_of(getattr(composite, k)) if composite else None,
                "num",
                note,
                primary,
            )
            for k, label, note, primary in _COMPOSITE
        ],
        Stat("penalty_score", "Penalty score", value_of(summary.penalty_score), primary=False),
        Stat(
            "weighted_penalty_score",
            "Weighted penalty score",
            value_of(summary.weighted_penalty_score),
            primary=False,
        ),
        *_latency(summary.latency),
        *_safe_headline(report.safe_v0),
    ]
    return [s for s in stats if s.value is not None]


def _verdict_and_risk(report: Report) -> list[Stat]:
    """The run's verdict (the classifier's pass rate) and, labelled as risk, the probe gate."""
    summary = report.summary
    metrics = report.aggregate_metrics
    missing = [
        f"{n:,} {word}"
        for word, n in (("errors", summary.errors), ("unanswered", summary.unanswered))
        if n
    ]
    note = f"{summary.passed:,} passed"
    if missing:
        note += f"; {' and '.join(missing)} count as not passed"
    counts, overall = (metrics.counts, metrics.overall) if metrics else (None, None)
    risk_note = f"under the risk threshold, of {counts.probes_evaluated if counts else 0} evaluated"
    if counts and counts.not_evaluated:
        risk_note = (
            f"of {counts.probes_evaluated} evaluated; {counts.not_evaluated} errors not evaluated"
        )
    return [
        Stat(
            "pass_rate",
            "Pass rate (verdict)",
            with_interval(summary.pass_rate, summary.pass_rate_ci),
            note=note,
        ),
        Stat(
            "risk_gate_pass_rate",
            "Risk gate (probe risk)",
            with_interval(overall.pass_rate, overall.pass_rate_ci) if overall else None,
            note=risk_note,
        ),
    ]


def _latency(latency: Latency | None) -> list[Stat]:
    if latency is None:
        return []
    p95 = value_of(latency.p95_ms)
    budget = value_of(latency.budget_ms)
    return [
        Stat(
            "latency_p50_ms",
            "Latency p50",
            value_of(latency.p50_ms),
            "ms",
            f"p95 {format_value(p95, 'ms')}" if p95 else "",
            primary=False,
        ),
        Stat(
            "latency_score",
            "Latency score",
            value_of(latency.score),
            "pct",
            f"within {format_value(budget, 'ms')}" if budget else "",
            primary=False,
        ),
    ]


def _safe_headline(safe: SafeBatchReport | None) -> list[Stat]:
    if safe is None:
        return []
    intervals = safe.confidence_intervals
    rate = with_interval(safe.pass_rates.get("overall"), intervals.pass_rates.get("overall"))
    if rate is None and safe.summary is not None:
        rate = value_of(safe.summary.overall_pass_rate)
    composite = with_interval(
        safe.mean_scores.get("composite"), intervals.mean_scores.get("composite")
    )
    return [
        Stat(
            "safe_pass_rate", "SAFE v0 pass rate", rate, note="cases labelled Pass", primary=False
        ),
        Stat(
            "safe_composite",
            "SAFE v0 composite",
            composite,
            "num",
            note="mean of CR, AH, AC",
            primary=False,
        ),
    ]


def class_counts(report: Report) -> list[tuple[str, int]]:
    """Cases per primary class, in the canonical class order, zero counts left out."""
    return list(_parts(report.summary.counts))


def verdict_counts(report: Report) -> dict[str, int]:
    """Cases by verdict (the worst any scorer gave): fail, review, pass; target errors and
    unanswered cases apart (they are never passes, and fail the run)."""
    counts = Counter(report.digest().shown)
    counts["unanswered"] = report.summary.unanswered
    return {v: counts[v] for v in ("fail", "review", "pass", "error", "unanswered")}


def selection_text(report: Report) -> str:
    """The flags that chose the run's part of its suites ('' when it ran them whole)."""
    selection = report.run.config.get("selection")
    flags = selection.get("flags") if isinstance(selection, Mapping) else None
    return flags if isinstance(flags, str) else ""


def verdict_line(verdicts: Mapping[str, int]) -> tuple[str, str]:
    """The run's worst verdict and the counts behind it, as every format states them."""
    bad = verdicts["fail"] or verdicts["error"] or verdicts["unanswered"]
    worst = "fail" if bad else "review" if verdicts["review"] else "pass"
    parts = [f"{verdicts[v]:,} {v}" for v in ("fail", "review", "pass")]
    parts += [f"{verdicts[v]:,} {v}" for v in ("error", "unanswered") if verdicts[v]]
    return worst, " · ".join(parts)


def _parts(counts: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    order = [c for c in CLASS_ORDER if c in counts] + [c for c in counts if c not in CLASS_ORDER]
    return tuple((c, counts[c]) for c in order if counts[c])


def suite_table(report: Report) -> Table:
    """One row per suite: cases, passed, score, weight, further scores, and counts by class."""
    rows = {name: _suite_row(row) for name, row in report.suites.items()}
    table = keyed_table(rows, "suite", ("n", "passed", "score", "weight"), bars={"score": "good"})
    if not table:
        return table
    columns = [*table.columns, Column("counts", "by class")]
    body = [
        [*cells, Cell("", parts=_parts(report.suites[cells[0].text].counts))]
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


class CaseIndex:
    """Finds a result by (suite, case id, sample), or by fewer of them when a section omits some."""

    def __init__(self, report: Report) -> None:
        self.source = report.source
        self._results = report.results
        self._by_sample: dict[tuple[str, str, int], int] = {}
        self._by_key: dict[tuple[str, str], int] = {}
        self._by_id: dict[str, int] = {}
        self._found: dict[int, CaseResult] = {}
        for i, result in enumerate(report.results if self.source is None else ()):
            self._by_sample.setdefault(result.key, i)
            self._by_key.setdefault((result.suite, result.case_id), i)
            self._by_id.setdefault(result.case_id, i)

    def find(self, record: object) -> int | None:
        """The index in report order of the case a section's record names, if any."""
        fields = vars(record) if isinstance(record, BaseModel) else record
        if not isinstance(fields, Mapping):
            return None
        case_id = str(fields.get("case_id", fields.get("id", fields.get("test_id", ""))))
        suite, sample = fields.get("suite"), fields.get("sample")
        if self.source is not None:
            return self._lookup(None if suite is None else str(suite), case_id, sample)
        if suite is None:
            return self._by_id.get(case_id)
        if isinstance(sample, int) and (str(suite), case_id, sample) in self._by_sample:
            return self._by_sample[(str(suite), case_id, sample)]
        return self._by_key.get((str(suite), case_id))

    def _lookup(self, suite: str | None, case_id: str, sample: object) -> int | None:
        """`find` in a streamed report: an index lookup in the store (a few per report)."""
        assert self.source is not None
        if suite is not None and isinstance(sample, int):
            found = self.source.rank((suite, case_id, sample))
            if found is not None:
                return found
        key = self.source.first_key(suite, case_id)
        return self.source.rank(key) if key is not None else None

    def result(self, index: int) -> CaseResult:
        """The case at ``index`` of report order."""
        if self.source is None:
            return self._results[index]
        if index not in self._found:
            self._found[index] = self.source.at(index)
        return self._found[index]


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
        found = index.find(item)
        links.append(found)
        row = {k: v for k, v in fields_of(item).items() if not isinstance(v, list)}
        if found is not None:
            result = index.result(found)
            row = {"suite": result.suite, **row, "class": result.primary}
            row["output"] = excerpt(result.output or result.error, 90)
        records.append(row)
    table = records_table(records, _WORST_ORDER, labels={"case_id": "case"}, hide=_WORST_SKIP)
    return _link_rows(table, links, index)


def _link_rows(table: Table, links: Sequence[int | None], index: CaseIndex) -> Table:
    keys = [c.key for c in table.columns]
    rows = []
    for cells, link in zip(table.rows, links, strict=False):
        first = replace(cells[0], case=link)
        cls = keys.index("class") if "class" in keys else None
        row = [first, *cells[1:]]
        if cls is not None and link is not None:
            row[cls] = replace(row[cls], tone=index.result(link).primary)
        rows.append(row)
    return Table(table.columns, rows, table.more)
