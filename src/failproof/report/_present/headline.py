"""The run's headline: its verdict, the headline numbers with their intervals, the counts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from failproof.core import Interval
from failproof.core._result import PRIMARY_CLASSES
from failproof.metrics._summary_section import Latency
from failproof.render._numbers import Kind, Value, format_value, interval_text, value_of
from failproof.report._model import Report
from failproof.safe import SafeBatchReport

__all__ = [
    "CLASS_ORDER",
    "Stat",
    "class_counts",
    "class_parts",
    "headline",
    "selection_text",
    "verdict_counts",
    "verdict_line",
    "with_interval",
]

CLASS_ORDER = (*PRIMARY_CLASSES, "unscored", "unsupported")


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
    if summary.unsupported:
        note += f"; {summary.unsupported:,} unsupported not run, not counted"
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
    return list(class_parts(report.summary.counts))


def verdict_counts(report: Report) -> dict[str, int]:
    """Cases by verdict (the worst any scorer gave): fail, review, pass; target errors and
    unanswered cases apart (they are never passes, and fail the run), and unsupported cases
    (not sent: the target cannot take them; never passes, and the run needs a review)."""
    counts = Counter(report.digest().shown)
    counts["unanswered"] = report.summary.unanswered
    return {v: counts[v] for v in ("fail", "review", "pass", *_APART)}


#: Verdict counts shown after fail / review / pass, only when there are any.
_APART = ("error", "unanswered", "unsupported")


def selection_text(report: Report) -> str:
    """The flags that chose the run's part of its suites ('' when it ran them whole)."""
    selection = report.run.config.get("selection")
    flags = selection.get("flags") if isinstance(selection, Mapping) else None
    return flags if isinstance(flags, str) else ""


def verdict_line(verdicts: Mapping[str, int]) -> tuple[str, str]:
    """The run's worst verdict and the counts behind it, as every format states them."""
    bad = verdicts["fail"] or verdicts["error"] or verdicts["unanswered"]
    review = verdicts["review"] or verdicts.get("unsupported", 0)
    worst = "fail" if bad else "review" if review else "pass"
    parts = [f"{verdicts[v]:,} {v}" for v in ("fail", "review", "pass")]
    parts += [f"{verdicts[v]:,} {v}" for v in _APART if verdicts.get(v)]
    return worst, " · ".join(parts)


def class_parts(counts: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """Counts by class in the canonical class order, zero counts left out."""
    order = [c for c in CLASS_ORDER if c in counts] + [c for c in counts if c not in CLASS_ORDER]
    return tuple((c, counts[c]) for c in order if counts[c])
