"""The ``consistency`` report section: how stable a case's verdict is across ``--repeat`` samples.

For a case sampled N times, ``pass_all`` (pass^N) is 1 when all N samples passed, ``pass_rate``
is the share of samples that passed, and ``flip_rate`` is the share of consecutive sample pairs
whose pass/fail verdict differs (0 = stable, 1 = alternates every time). The run-level section
gives ``pass_hat_n`` (the share of cases with pass^N = 1), ``pass_at_1`` (mean pass rate), the
share of ``inconsistent`` cases (some samples pass, some not) and the mean flip rate.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple

from pydantic import Field

from failproof.core import CaseResult, Section
from failproof.metrics._accumulate import accumulators, fold
from failproof.metrics._base import AggregateContext, aggregators, declare_section

__all__ = [
    "CaseConsistency",
    "ConsistencyAccumulator",
    "ConsistencySection",
    "VerdictStats",
    "case_consistency",
    "consistency_section",
    "verdict_consistency",
]


class CaseConsistency(Section):
    """One repeated case: samples, passes, pass^N (0 or 1), pass rate and flip rate."""

    suite: str
    case_id: str
    n: int
    passed: int
    pass_all: int
    pass_rate: float
    flip_rate: float


class ConsistencySection(Section):
    """Consistency across repeated samples: pass^N, pass@1, inconsistency and flip rate."""

    samples_per_case: int
    pass_hat_n: float
    pass_at_1: float
    inconsistent: float
    mean_flip_rate: float
    cases: list[CaseConsistency] = Field(default_factory=list)


class VerdictStats(NamedTuple):
    """A case's samples: how many, how many passed, pass^N, pass rate and flip rate."""

    n: int
    passed: int
    pass_all: int
    pass_rate: float
    flip_rate: float


def _passed(result: CaseResult) -> bool:
    if result.accuracy is not None:
        return result.accuracy == 1
    return result.primary == "pass"


def case_consistency(samples: Sequence[CaseResult]) -> VerdictStats:
    """pass^N, pass rate and flip rate of one case's samples (in sample order)."""
    return verdict_consistency([_passed(r) for r in sorted(samples, key=lambda r: r.sample)])


def verdict_consistency(verdicts: Sequence[bool]) -> VerdictStats:
    """`case_consistency` from the samples' pass verdicts, in sample order."""
    return _stats(len(verdicts), sum(verdicts), sum(a != b for a, b in pairwise(verdicts)))


@aggregators.register("consistency")
def consistency_section(
    results: Sequence[CaseResult], ctx: AggregateContext
) -> ConsistencySection | None:
    """Per-case and run-level consistency across repeated samples (only when cases repeat): the
    accumulator over the results in report order."""
    ordered = sorted(results, key=lambda r: r.key)
    return fold(ConsistencyAccumulator(ctx.reading(ordered)), ordered)


def _run_level(cases: list[CaseConsistency]) -> ConsistencySection:
    count = len(cases)
    return ConsistencySection(
        samples_per_case=max(c.n for c in cases),
        pass_hat_n=sum(c.pass_all for c in cases) / count,
        pass_at_1=sum(c.pass_rate for c in cases) / count,
        inconsistent=sum(0 < c.passed < c.n for c in cases) / count,
        mean_flip_rate=sum(c.flip_rate for c in cases) / count,
        cases=cases,
    )


class ConsistencyAccumulator:
    """`consistency_section` in one pass: results arrive in key order, so the samples of a case
    are adjacent. Per case only three integers are kept (samples, passes, flips); the case names
    are read again (a second pass over ``ctx.source``) only when some case repeats."""

    def __init__(self, ctx: AggregateContext) -> None:
        self.ctx = ctx
        self.current: tuple[str, str] | None = None
        self.verdicts: list[tuple[int, bool]] = []
        self.counts = {"n": array("I"), "passed": array("I"), "flips": array("I")}
        self.most = 0

    def add(self, result: CaseResult) -> None:
        key = (result.suite, result.case_id)
        if key != self.current:
            self._close()
            self.current = key
        self.verdicts.append((result.sample, _passed(result)))

    def _close(self) -> None:
        if self.current is None:
            return
        verdicts = [v for _, v in sorted(self.verdicts, key=lambda p: p[0])]
        self.most = max(self.most, len(verdicts))
        self.counts["n"].append(len(verdicts))
        self.counts["passed"].append(sum(verdicts))
        self.counts["flips"].append(sum(a != b for a, b in pairwise(verdicts)))
        self.verdicts = []

    def finish(self) -> ConsistencySection | None:
        self._close()
        if self.most < 2 or self.ctx.source is None:
            return None
        names = dict.fromkeys((r.suite, r.case_id) for r in self.ctx.source)
        counts = zip(self.counts["n"], self.counts["passed"], self.counts["flips"], strict=True)
        cases = [
            CaseConsistency(suite=suite, case_id=case_id, **_stats(n, passed, flips)._asdict())
            for (suite, case_id), (n, passed, flips) in zip(names, counts, strict=True)
        ]
        return _run_level(cases)


def _stats(n: int, passed: int, flips: int) -> VerdictStats:
    """`verdict_consistency` from its counts."""
    return VerdictStats(
        n=n,
        passed=passed,
        pass_all=int(passed == n),
        pass_rate=passed / n,
        flip_rate=flips / (n - 1) if n > 1 else 0.0,
    )


accumulators.register("consistency")(ConsistencyAccumulator)
declare_section("consistency", ConsistencySection)
