"""Presenters of the optional core sections: failure geometry and SAFE v0."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from failproof.report._format import label_of, value_of
from failproof.report._model import Report
from failproof.report._present import CaseIndex, Stat, _link_rows, lookup, section
from failproof.report._tables import Table, keyed_table, records_table, scalars

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
    mi = section(report.observability, "mutual_information")
    stats = [Stat(k, label, lookup(mi, k), "num", note) for k, label, note in _MI]
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
    """The cluster descriptions, in the section's order (a list, or a mapping by cluster id)."""
    raw = section(report.observability, "clusters")
    items: list[tuple[str, Any]] = []
    if isinstance(raw, Mapping):
        items = [(str(k), v) for k, v in raw.items()]
    elif isinstance(raw, list):
        items = [(str(_first(r, "cluster", "id", default=i)), r) for i, r in enumerate(raw)]
    return [_cluster(cid, desc, index) for cid, desc in items if isinstance(desc, Mapping)]


def _first(data: object, *keys: str, default: Any = None) -> Any:
    if isinstance(data, Mapping):
        for key in keys:
            if data.get(key) is not None:
                return data[key]
    return default


def _terms(raw: object) -> list[str]:
    if not isinstance(raw, list):
        return []
    return [
        str(t[0] if isinstance(t, list | tuple) and t else _first(t, "term", default=t))
        for t in raw[:6]
    ]


def _cluster(cid: str, desc: Mapping[str, Any], index: CaseIndex) -> Cluster:
    size = _first(desc, "size", "n", "count")
    rate = value_of(_first(desc, "failure_rate", "fail_rate"))
    risk = value_of(desc.get("mean_risk"))
    examples = _first(desc, "example_ids", "examples", "example_case_ids", default=[])
    pairs = []
    for ex in examples[:5] if isinstance(examples, list) else []:
        record = ex if isinstance(ex, Mapping) else {"case_id": ex}
        pairs.append((str(_first(record, "case_id", "id", default="?")), index.find(record)))
    return Cluster(
        id=cid,
        size=size if isinstance(size, int) else None,
        terms=_terms(_first(desc, "top_terms", "terms", default=[])),
        dominant=_first(desc, "dominant_category", "category"),
        failure_rate=rate.estimate if rate else None,
        mean_risk=risk.estimate if risk else None,
        examples=pairs,
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
_MISSES = (
    ("common_CR_misses", "Signals most often missed (CR)"),
    ("common_AH_violations", "Forbidden terms most often used (AH)"),
    ("common_AC_misses", "Summary phrases most often missing (AC)"),
)


def safe_view(report: Report, index: CaseIndex) -> SafeView | None:
    """The SAFE v0 section, when the run has SAFE cases."""
    safe = report.safe_v0
    if not safe:
        return None
    summary = section(safe, "summary") or {}
    stats = [
        Stat(
            f"safe_{k}",
            label_of(k).capitalize(),
            lookup(summary, k),
            "pct" if "rate" in k else "count",
        )
        for k in scalars(summary)
    ]
    return SafeView(
        stats=[s for s in stats if s.value is not None],
        labels=_labels(safe),
        metrics=_safe_metrics(safe),
        archetypes=keyed_table(
            section(safe, "by_archetype"),
            "archetype",
            ("count", "mean_CR", "mean_AH", "mean_AC", "pass_rate"),
            bars={"pass_rate": "good"},
        ),
        worst=_safe_worst(safe, index),
        misses=[
            (title, _pairs(_misses(safe, key)))
            for key, title in _MISSES
            if _pairs(_misses(safe, key))
        ],
    )


def _labels(safe: Mapping[str, Any]) -> list[tuple[str, int]]:
    dist = section(safe, "label_distribution")
    if not isinstance(dist, Mapping):
        return []
    return [(str(k), v) for k, v in dist.items() if isinstance(v, int)]


def _safe_metrics(safe: Mapping[str, Any]) -> Table:
    means, rates = section(safe, "mean_scores"), section(safe, "pass_rates")
    names = [m for m in _SAFE_METRICS if m in (means or {}) or m in (rates or {})]
    rows = {m: {"mean": _raw(means, m), "pass_rate": _raw(rates, m)} for m in names}
    return keyed_table(rows, "metric", ("mean",), bars={"pass_rate": "good"})


def _raw(data: object, key: str) -> Any:
    value = lookup(data, key)
    if value is None:
        return None
    return {"estimate": value.estimate, "low": value.low, "high": value.high}


def _safe_worst(safe: Mapping[str, Any], index: CaseIndex) -> Table:
    items = section(safe, "worst_performers") or section(
        safe, "failure_analysis", "worst_performers"
    )
    if not isinstance(items, list):
        return Table([])
    records = []
    for item in items[:10]:
        if isinstance(item, Mapping):
            records.append(
                {
                    "test_id": item.get("test_id", item.get("case_id")),
                    "archetype": item.get("archetype"),
                    **(item.get("scores") or {}),
                    "label": item.get("label"),
                }
            )
    table = records_table(
        records, ("test_id", "archetype", "CR", "AH", "AC", "composite"), labels={"test_id": "case"}
    )
    return _link_rows(table, [index.find(r) for r in records], index)


def _misses(safe: Mapping[str, Any], key: str) -> object:
    return section(safe, key) or section(safe, "failure_analysis", key)


def _pairs(raw: object) -> list[tuple[str, int]]:
    out = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, Mapping):
            text = _first(item, "signal", "term", "phrase", "name")
            count = _first(item, "miss_count", "count", "n")
            if text is not None and isinstance(count, int):
                out.append((str(text), count))
    return out[:10]
