"""``aggregate_metrics`` computed the plain way, from a list of results: the independent reference
the accumulator (the one implementation that runs) must equal.

Rates carry a Wilson 95% interval under ``<rate>_ci``. Standard deviations are population
(ddof 0) values and P90 is linearly interpolated between ranks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from failproof.core import CaseResult
from failproof.metrics import AggregateContext
from failproof.metrics._probes import (
    HIGH_STAKES,
    SEVERITY_ORDER,
    ProbeRecord,
    _wilson_bounds,
    mean,
    probe_records,
    spread,
)
from failproof.stats import wilson

__all__ = [
    "aggregate_metrics",
    "by_category",
    "by_severity",
    "composite",
    "composite_of",
    "failure_mode_histogram_of",
    "overall",
    "worst_case_row",
]


def aggregate_metrics(
    results: Sequence[CaseResult], ctx: AggregateContext
) -> dict[str, Any] | None:
    """Probe metrics: counts, overall, by category and severity, failure modes, composite."""
    records, skipped = probe_records(results)
    if not records and not skipped:
        return None
    return {
        "counts": counts(records, skipped),
        "overall": overall(records),
        "by_category": by_category(records),
        "by_severity": by_severity(records),
        "failure_mode_histogram": failure_mode_histogram(records),
        "composite": composite(records),
        "worst_cases": worst_cases(records, ctx.scoring.probe.worst_cases),
        "category_ranking": category_ranking(records),
    }


def counts(records: Sequence[ProbeRecord], skipped: int = 0) -> dict[str, Any]:
    """Probes evaluated, passed, failed, not evaluated (target errors) and categories present."""
    categories = sorted({r.category for r in records})
    passed = sum(r.passed for r in records)
    return {
        "probes_evaluated": len(records),
        "passed": passed,
        "failed": len(records) - passed,
        "not_evaluated": skipped,
        "categories_present": len(categories),
        "categories": categories,
    }


def overall(records: Sequence[ProbeRecord]) -> dict[str, Any]:
    """Rates, risk statistics, the severity-weighted pass rate and the signal totals."""
    n = len(records)
    passed = sum(r.passed for r in records)
    failures = [r for r in records if not r.passed]
    high_stakes = sum(r.severity in HIGH_STAKES for r in failures)
    weighted = spread([r.weighted for r in records])
    return {
        **rate_fields("pass_rate", passed, n),
        **rate_fields("fail_rate", n - passed, n),
        "risk_score": spread([r.risk for r in records]),
        "weighted_risk": {k: weighted[k] for k in ("mean", "median", "p90")},
        **weighted_rate_fields(
            "severity_weighted_pass_rate",
            [r.passed for r in records],
            [r.severity_weight for r in records],
        ),
        **rate_fields("high_stakes_failure_rate", high_stakes, len(failures)),
        "high_stakes_failures": high_stakes,
        **rate_fields("boundary_language_rate", sum(r.boundary for r in records), n),
        **signal_ratio(records),
    }


def signal_ratio(records: Sequence[ProbeRecord]) -> dict[str, Any]:
    """safe_signal_total / unsafe_signal_total, or None when no unsafe pattern matched."""
    safe = sum(r.safe_hits for r in records)
    unsafe = sum(r.unsafe_hits for r in records)
    return {
        "safe_unsafe_signal_ratio": safe / unsafe if unsafe else None,
        "safe_signal_total": safe,
        "unsafe_signal_total": unsafe,
    }


def by_category(records: Sequence[ProbeRecord]) -> dict[str, dict[str, Any]]:
    """Per category: n, pass rate, risk, failures by severity, signal hits, boundary rate."""
    groups: dict[str, list[ProbeRecord]] = {}
    for record in records:
        groups.setdefault(record.category, []).append(record)
    return {name: _category(group) for name, group in sorted(groups.items())}


def _category(group: Sequence[ProbeRecord]) -> dict[str, Any]:
    n = len(group)
    passed = sum(r.passed for r in group)
    risks = spread([r.risk for r in group])
    failures = [r for r in group if not r.passed]
    return {
        "n": n,
        "passed": passed,
        "failed": n - passed,
        **rate_fields("pass_rate", passed, n),
        "mean_risk": risks["mean"],
        "median_risk": risks["median"],
        "mean_weighted_risk": mean([r.weighted for r in group]),
        "critical_failures": sum(r.severity == "critical" for r in failures),
        "high_severity_failures": sum(r.severity == "high" for r in failures),
        "avg_signal_hits": mean([r.safe_hits + r.unsafe_hits for r in group]),
        "avg_safe_signal_hits": mean([r.safe_hits for r in group]),
        "avg_unsafe_signal_hits": mean([r.unsafe_hits for r in group]),
        **rate_fields("boundary_rate", sum(r.boundary for r in group), n),
    }


def by_severity(records: Sequence[ProbeRecord]) -> dict[str, dict[str, Any]]:
    """Per severity tier (low to critical, then any other label): pass / fail counts, pass rate."""
    present = {r.severity for r in records}
    tiers = [*SEVERITY_ORDER, *sorted(present - set(SEVERITY_ORDER))]
    out: dict[str, dict[str, Any]] = {}
    for tier in tiers:
        group = [r for r in records if r.severity == tier]
        passed = sum(r.passed for r in group)
        out[tier] = {
            "n": len(group),
            "passed": passed,
            "failed": len(group) - passed,
            **rate_fields("pass_rate", passed, len(group)),
        }
    return out


def failure_mode_histogram(records: Sequence[ProbeRecord]) -> dict[str, int]:
    """How often each detected failure mode occurs, most frequent first (then by name)."""
    return failure_mode_histogram_of(Counter(mode for r in records for mode in r.failure_modes))


def failure_mode_histogram_of(counted: Counter[str]) -> dict[str, int]:
    """Counted failure modes, most frequent first (then by name)."""
    return dict(sorted(counted.items(), key=lambda item: (-item[1], item[0])))


def composite(records: Sequence[ProbeRecord]) -> dict[str, float | None]:
    """Resilience (1 - mean weighted risk), exposure (mean weighted risk), fragility (std risk)."""
    return composite_of(
        mean([r.weighted for r in records]), lambda: spread([r.risk for r in records])
    )


def composite_of(
    exposure: float | None, risk: Callable[[], dict[str, float | None]]
) -> dict[str, float | None]:
    """`composite` from the mean weighted risk and the risk spread (asked for only when used)."""
    if exposure is None:
        return dict.fromkeys(("resilience_index", "exposure_index", "fragility_spread"))
    exposure = min(1.0, max(0.0, exposure))
    return {
        "resilience_index": 1.0 - exposure,
        "exposure_index": exposure,
        "fragility_spread": risk()["std"],
    }


def worst_cases(records: Sequence[ProbeRecord], limit: int) -> list[dict[str, Any]]:
    """The ``limit`` cases with the highest weighted risk above 0 (ties: risk, then suite, id)."""
    risky = [r for r in records if r.weighted > 0]
    risky.sort(key=lambda r: (-r.weighted, -r.risk, r.suite, r.case_id, r.sample))
    return [worst_case_row(r) for r in risky[:limit]]


def worst_case_row(r: ProbeRecord) -> dict[str, Any]:
    """One row of ``worst_cases``."""
    return {
        "suite": r.suite,
        "case_id": r.case_id,
        "sample": r.sample,
        "category": r.category,
        "severity": r.severity,
        "risk_score": r.risk,
        "weighted_risk": r.weighted,
        "passed": r.passed,
        "matched_unsafe_patterns": list(r.unsafe_labels),
        "detected_failure_modes": list(r.failure_modes),
    }


def category_ranking(records: Sequence[ProbeRecord]) -> list[dict[str, Any]]:
    """Categories by mean risk, highest first (ties by name)."""
    rows = [
        {
            "category": name,
            "mean_risk": stats["mean_risk"],
            "n": stats["n"],
            "pass_rate": stats["pass_rate"],
        }
        for name, stats in by_category(records).items()
    ]
    return sorted(rows, key=lambda row: (-row["mean_risk"], row["category"]))


def rate_fields(key: str, successes: int, n: int) -> dict[str, Any]:
    """``{key: rate, key_ci: Wilson 95% interval}``; the rate is None when n is 0."""
    interval = wilson(successes, n)
    return {key: interval.estimate, f"{key}_ci": interval.as_dict()}


def weighted_rate_fields(
    key: str, flags: Sequence[bool] | Sequence[int], weights: Sequence[float]
) -> dict[str, Any]:
    """A weighted rate with a Wilson interval at Kish's effective sample size.

    ``n_eff = (sum w)^2 / sum w^2``: equal weights give n itself; uneven weights, fewer.
    """
    total = sum(weights)
    if not flags or total <= 0:
        return {key: None, f"{key}_ci": wilson(0, 0).as_dict()}
    rate = sum(w for f, w in zip(flags, weights, strict=True) if f) / total
    n_eff = total * total / sum(w * w for w in weights)
    low, high = _wilson_bounds(rate, n_eff)
    interval = {"estimate": rate, "low": low, "high": high, "n": round(n_eff, 3)}
    return {key: rate, f"{key}_ci": interval | {"method": "wilson_kish", "confidence": 0.95}}
