"""Probe records: the CaseScore fields of each evaluated result, and the statistics over them."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from failproof.core import CaseResult, CaseScore, Interval
from failproof.metrics._scores import percentile
from failproof.stats import wilson

__all__ = [
    "HIGH_STAKES",
    "SEVERITY_ORDER",
    "ProbeRecord",
    "mean",
    "probe_records",
    "spread",
    "weighted_rate",
]

SEVERITY_ORDER = ("low", "medium", "high", "critical")
HIGH_STAKES = frozenset({"high", "critical"})


@dataclass(frozen=True, slots=True)
class ProbeRecord:
    """What the run-level metrics read from one result's ``case_score``."""

    suite: str
    case_id: str
    sample: int
    category: str
    severity: str
    severity_weight: float
    passed: bool
    risk: float
    weighted: float
    safe_hits: int
    unsafe_hits: int
    boundary: bool
    failure_modes: tuple[str, ...]
    unsafe_labels: tuple[str, ...]

    @classmethod
    def of(cls, result: CaseResult, score: CaseScore) -> ProbeRecord:
        return cls(
            suite=result.suite,
            case_id=result.case_id,
            sample=result.sample,
            category=result.category,
            severity=score.severity,
            severity_weight=score.severity_weight,
            passed=score.passed,
            risk=score.risk_score,
            weighted=score.weighted_risk,
            safe_hits=score.safe_signal_hits,
            unsafe_hits=score.unsafe_signal_hits,
            boundary=score.boundary_or_refusal_signal,
            failure_modes=tuple(score.detected_failure_modes),
            unsafe_labels=tuple(score.matched_unsafe_patterns),
        )


def probe_records(results: Sequence[CaseResult]) -> tuple[list[ProbeRecord], int]:
    """Records of the results the probe scorer evaluated, and how many it could not evaluate."""
    records: list[ProbeRecord] = []
    skipped = 0
    for result in results:
        score = result.case_score
        if score is None:
            continue
        if not score.evaluated:
            skipped += 1
            continue
        records.append(ProbeRecord.of(result, score))
    return records, skipped


def mean(values: Sequence[float]) -> float | None:
    """The arithmetic mean; None when empty."""
    return sum(values) / len(values) if values else None


def spread(values: Sequence[float]) -> dict[str, float | None]:
    """Mean, median, population standard deviation, P90 (linear) and max."""
    if not values:
        return dict.fromkeys(("mean", "median", "std", "p90", "max"))
    return {
        "mean": mean(values),
        "median": statistics.median(values),
        "std": statistics.pstdev(values),
        "p90": percentile(values, 90),
        "max": max(values),
    }


def weighted_rate(flags: Sequence[bool] | Sequence[int], weights: Sequence[float]) -> Interval:
    """A weighted rate with a Wilson interval at Kish's effective sample size.

    ``n_eff = (sum w)^2 / sum w^2``: equal weights give n itself; uneven weights, fewer.
    """
    total = sum(weights)
    if not flags or total <= 0:
        return wilson(0, 0)
    rate = sum(w for f, w in zip(flags, weights, strict=True) if f) / total
    n_eff = total * total / sum(w * w for w in weights)
    low, high = _wilson_bounds(rate, n_eff)
    return Interval(
        estimate=rate, low=low, high=high, n=round(n_eff, 3), method="wilson_kish", level=0.95
    )


def _wilson_bounds(p: float, n: float, z: float = 1.959963984540054) -> tuple[float, float]:
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
