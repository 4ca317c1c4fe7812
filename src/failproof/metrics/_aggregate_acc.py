"""The ``aggregate_metrics`` section: its one implementation, an accumulator that builds
`AggregateMetrics` field by field (the registered list aggregator folds it).

Rates carry a Wilson 95% interval under ``<rate>_ci``. Standard deviations are population
(ddof 0) values and P90 is linearly interpolated between ranks.

Counts are integers; the risk, weighted-risk and severity-weight of each evaluated case are kept
as arrays of floats (8 bytes each, overall and per category) so that means, medians, standard
deviations and P90 are exact and computed by the same functions as the list aggregator; the worst
cases are a bounded heap (`TopN`) with the same deterministic order.
"""

from __future__ import annotations

from array import array
from collections import Counter

from failproof.core import CaseResult
from failproof.metrics._accumulate import TopN, accumulators, folded
from failproof.metrics._base import AggregateContext, aggregators
from failproof.metrics._probe_section import (
    AggregateMetrics,
    CategoryRow,
    Composite,
    ProbeCounts,
    ProbeOverall,
    RankedCategory,
    SeverityRow,
    WorstCase,
)
from failproof.metrics._probes import (
    HIGH_STAKES,
    SEVERITY_ORDER,
    ProbeRecord,
    mean,
    spread,
    weighted_rate,
)
from failproof.stats import wilson

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

    def category(self) -> CategoryRow:
        n = self.n
        risks = spread(self.risk)
        passing, boundary = wilson(self.passed, n), wilson(self.boundary, n)
        return CategoryRow(
            n=n,
            passed=self.passed,
            failed=n - self.passed,
            pass_rate=passing.estimate,
            pass_rate_ci=passing,
            mean_risk=risks["mean"],
            median_risk=risks["median"],
            mean_weighted_risk=mean(self.weighted),
            critical_failures=self.critical,
            high_severity_failures=self.high,
            avg_signal_hits=(self.safe + self.unsafe) / n,
            avg_safe_signal_hits=self.safe / n,
            avg_unsafe_signal_hits=self.unsafe / n,
            boundary_rate=boundary.estimate,
            boundary_rate_ci=boundary,
        )


class AggregateAccumulator:
    """Probe metrics: counts, overall, by category and severity, failure modes, composite."""

    def __init__(self, ctx: AggregateContext) -> None:
        self.all = _Group()
        self.categories: dict[str, _Group] = {}
        self.severities: dict[str, list[int]] = {}
        self.flags = array("b")
        self.weights = array("d")
        self.high_stakes = self.skipped = self.unsupported = 0
        self.modes: Counter[str] = Counter()
        self.worst = TopN(
            ctx.scoring.probe.worst_cases,
            key=lambda r: (-r.weighted, -r.risk, r.suite, r.case_id, r.sample),
        )

    def add(self, result: CaseResult) -> None:
        score = result.case_score
        if score is None:
            self.unsupported += result.unsupported is not None
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

    def finish(self) -> AggregateMetrics | None:
        if not self.all.n and not self.skipped:
            return None
        categories = {name: g.category() for name, g in sorted(self.categories.items())}
        risk = spread(self.all.risk)
        return AggregateMetrics(
            counts=self._counts(),
            overall=self._overall(risk),
            by_category=categories,
            by_severity=self._severity(),
            failure_mode_histogram=dict(
                sorted(self.modes.items(), key=lambda item: (-item[1], item[0]))
            ),
            composite=_composite(mean(self.all.weighted), risk),
            worst_cases=[_worst_case(r) for r in self.worst.items()],
            category_ranking=_ranking(categories),
        )

    def _counts(self) -> ProbeCounts:
        return ProbeCounts(
            probes_evaluated=self.all.n,
            passed=self.all.passed,
            failed=self.all.n - self.all.passed,
            not_evaluated=self.skipped,
            unsupported=self.unsupported,
            categories_present=len(self.categories),
            categories=sorted(self.categories),
        )

    def _overall(self, risk: dict[str, float | None]) -> ProbeOverall:
        g = self.all
        weighted = spread(g.weighted)
        safe, unsafe = g.safe, g.unsafe
        passing, failing = wilson(g.passed, g.n), wilson(g.n - g.passed, g.n)
        severity = weighted_rate(self.flags, self.weights)
        stakes = wilson(self.high_stakes, g.n - g.passed)
        boundary = wilson(g.boundary, g.n)
        return ProbeOverall(
            pass_rate=passing.estimate,
            pass_rate_ci=passing,
            fail_rate=failing.estimate,
            fail_rate_ci=failing,
            risk_score=risk,
            weighted_risk={k: weighted[k] for k in ("mean", "median", "p90")},
            severity_weighted_pass_rate=severity.estimate,
            severity_weighted_pass_rate_ci=severity,
            high_stakes_failure_rate=stakes.estimate,
            high_stakes_failure_rate_ci=stakes,
            high_stakes_failures=self.high_stakes,
            boundary_language_rate=boundary.estimate,
            boundary_language_rate_ci=boundary,
            safe_unsafe_signal_ratio=safe / unsafe if unsafe else None,
            safe_signal_total=safe,
            unsafe_signal_total=unsafe,
        )

    def _severity(self) -> dict[str, SeverityRow]:
        tiers = [*SEVERITY_ORDER, *sorted(set(self.severities) - set(SEVERITY_ORDER))]
        out: dict[str, SeverityRow] = {}
        for tier in tiers:
            n, passed = self.severities.get(tier, [0, 0])
            rate = wilson(passed, n)
            out[tier] = SeverityRow(
                n=n, passed=passed, failed=n - passed, pass_rate=rate.estimate, pass_rate_ci=rate
            )
        return out


def _composite(exposure: float | None, risk: dict[str, float | None]) -> Composite:
    """Resilience (1 - mean weighted risk), exposure (mean weighted risk), fragility (std risk)."""
    if exposure is None:
        return Composite()
    exposure = min(1.0, max(0.0, exposure))
    return Composite(
        resilience_index=1.0 - exposure, exposure_index=exposure, fragility_spread=risk["std"]
    )


def _worst_case(r: ProbeRecord) -> WorstCase:
    return WorstCase(
        suite=r.suite,
        case_id=r.case_id,
        sample=r.sample,
        category=r.category,
        severity=r.severity,
        risk_score=r.risk,
        weighted_risk=r.weighted,
        passed=r.passed,
        matched_unsafe_patterns=list(r.unsafe_labels),
        detected_failure_modes=list(r.failure_modes),
    )


def _ranking(categories: dict[str, CategoryRow]) -> list[RankedCategory]:
    """Categories by mean risk, highest first (ties by name)."""
    rows = [
        RankedCategory(category=name, mean_risk=row.mean_risk, n=row.n, pass_rate=row.pass_rate)
        for name, row in categories.items()
    ]
    return sorted(rows, key=lambda row: (-(row.mean_risk or 0.0), row.category))


accumulators.register("aggregate_metrics")(AggregateAccumulator)
aggregators.register("aggregate_metrics")(folded(AggregateAccumulator))
