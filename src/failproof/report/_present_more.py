"""Presenters of the optional core sections: failure geometry and SAFE v0."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from failproof.core import Interval
from failproof.metrics import GeometryCluster
from failproof.render._numbers import value_of
from failproof.render._table import Table
from failproof.report._format import label_of
from failproof.report._model import Report
from failproof.report._present import CaseIndex, Stat, _link_rows, with_interval
from failproof.report._tables import fields_of, keyed_table, records_table, scalars
from failproof.safe import SafeBatchReport

__all__ = [
    "Cluster",
    "SafeView",
    "clusters",
    "mutual_information",
    "safe_view",
]

_MI = (
    ("category", "MI(cluster, category)", "clusters follow the threat family"),
    ("severity", "MI(cluster, severity)", "clusters follow severity"),
    ("pass_fail", "MI(cluster, pass/fail)", "clusters separate by outcome"),
)


def mutual_information(report: Report) -> list[Stat]:
    """Mutual information between clusters and category, severity and outcome (in nats)."""
    geometry = report.observability
    mi = geometry.mutual_information if geometry else None
    if mi is None:
        return []
    stats = [Stat(k, label, value_of(getattr(mi, k)), "num", note) for k, label, note in _MI]
    return [s for s in stats if s.value is not None]


@dataclass(frozen=True, slots=True)
class Cluster:
    """One cluster of the failure geometry, as the observability section describes it."""

    id: str
    size: int | None
    terms: list[str]
    dominant: str | None
    failure_rate: float | None
    mean_risk: float | None
    examples: list[tuple[str, int | None]]


def clusters(report: Report, index: CaseIndex) -> list[Cluster]:
    """The cluster descriptions, in the section's order."""
    geometry = report.observability
    return [_cluster(c, index) for c in geometry.clusters] if geometry else []


def _cluster(desc: GeometryCluster, index: CaseIndex) -> Cluster:
    return Cluster(
        id=str(desc.cluster),
        size=desc.size,
        terms=desc.top_terms[:6],
        dominant=desc.dominant_category,
        failure_rate=desc.failure_rate,
        mean_risk=desc.mean_risk,
        examples=[(ex.case_id, index.find(ex)) for ex in desc.example_case_ids[:5]],
    )


@dataclass(frozen=True, slots=True)
class SafeView:
    """The SAFE v0 batch report, ready to draw."""

    stats: list[Stat]
    labels: list[tuple[str, int]]
    metrics: Table
    archetypes: Table
    worst: Table
    misses: list[tuple[str, list[tuple[str, int]]]] = field(default_factory=list)


_SAFE_METRICS = ("CR", "AH", "AC", "composite", "overall")


def safe_view(report: Report, index: CaseIndex) -> SafeView | None:
    """The SAFE v0 section, when the run has SAFE cases."""
    safe = report.safe_v0
    if safe is None:
        return None
    summary = safe.summary.model_dump() if safe.summary else {}
    stats = [
        Stat(
            f"safe_{k}",
            label_of(k).capitalize(),
            value_of(summary.get(k)),
            "pct" if "rate" in k else "count",
        )
        for k in scalars(summary)
    ]
    return SafeView(
        stats=[s for s in stats if s.value is not None],
        labels=list(safe.label_distribution.items()),
        metrics=_safe_metrics(safe),
        archetypes=keyed_table(
            {name: fields_of(row) for name, row in safe.by_archetype.items()},
            "archetype",
            ("count", "mean_CR", "mean_AH", "mean_AC", "pass_rate"),
            bars={"pass_rate": "good"},
        ),
        worst=_safe_worst(safe, index),
        misses=[(title, pairs) for title, pairs in _misses(safe) if pairs],
    )


def _safe_metrics(safe: SafeBatchReport) -> Table:
    means, rates = safe.mean_scores, safe.pass_rates
    intervals = safe.confidence_intervals
    names = [m for m in _SAFE_METRICS if m in means or m in rates]
    rows = {
        m: {
            "mean": _raw(means.get(m), intervals.mean_scores.get(m)),
            "pass_rate": _raw(rates.get(m), intervals.pass_rates.get(m)),
        }
        for m in names
    }
    return keyed_table(rows, "metric", ("mean",), bars={"pass_rate": "good"})


def _raw(estimate: float | None, interval: Interval | None) -> dict[str, Any] | None:
    value = with_interval(estimate, interval)
    if value is None:
        return None
    return {"estimate": value.estimate, "low": value.low, "high": value.high}


def _safe_worst(safe: SafeBatchReport, index: CaseIndex) -> Table:
    records = [
        {
            "test_id": item.test_id,
            "archetype": item.archetype,
            **item.scores.model_dump(),
            "label": item.label,
        }
        for item in safe.failure_analysis.worst_performers[:10]
    ]
    table = records_table(
        records, ("test_id", "archetype", "CR", "AH", "AC", "composite"), labels={"test_id": "case"}
    )
    return _link_rows(table, [index.find(r) for r in records], index)


def _misses(safe: SafeBatchReport) -> list[tuple[str, list[tuple[str, int]]]]:
    analysis = safe.failure_analysis
    return [
        (
            "Signals most often missed (CR)",
            [(m.signal, m.miss_count) for m in analysis.common_CR_misses[:10]],
        ),
        (
            "Forbidden terms most often used (AH)",
            [(v.term, v.count) for v in analysis.common_AH_violations[:10]],
        ),
        (
            "Summary phrases most often missing (AC)",
            [(m.phrase, m.miss_count) for m in analysis.common_AC_misses[:10]],
        ),
    ]
