"""The ``summary`` and ``suites`` sections: their one implementation, an accumulator each, which
builds the section's model field by field (`Summary`, a `SuiteRow` per suite). The registered
list aggregators are the same accumulators folded over a list.

Adding a number to the summary is one field on `Summary` and one line here: a count of results in
`COUNTED` (what one result adds to it), any other number in `SummaryAccumulator.finish` (plus
the presenter line that shows it).

Per suite: counts by class, the accuracies' count and sum (integers: exact), the classes of the
classified cases as one byte each and the latencies as an array of floats (8 bytes a case), so
that percentiles and the penalty score are exact and computed by the same functions.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable

from failproof.core import CaseResult
from failproof.core._intern import Interner
from failproof.core._result import PRIMARY_CLASSES
from failproof.metrics._accumulate import accumulators, folded
from failproof.metrics._base import AggregateContext, aggregators
from failproof.metrics._scores import (
    Verdict,
    latency_summary,
    overall_run_score,
    penalty_score,
    weighted_run_score,
)
from failproof.metrics._summary_section import SuiteRow, Summary

__all__ = ["SuitesAccumulator", "SummaryAccumulator"]


class _SuiteTally:
    __slots__ = ("accuracies", "classified", "counts", "latencies", "n", "passed", "unsupported")

    def __init__(self) -> None:
        self.n = self.accuracies = self.passed = self.unsupported = 0
        self.counts: Counter[str] = Counter()
        self.classified = array("H")
        self.latencies = array("d")

    def add(self, result: CaseResult, codes: Interner) -> None:
        self.n += 1
        primary = result.primary
        self.counts[primary] += 1
        self.unsupported += result.unsupported is not None
        if result.accuracy is not None:
            self.accuracies += 1
            self.passed += result.accuracy
        if result.classification is not None:
            self.classified.append(codes(primary))
        if result.latency_ms is not None:
            self.latencies.append(result.latency_ms)

    def row(self, name: str, ctx: AggregateContext, codes: Interner) -> SuiteRow:
        classifier = ctx.scoring.classifier
        return SuiteRow(
            n=self.n,
            passed=self.passed,
            unsupported=self.unsupported,
            score=self._score(),
            weight=ctx.scoring.suite_weights.get(name, 1.0),
            counts=dict(self.counts),
            penalty_score=penalty_score(
                [codes.items[c] for c in self.classified], classifier.penalties
            ),
            latency=latency_summary(self.latencies, classifier.latency_budget_ms),
        )

    def _score(self) -> float | None:
        return self.passed / self.accuracies if self.accuracies else None


class SuitesAccumulator:
    """Per suite: n, passed, score, weight, counts by class, penalty score and latency."""

    def __init__(self, ctx: AggregateContext) -> None:
        self.ctx = ctx
        self.codes = Interner()
        self.suites: dict[str, _SuiteTally] = {}

    def add(self, result: CaseResult) -> None:
        tally = self.suites.get(result.suite)
        if tally is None:
            tally = self.suites[result.suite] = _SuiteTally()
        tally.add(result, self.codes)

    def rows(self) -> dict[str, SuiteRow]:
        return {name: t.row(name, self.ctx, self.codes) for name, t in self.suites.items()}

    def finish(self) -> dict[str, SuiteRow]:
        return dict(sorted(self.rows().items()))


#: The summary's counts of results, by `Summary` field: what one result adds to each. A new count
#: is one line here and its field on `Summary`.
COUNTED: dict[str, Callable[[CaseResult], int]] = {
    "total_cases": lambda _: 1,
    "passed": lambda r: r.accuracy == 1,
    "errors": lambda r: r.error is not None,
    "unsupported": lambda r: r.primary == "unsupported",
}


class SummaryAccumulator:
    """Totals, counts by class, the verdict's pass rate, errors, unanswered, run scores, latency."""

    def __init__(self, ctx: AggregateContext) -> None:
        self.ctx = ctx
        self.suites = SuitesAccumulator(ctx)
        self.counted = dict.fromkeys(COUNTED, 0)
        self.judged = 0
        self.counts: Counter[str] = Counter()

    def add(self, result: CaseResult) -> None:
        self.suites.add(result)
        for name, count in COUNTED.items():
            self.counted[name] += count(result)
        self.counts[result.primary] += 1
        self.judged += result.accuracy is not None or result.error is not None

    def finish(self) -> Summary:
        rows = self.suites.rows()
        scores = {n: r.score for n, r in rows.items() if r.score is not None}
        penalties = {n: r.penalty_score for n, r in rows.items() if r.penalty_score is not None}
        weights = self.ctx.scoring.suite_weights
        latencies = array("d")
        for tally in self.suites.suites.values():
            latencies.extend(tally.latencies)
        counted = self.counted
        verdict = Verdict.of(
            counted["passed"],
            self.judged,
            counted["errors"],
            counted["total_cases"],
            self.ctx.planned,
        )
        return Summary(
            **counted,
            counts={cls: self.counts.get(cls, 0) for cls in PRIMARY_CLASSES}
            | {k: v for k, v in self.counts.items() if k not in PRIMARY_CLASSES},
            pass_rate=verdict.rate.estimate,
            pass_rate_ci=verdict.rate,
            unanswered=verdict.unanswered,
            overall_run_score=overall_run_score(list(scores.values())),
            weighted_run_score=weighted_run_score(scores, weights),
            penalty_score=overall_run_score(list(penalties.values())),
            weighted_penalty_score=weighted_run_score(penalties, weights),
            latency=latency_summary(latencies, self.ctx.scoring.classifier.latency_budget_ms),
        )


accumulators.register("suites")(SuitesAccumulator)
accumulators.register("summary")(SummaryAccumulator)
aggregators.register("suites")(folded(SuitesAccumulator))
aggregators.register("summary")(folded(SummaryAccumulator))
