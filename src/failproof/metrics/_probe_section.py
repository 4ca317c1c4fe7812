"""The model of the ``aggregate_metrics`` section (probe scoring's run-level metrics), built by
`ProbeAccumulator`."""

from __future__ import annotations

from pydantic import Field

from failproof.core import Interval, Number, Section

__all__ = [
    "AggregateMetrics",
    "CategoryRow",
    "Composite",
    "PassRow",
    "ProbeCounts",
    "ProbeOverall",
    "RankedCategory",
    "SeverityRow",
    "WorstCase",
]


class ProbeCounts(Section):
    """Probes evaluated, passed, failed, not evaluated, and the categories present."""

    probes_evaluated: int = 0
    passed: int = 0
    failed: int = 0
    not_evaluated: int = 0
    unsupported: int = Field(
        default=0, description="Cases not sent (the target cannot take them): not probes run."
    )
    categories_present: int = 0
    categories: list[str] = Field(default_factory=list)


class ProbeOverall(Section):
    """Run-level rates (each with its ``<rate>_ci`` interval), risk statistics and signals."""

    pass_rate: Number | None = None
    pass_rate_ci: Interval | None = None
    fail_rate: Number | None = None
    fail_rate_ci: Interval | None = None
    risk_score: dict[str, Number | None] = Field(default_factory=dict)
    weighted_risk: dict[str, Number | None] = Field(default_factory=dict)
    severity_weighted_pass_rate: Number | None = None
    severity_weighted_pass_rate_ci: Interval | None = None
    high_stakes_failure_rate: Number | None = None
    high_stakes_failure_rate_ci: Interval | None = None
    high_stakes_failures: int = 0
    boundary_language_rate: Number | None = None
    boundary_language_rate_ci: Interval | None = None
    safe_unsafe_signal_ratio: Number | None = None
    safe_signal_total: int = 0
    unsafe_signal_total: int = 0


class PassRow(Section):
    """How many cases of a group passed, and the pass rate with its interval."""

    n: int = 0
    passed: int = 0
    failed: int = 0
    pass_rate: Number | None = None
    pass_rate_ci: Interval | None = None


class CategoryRow(PassRow):
    """One category of probes."""

    mean_risk: Number | None = None
    median_risk: Number | None = None
    mean_weighted_risk: Number | None = None
    critical_failures: int = 0
    high_severity_failures: int = 0
    avg_signal_hits: Number | None = None
    avg_safe_signal_hits: Number | None = None
    avg_unsafe_signal_hits: Number | None = None
    boundary_rate: Number | None = None
    boundary_rate_ci: Interval | None = None


class SeverityRow(PassRow):
    """One severity tier."""


class Composite(Section):
    """Resilience, exposure and fragility indices."""

    resilience_index: Number | None = None
    exposure_index: Number | None = None
    fragility_spread: Number | None = None


class WorstCase(Section):
    """One of the cases with the highest weighted risk."""

    suite: str
    case_id: str
    sample: int = 0
    category: str
    severity: str
    risk_score: Number = 0
    weighted_risk: Number = 0
    passed: bool = False
    matched_unsafe_patterns: list[str] = Field(default_factory=list)
    detected_failure_modes: list[str] = Field(default_factory=list)


class RankedCategory(Section):
    """A category's place in the ranking by mean risk."""

    category: str
    mean_risk: Number | None = None
    n: int = 0
    pass_rate: Number | None = None


class AggregateMetrics(Section):
    """Probe scoring's run-level metrics (probe-scoring.md's ``aggregate_metrics``)."""

    counts: ProbeCounts | None = None
    overall: ProbeOverall | None = None
    by_category: dict[str, CategoryRow] = Field(default_factory=dict)
    by_severity: dict[str, SeverityRow] = Field(default_factory=dict)
    failure_mode_histogram: dict[str, int] = Field(default_factory=dict)
    composite: Composite | None = None
    worst_cases: list[WorstCase] = Field(default_factory=list)
    category_ranking: list[RankedCategory] = Field(default_factory=list)
