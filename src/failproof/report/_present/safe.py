"""The SAFE v0 section: its label counts, metrics with intervals, archetypes and worst cases."""

from __future__ import annotations

from dataclasses import dataclass, field

from failproof.render._numbers import Kind, value_of
from failproof.render._table import Column, Table
from failproof.report._model import Report
from failproof.report._present.cases import CaseIndex, link_rows
from failproof.report._present.headline import Stat, with_interval
from failproof.report._tables import Spec, typed_table
from failproof.safe import SafeBatchReport
from failproof.safe._section import SafeSummary

__all__ = ["SafeView", "safe_view"]


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
    stats = _summary_stats(safe.summary) if safe.summary else []
    return SafeView(
        stats=stats,
        labels=list(safe.label_distribution.items()),
        metrics=_safe_metrics(safe),
        archetypes=_archetypes(safe),
        worst=_safe_worst(safe, index),
        misses=[(title, pairs) for title, pairs in _misses(safe) if pairs],
    )


#: The summary's numbers: (key, field, label, kind).
_SUMMARY: tuple[tuple[str, str, str, Kind], ...] = (
    ("total_cases", "total_cases", "Total cases", "count"),
    ("pass", "pass_", "Pass", "count"),
    ("review", "review", "Review", "count"),
    ("fail", "fail", "Fail", "count"),
    ("overall_pass_rate", "overall_pass_rate", "Overall pass rate", "pct"),
    ("skipped", "skipped", "Skipped", "count"),
)


def _summary_stats(summary: SafeSummary) -> list[Stat]:
    stats = [
        Stat(f"safe_{key}", label, value_of(getattr(summary, name)), kind)
        for key, name, label, kind in _SUMMARY
    ]
    return [s for s in stats if s.value is not None]


_METRIC = (Spec("mean", "mean"), Spec("pass_rate", "pass rate", "pct"))


def _safe_metrics(safe: SafeBatchReport) -> Table:
    means, rates = safe.mean_scores, safe.pass_rates
    intervals = safe.confidence_intervals
    names = [m for m in _SAFE_METRICS if m in means or m in rates]
    rows = [
        (
            m,
            {
                "mean": with_interval(means.get(m), intervals.mean_scores.get(m)),
                "pass_rate": with_interval(rates.get(m), intervals.pass_rates.get(m)),
            },
        )
        for m in names
    ]
    return typed_table(Column("metric", "metric"), rows, _METRIC, bars={"pass_rate": "good"})


_ARCHETYPE = (
    Spec("count", "count", "count"),
    Spec("mean_CR", "mean CR"),
    Spec("mean_AH", "mean AH"),
    Spec("mean_AC", "mean AC"),
    Spec("pass_rate", "pass rate", "pct"),
    Spec("mean_composite", "mean composite"),
)


def _archetypes(safe: SafeBatchReport) -> Table:
    rows = [
        (name, {s.key: getattr(row, s.key) for s in _ARCHETYPE})
        for name, row in safe.by_archetype.items()
    ]
    return typed_table(
        Column("archetype", "archetype"), rows, _ARCHETYPE, bars={"pass_rate": "good"}
    )


_WORST = (
    Spec("archetype", "archetype", "text"),
    Spec("CR", "CR"),
    Spec("AH", "AH"),
    Spec("AC", "AC"),
    Spec("composite", "composite"),
    Spec("label", "label", "text"),
)


def _safe_worst(safe: SafeBatchReport, index: CaseIndex) -> Table:
    worst = safe.failure_analysis.worst_performers[:10]
    rows = [
        (
            item.test_id,
            {
                "archetype": item.archetype,
                "CR": item.scores.CR,
                "AH": item.scores.AH,
                "AC": item.scores.AC,
                "composite": item.scores.composite,
                "label": item.label,
            },
        )
        for item in worst
    ]
    table = typed_table(Column("test_id", "case"), rows, _WORST)
    return link_rows(table, [index.find(item.test_id) for item in worst], index)


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
