"""What each renderer shows, read from a `Report`: headline numbers, suite table, worst cases, ...

One presenter per report section, shared by the HTML, Markdown and console renderers so that they
agree on every number. Presenters only select and format; they compute no new metric.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from failproof.core import PRIMARY_CLASSES
from failproof.report._format import (
    Kind,
    Value,
    excerpt,
    format_value,
    interval_text,
    kind_of,
    label_of,
    value_of,
)
from failproof.report._model import Report
from failproof.report._tables import Cell, Column, Table, keyed_table, records_table
from failproof.report._verdict import case_verdict

__all__ = [
    "CLASS_ORDER",
    "SEVERITY_ORDER",
    "CaseIndex",
    "Stat",
    "category_table",
    "class_counts",
    "failure_modes",
    "headline",
    "section",
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


def section(data: object, *path: str) -> Any:
    """``data[path[0]][path[1]]...``, or None as soon as a step is missing or not a mapping."""
    for key in path:
        if not isinstance(data, Mapping):
            return None
        data = data.get(key)
    return data


def lookup(data: object, key: str) -> Value | None:
    """A number of a section with its interval: an interval object, or a sibling ``<key>_ci``."""
    value = value_of(section(data, key))
    if value is None or value.has_interval:
        return value
    candidates = (
        section(data, f"{key}_ci"),
        section(data, f"{key}_interval"),
        section(data, "intervals", key),
        section(data, "ci", key),
    )
    for ci in candidates:
        bounds = value_of(ci)
        if bounds is not None and bounds.has_interval:
            return Value(value.estimate, bounds.low, bounds.high)
        if isinstance(ci, list | tuple) and len(ci) == 2:
            low, high = value_of(ci[0]), value_of(ci[1])
            if low is not None and high is not None:
                return Value(value.estimate, low.estimate, high.estimate)
    return value


_SUMMARY_MAIN = ("overall_run_score", "weighted_run_score")
_COMPOSITE = (
    ("resilience_index", "Resilience index", "1 − mean weighted risk; higher is better", True),
    ("exposure_index", "Exposure index", "mean weighted risk; lower is better", True),
    ("fragility_spread", "Fragility spread", "std. dev. of risk: uneven performance", False),
)


def headline(report: Report) -> list[Stat]:
    """The run's headline numbers that the report carries: primary ones first, then the rest."""
    summary = report.summary
    composite = section(report.aggregate_metrics, "composite")
    stats = [
        *_verdict_and_risk(report),
        Stat(
            "overall_run_score",
            "Overall run score",
            lookup(summary, "overall_run_score"),
            note="mean of the suite scores",
        ),
        Stat(
            "weighted_run_score",
            "Weighted run score",
            lookup(summary, "weighted_run_score"),
            note="suite scores weighted by suite weight",
        ),
        *[
            Stat(k, label, lookup(composite, k), "num", note, primary)
            for k, label, note, primary in _COMPOSITE
        ],
        *[
            Stat(k, label_of(k).capitalize(), lookup(summary, k), kind_of(k), primary=False)
            for k, v in summary.items()
            if k not in _SUMMARY_MAIN and k.endswith("score") and value_of(v) is not None
        ],
        *_latency(section(summary, "latency")),
        *_safe_headline(report.safe_v0),
    ]
    return [s for s in stats if s.value is not None]


def _verdict_and_risk(report: Report) -> list[Stat]:
    """The run's verdict (the classifier's pass rate) and, labelled as risk, the probe gate."""
    summary = report.summary
    counts = section(report.aggregate_metrics, "counts")
    missing = [
        f"{n:,} {word}"
        for word, n in (
            ("errors", summary.get("errors")),
            ("unanswered", summary.get("unanswered")),
        )
        if isinstance(n, int) and n
    ]
    passed = summary.get("passed")
    note = f"{passed:,} passed" if isinstance(passed, int) else ""
    if missing:
        note += f"; {' and '.join(missing)} count as not passed"
    evaluated, skipped = section(counts, "probes_evaluated"), section(counts, "not_evaluated")
    risk_note = f"under the risk threshold, of {evaluated} evaluated"
    if skipped:
        risk_note = f"of {evaluated} evaluated; {skipped} errors not evaluated"
    return [
        Stat("pass_rate", "Pass rate (verdict)", lookup(summary, "pass_rate"), note=note),
        Stat(
            "risk_gate_pass_rate",
            "Risk gate (probe risk)",
            lookup(section(report.aggregate_metrics, "overall"), "pass_rate"),
            note=risk_note,
        ),
    ]


def _latency(latency: object) -> list[Stat]:
    p95 = value_of(section(latency, "p95_ms"))
    budget = value_of(section(latency, "budget_ms"))
    return [
        Stat(
            "latency_p50_ms",
            "Latency p50",
            lookup(latency, "p50_ms"),
            "ms",
            f"p95 {format_value(p95, 'ms')}" if p95 else "",
            primary=False,
        ),
        Stat(
            "latency_score",
            "Latency score",
            lookup(latency, "score"),
            "pct",
            f"within {format_value(budget, 'ms')}" if budget else "",
            primary=False,
        ),
    ]


def _safe_headline(safe: Mapping[str, Any] | None) -> list[Stat]:
    if not safe:
        return []
    rate = lookup(section(safe, "pass_rates"), "overall") or lookup(
        section(safe, "summary"), "overall_pass_rate"
    )
    composite = lookup(section(safe, "mean_scores"), "composite")
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
    counts = section(report.summary, "counts")
    if not isinstance(counts, Mapping):
        return []
    order = [c for c in CLASS_ORDER if c in counts] + [c for c in counts if c not in CLASS_ORDER]
    return [(str(c), int(counts[c])) for c in order if isinstance(counts[c], int) and counts[c]]


def verdict_counts(report: Report) -> dict[str, int]:
    """Cases by verdict (the worst any scorer gave): fail, review, pass; target errors and
    unanswered cases apart (they are never passes, and fail the run)."""
    counts = Counter("error" if r.error is not None else case_verdict(r) for r in report.results)
    unanswered = report.summary.get("unanswered")
    counts["unanswered"] = unanswered if isinstance(unanswered, int) else 0
    return {v: counts[v] for v in ("fail", "review", "pass", "error", "unanswered")}


def selection_text(report: Report) -> str:
    """The flags that chose the run's part of its suites ('' when it ran them whole)."""
    flags = section(report.run.config, "selection", "flags")
    return flags if isinstance(flags, str) else ""


def verdict_line(verdicts: Mapping[str, int]) -> tuple[str, str]:
    """The run's worst verdict and the counts behind it, as every format states them."""
    bad = verdicts["fail"] or verdicts["error"] or verdicts["unanswered"]
    worst = "fail" if bad else "review" if verdicts["review"] else "pass"
    parts = [f"{verdicts[v]:,} {v}" for v in ("fail", "review", "pass")]
    parts += [f"{verdicts[v]:,} {v}" for v in ("error", "unanswered") if verdicts[v]]
    return worst, " · ".join(parts)


def _parts(counts: object) -> tuple[tuple[str, int], ...]:
    if not isinstance(counts, Mapping):
        return ()
    order = [c for c in CLASS_ORDER if c in counts] + [c for c in counts if c not in CLASS_ORDER]
    return tuple((str(c), counts[c]) for c in order if isinstance(counts[c], int) and counts[c])


def suite_table(report: Report) -> Table:
    """One row per suite: cases, passed, score, weight, further scores, and counts by class."""
    rows = {
        name: {k: v for k, v in row.items() if k != "counts"} if isinstance(row, Mapping) else {}
        for name, row in report.suites.items()
    }
    for row in rows.values():
        if isinstance(row.get("latency"), Mapping):
            row["latency"] = {k: v for k, v in row["latency"].items() if k != "n"}
    table = keyed_table(rows, "suite", ("n", "passed", "score", "weight"), bars={"score": "good"})
    if not table:
        return table
    columns = [*table.columns, Column("counts", "by class")]
    body = [
        [*cells, Cell("", parts=_parts(section(report.suites, cells[0].text, "counts")))]
        for cells in table.rows
    ]
    return Table(columns, body, table.more)


def severity_table(report: Report) -> Table:
    """Pass / fail counts and pass rate per severity tier, critical first."""
    return keyed_table(
        section(report.aggregate_metrics, "by_severity"),
        "severity",
        ("n", "passed", "failed", "pass_rate"),
        bars={"pass_rate": "good"},
        sort=SEVERITY_ORDER,
    )


def category_table(report: Report) -> Table:
    """Categories by mean risk, highest first (the category ranking), with their statistics."""
    metrics = report.aggregate_metrics
    by_category = section(metrics, "by_category")
    by_category = by_category if isinstance(by_category, Mapping) else {}
    ranking = [_category_name(item) for item in section(metrics, "category_ranking") or []]
    order = [n for n in ranking if n] or list(by_category)
    rows = {name: by_category.get(name) or _ranking_row(metrics, name) for name in order}
    return keyed_table(
        rows,
        "category",
        ("n", "pass_rate", "mean_risk", "median_risk", "mean_weighted_risk"),
        labels=_CATEGORY_LABELS,
        bars={"pass_rate": "good", "mean_risk": "bad"},
        hide=_CATEGORY_HIDDEN,
    )


_CATEGORY_LABELS = {
    "critical_failures": "critical fails",
    "high_severity_failures": "high fails",
    "boundary_rate": "boundary language",
    "mean_weighted_risk": "weighted risk",
}
_CATEGORY_HIDDEN = {
    "passed", "failed", "avg_signal_hits", "avg_safe_signal_hits", "avg_unsafe_signal_hits",
}  # fmt: skip


def _category_name(item: object) -> str | None:
    if isinstance(item, str):
        return item
    if isinstance(item, Mapping):
        name = item.get("category", item.get("name"))
        return str(name) if name is not None else None
    if isinstance(item, list | tuple) and item:
        return str(item[0])
    return None


def _ranking_row(metrics: object, name: str) -> dict[str, Any]:
    for item in section(metrics, "category_ranking") or []:
        if isinstance(item, Mapping) and _category_name(item) == name:
            return {k: v for k, v in item.items() if k not in ("category", "name")}
    return {}


def failure_modes(report: Report, limit: int = 12) -> list[tuple[str, int]]:
    """The most frequent detected failure modes, most frequent first."""
    raw = section(report.aggregate_metrics, "failure_mode_histogram")
    pairs: list[tuple[str, int]] = []
    if isinstance(raw, Mapping):
        pairs = [(str(k), v) for k, v in raw.items() if isinstance(v, int)]
    elif isinstance(raw, list):
        for item in raw:
            if isinstance(item, Mapping):
                name = item.get("failure_mode", item.get("mode", item.get("name")))
                count = item.get("count", item.get("n"))
                if name is not None and isinstance(count, int):
                    pairs.append((str(name), count))
    return sorted(pairs, key=lambda p: (-p[1], p[0]))[:limit]


class CaseIndex:
    """Finds a result by (suite, case id, sample), or by fewer of them when a section omits some."""

    def __init__(self, report: Report) -> None:
        self.results = report.results
        self._by_sample: dict[tuple[str, str, int], int] = {}
        self._by_key: dict[tuple[str, str], int] = {}
        self._by_id: dict[str, int] = {}
        for i, result in enumerate(report.results):
            self._by_sample.setdefault(result.key, i)
            self._by_key.setdefault((result.suite, result.case_id), i)
            self._by_id.setdefault(result.case_id, i)

    def find(self, record: object) -> int | None:
        """The index in ``report.results`` of the case a section's record names, if any."""
        if not isinstance(record, Mapping):
            return None
        case_id = str(record.get("case_id", record.get("id", record.get("test_id", ""))))
        suite, sample = record.get("suite"), record.get("sample")
        if suite is None:
            return self._by_id.get(case_id)
        if isinstance(sample, int) and (str(suite), case_id, sample) in self._by_sample:
            return self._by_sample[(str(suite), case_id, sample)]
        return self._by_key.get((str(suite), case_id))


_WORST_SKIP = {"passed", "sample"}
_WORST_ORDER = ("case_id", "suite", "category", "severity", "weighted_risk", "risk_score")


def worst_cases(report: Report, index: CaseIndex, limit: int = 10) -> Table:
    """The cases with the highest weighted risk, with their class and the start of their output."""
    items = section(report.aggregate_metrics, "worst_cases")
    if not isinstance(items, list):
        return Table([])
    records: list[dict[str, Any]] = []
    links: list[int | None] = []
    for item in items[:limit]:
        found = index.find(item)
        links.append(found)
        row = (
            {k: v for k, v in item.items() if not isinstance(v, list | Mapping)}
            if isinstance(item, Mapping)
            else {"case_id": item}
        )
        if found is not None:
            result = index.results[found]
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
            row[cls] = replace(row[cls], tone=index.results[link].primary)
        rows.append(row)
    return Table(table.columns, rows, table.more)
