"""The models of the ``summary`` and ``suites`` sections (FailProof's scores), built by
`SummaryAccumulator` and `SuitesAccumulator`."""

from __future__ import annotations

from pydantic import Field

from failproof.core import Interval, Number, Section

__all__ = ["Latency", "SuiteRow", "Summary"]


class Latency(Section):
    """Latency percentiles and, with a budget, the share of responses within it."""

    n: int = 0
    p50_ms: Number | None = None
    p95_ms: Number | None = None
    budget_ms: Number | None = None
    within_budget: int | None = None
    score: Number | None = None


class Summary(Section):
    """Totals, counts by class, the FailProof run scores, penalty score and latency."""

    total_cases: int = 0
    counts: dict[str, int] = Field(default_factory=dict)
    passed: int = Field(default=0, description="Cases the classifier passed (the verdict).")
    pass_rate: Number | None = Field(
        default=None,
        description="passed / cases the classifier was to judge, errors and unanswered included.",
    )
    pass_rate_ci: Interval | None = None
    errors: int = Field(default=0, description="Cases whose target call failed.")
    unanswered: int = Field(
        default=0, description="Cases planned but never stored (a stopped or aborted run)."
    )
    unsupported: int = Field(
        default=0,
        description="Cases not sent: they need a feature the target cannot take (each result "
        "says which). Never passes, in no denominator: not run.",
    )
    overall_run_score: Number | None = None
    weighted_run_score: Number | None = None
    penalty_score: Number | None = None
    weighted_penalty_score: Number | None = None
    latency: Latency | None = None


class SuiteRow(Section):
    """One suite: cases, passes, score, weight, counts by class, penalty score and latency."""

    n: int = 0
    passed: int = 0
    unsupported: int = Field(
        default=0, description="Cases not sent (the target cannot take them); not in the score."
    )
    score: Number | None = None
    weight: Number = 1.0
    counts: dict[str, int] = Field(default_factory=dict)
    penalty_score: Number | None = None
    latency: Latency | None = None
