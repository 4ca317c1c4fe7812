"""The ``aggregate_metrics`` section as an accumulator (equal to `aggregate_metrics`).

Counts are integers; the risk, weighted-risk and severity-weight of each evaluated case are kept
as arrays of floats (8 bytes each, overall and per category) so that means, medians, standard
deviations and P90 are exact and computed by the same functions as the list aggregator; the worst
cases are a bounded heap (`TopN`) with the same deterministic order.
"""

from __future__ import annotations

from array import array
from collections import Counter
from typing import Any

from failproof.core import CaseResult
from failproof.metrics._accumulate import TopN, accumulators
from failproof.metrics._aggregate import composite_of, failure_mode_histogram_of, worst_case_row
from failproof.metrics._base import AggregateContext
from failproof.metrics._probes import (
    HIGH_STAKES,
    SEVERITY_ORDER,
    ProbeRecord,
    mean,
    rate_fields,
    spread,
    weighted_rate_fields,
)

__all__ = ["AggregateAccumulator"]


class _Group:
    """What one category (or the whole run) keeps of its evaluated cases."""

    __slots__ = (
        "boundary",
        "critical",
        "high",
        "n",
        "passed",
        "risk",
        "safe",
        "unsafe",
        "weighted",
    )

    def __init__(self) -> None:
        self.n = self.passed = self.boundary = self.safe = self.unsafe = 0
        self.critical = self.high = 0
        self.risk = array("d")
        self.weighted = array("d")

    def add(self, r: ProbeRecord) -> None:
        self.n += 1
        self.passed += r.passed
        self.boundary += r.boundary
        self.safe += r.safe_hits
        self.unsafe += r.unsafe_hits
        if not r.passed:
            self.critical += r.severity == "critical"
            self.high += r.severity == "high"
        self.risk.append(r.risk)
        self.weighted.append(r.weighted)

    def category(self) -> dict[str, Any]:
        n = self.n
        risks = spread(self.risk)
        return {
            "n": n,
            "passed": self.passed,
            "failed": n - self.passed,
            **rate_fields("pass_rate", self.passed, n),
            "mean_risk": risks["mean"],
            "median_risk": risks["median"],
            "mean_weighted_risk": mean(self.weighted),
            "critical_failures": self.critical,
            "high_severity_failures": self.high,
            "avg_signal_hits": (self.safe + self.unsafe) / n,
            "avg_safe_signal_hits": self.safe / n,
            "avg_unsafe_signal_hits": self.unsafe / n,
            **rate_fields("boundary_rate", self.boundary, n),
        }


class AggregateAccumulator:
    """Probe metrics: counts, overall, by category and severity, failure modes, composite."""

    def __init__(self, ctx: AggregateContext) -> None:
        self.all = _Group()
        self.categories: dict[str, _Group] = {}
        self.severities: dict[str, list[int]] = {}
        self.flags = array("b")
        self.weights = array("d")
        self.high_stakes = self.skipped = 0
        self.modes: Counter[str] = Counter()
        self.worst = TopN(
            ctx.settings.probe.worst_cases,
            key=lambda r: (-r.weighted, -r.risk, r.suite, r.case_id, r.sample),
        )

    def add(self, result: CaseResult) -> None:
        score = result.case_score
        if score is None:
            return
        if not score.evaluated:
            self.skipped += 1
            return
        record = ProbeRecord.of(result, score)
        self.all.add(record)
        self.categories.setdefault(record.category, _Group()).add(record)
        tier = self.severities.setdefault(record.severity, [0, 0])
        tier[0] += 1
        tier[1] += record.passed
        self.flags.append(record.passed)
        self.weights.append(record.severity_weight)
        self.high_stakes += not record.passed and record.severity in HIGH_STAKES
        self.modes.update(record.failure_modes)
        if record.weighted > 0:
            self.worst.add(record)

    def finish(self) -> dict[str, Any] | None:
        if not self.all.n and not self.skipped:
            return None
        categories = {name: g.category() for name, g in sorted(self.categories.items())}
        risk = spread(self.all.risk)
        return {
            "counts": self._counts(),
            "overall": self._overall(risk),
            "by_category": categories,
            "by_severity": self._severity(),
            "failure_mode_histogram": failure_mode_histogram_of(self.modes),
            "composite": self._composite(risk),
            "worst_cases": [worst_case_row(r) for r in self.worst.items()],
            "category_ranking": _ranking(categories),
        }

    def _counts(self) -> dict[str, Any]:
        return {
            "probes_evaluated": self.all.n,
            "passed": self.all.passed,
            "failed": self.all.n - self.all.passed,
            "not_evaluated": self.skipped,
            "categories_present": len(self.categories),
            "categories": sorted(self.categories),
        }

    def _overall(self, risk: dict[str, float | None]) -> dict[str, Any]:
        g = self.all
        weighted = spread(g.weighted)
        safe, unsafe = g.safe, g.unsafe
        return {
            **rate_fields("pass_rate", g.passed, g.n),
            **rate_fields("fail_rate", g.n - g.passed, g.n),
            "risk_score": risk,
            "weighted_risk": {k: weighted[k] for k in ("mean", "median", "p90")},
            **weighted_rate_fields("severity_weighted_pass_rate", self.flags, self.weights),
            **rate_fields("high_stakes_failure_rate", self.high_stakes, g.n - g.passed),
            "high_stakes_failures": self.high_stakes,
            **rate_fields("boundary_language_rate", g.boundary, g.n),
            "safe_unsafe_signal_ratio": safe / unsafe if unsafe else None,
            "safe_signal_total": safe,
            "unsafe_signal_total": unsafe,
        }

    def _severity(self) -> dict[str, dict[str, Any]]:
        tiers = [*SEVERITY_ORDER, *sorted(set(self.severities) - set(SEVERITY_ORDER))]
        out: dict[str, dict[str, Any]] = {}
        for tier in tiers:
            n, passed = self.severities.get(tier, [0, 0])
            out[tier] = {
                "n": n,
                "passed": passed,
                "failed": n - passed,
                **rate_fields("pass_rate", passed, n),
            }
        return out

    def _composite(self, risk: dict[str, float | None]) -> dict[str, float | None]:
        return composite_of(mean(self.all.weighted), lambda: risk)


def _ranking(categories: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    rows = [
        {"category": name, "mean_risk": s["mean_risk"], "n": s["n"], "pass_rate": s["pass_rate"]}
        for name, s in categories.items()
    ]
    return sorted(rows, key=lambda row: (-row["mean_risk"], row["category"]))


accumulators.register("aggregate_metrics")(AggregateAccumulator)
