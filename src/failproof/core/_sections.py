"""The typed sections of the run report, with one `Interval` type for every confidence interval.

Field names and their order are report.json's contract (the seeds' names), so a section written
from these models has exactly the keys it had as a plain mapping. Numbers keep their JSON kind
(an integer stays an integer). Every model keeps keys a newer aggregator adds, and reads like a
mapping (``section["pass_rate"]``) for code written against that form.
"""

from __future__ import annotations

from typing import Any

from pydantic import AliasChoices, ConfigDict, Field

from failproof.core._scores import OpenModel, SafeCaseResult

__all__ = [
    "AggregateMetrics",
    "CategoryRow",
    "Composite",
    "GeometryCluster",
    "Interval",
    "Latency",
    "Observability",
    "ProbeCounts",
    "ProbeOverall",
    "RankedCategory",
    "SafeBatchReport",
    "SafeSummary",
    "SeverityRow",
    "SuiteRow",
    "Summary",
    "WorstCase",
]

#: A JSON number, kept as the kind it was computed as (1 stays 1, 1.0 stays 1.0).
Number = int | float


class Interval(OpenModel):
    """A point estimate with its bounds, how they were computed, and at what confidence level.

    Written as ``{estimate, low, high, n, method, confidence}``. Bounds are None when n is 0.
    """

    model_config = ConfigDict(
        extra="allow", frozen=True, serialize_by_alias=True, validate_by_name=True, defer_build=True
    )

    estimate: Number | None
    low: Number | None
    high: Number | None
    n: Number = Field(default=0, description="Sample size (effective size for weighted rates).")
    method: str = Field(description="wilson, wilson_kish, bootstrap, ...")
    level: float = Field(
        default=0.95,
        validation_alias=AliasChoices("confidence", "level"),
        serialization_alias="confidence",
        description="Confidence level, written as confidence.",
    )

    @property
    def confidence(self) -> float:
        return self.level

    @property
    def has_bounds(self) -> bool:
        return self.low is not None and self.high is not None

    def as_dict(self) -> dict[str, Any]:
        """The JSON form (``confidence`` for the level)."""
        return self.model_dump(mode="json")


class Latency(OpenModel):
    """Latency percentiles and, with a budget, the share of responses within it."""

    n: int = 0
    p50_ms: Number | None = None
    p95_ms: Number | None = None
    budget_ms: Number | None = None
    within_budget: int | None = None
    score: Number | None = None


class Summary(OpenModel):
    """Totals, counts by class, the FailProof run scores, penalty score and latency."""

    total_cases: int = 0
    counts: dict[str, int] = Field(default_factory=dict)
    overall_run_score: Number | None = None
    weighted_run_score: Number | None = None
    penalty_score: Number | None = None
    weighted_penalty_score: Number | None = None
    latency: Latency | None = None


class SuiteRow(OpenModel):
    """One suite: cases, passes, score, weight, counts by class, penalty score and latency."""

    n: int = 0
    passed: int = 0
    score: Number | None = None
    weight: Number = 1.0
    counts: dict[str, int] = Field(default_factory=dict)
    penalty_score: Number | None = None
    latency: Latency | None = None


class ProbeCounts(OpenModel):
    """Probes evaluated, passed, failed, not evaluated, and the categories present."""

    probes_evaluated: int = 0
    passed: int = 0
    failed: int = 0
    not_evaluated: int = 0
    categories_present: int = 0
    categories: list[str] = Field(default_factory=list)


class ProbeOverall(OpenModel):
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


class CategoryRow(OpenModel):
    """One category of probes."""

    n: int = 0
    passed: int = 0
    failed: int = 0
    pass_rate: Number | None = None
    pass_rate_ci: Interval | None = None
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


class SeverityRow(OpenModel):
    """One severity tier."""

    n: int = 0
    passed: int = 0
    failed: int = 0
    pass_rate: Number | None = None
    pass_rate_ci: Interval | None = None


class Composite(OpenModel):
    """Resilience, exposure and fragility indices."""

    resilience_index: Number | None = None
    exposure_index: Number | None = None
    fragility_spread: Number | None = None


class WorstCase(OpenModel):
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


class RankedCategory(OpenModel):
    """A category's place in the ranking by mean risk."""

    category: str
    mean_risk: Number | None = None
    n: int = 0
    pass_rate: Number | None = None


class AggregateMetrics(OpenModel):
    """Probe scoring's run-level metrics (probe-scoring.md's ``aggregate_metrics``)."""

    counts: ProbeCounts | None = None
    overall: ProbeOverall | None = None
    by_category: dict[str, CategoryRow] = Field(default_factory=dict)
    by_severity: dict[str, SeverityRow] = Field(default_factory=dict)
    failure_mode_histogram: dict[str, int] = Field(default_factory=dict)
    composite: Composite | None = None
    worst_cases: list[WorstCase] = Field(default_factory=list)
    category_ranking: list[RankedCategory] = Field(default_factory=list)


class CaseRef(OpenModel):
    """A case named by suite and id."""

    suite: str
    case_id: str


class GeometryCluster(OpenModel):
    """One failure cluster of the geometry."""

    cluster: int = 0
    size: int = 0
    share: Number = 0
    top_terms: list[str] = Field(default_factory=list)
    dominant_category: str | None = None
    dominant_category_share: Number | None = None
    categories: dict[str, int] = Field(default_factory=dict)
    failure_rate: Number | None = None
    mean_risk: Number | None = None
    example_case_ids: list[CaseRef] = Field(default_factory=list)


class Point(OpenModel):
    """A case's cluster and place on the 2-D scatter."""

    suite: str
    case_id: str
    sample: int = 0
    cluster: int | None = None
    scatter_x: Number = 0
    scatter_y: Number = 0


class MutualInformation(OpenModel):
    """How much the clusters tell about category, severity and pass / fail."""

    category: Number | None = None
    severity: Number | None = None
    pass_fail: Number | None = None
    normalized: dict[str, Number | None] = Field(default_factory=dict)
    entropy: dict[str, Number | None] = Field(default_factory=dict)
    unit: str = "nats"


class Observability(OpenModel):
    """Failure geometry: mutual information, clusters, scatter points and how they were made."""

    n: int = 0
    mutual_information: MutualInformation | None = None
    clusters: list[GeometryCluster] = Field(default_factory=list)
    points: list[Point] = Field(default_factory=list)
    method: dict[str, Any] = Field(default_factory=dict)


class SafeSummary(OpenModel):
    """The SAFE batch's label counts and overall pass rate."""

    total_cases: int = 0
    pass_: int = Field(alias="pass")
    review: int = 0
    fail: int = 0
    overall_pass_rate: Number | None = None
    skipped: int = 0

    model_config = ConfigDict(
        extra="allow", frozen=True, serialize_by_alias=True, validate_by_name=True, defer_build=True
    )


class SafeArchetypeRow(OpenModel):
    """One archetype's count, mean scores and pass rate."""

    count: int = 0
    mean_CR: Number | None = None
    mean_AH: Number | None = None
    mean_AC: Number | None = None
    mean_composite: Number | None = None
    pass_rate: Number | None = None


class SafeIntervals(OpenModel):
    """Intervals of the SAFE means and pass rates, overall and by archetype."""

    mean_scores: dict[str, Interval] = Field(default_factory=dict)
    pass_rates: dict[str, Interval] = Field(default_factory=dict)
    by_archetype: dict[str, dict[str, Interval]] = Field(default_factory=dict)


class SignalMiss(OpenModel):
    """A signal CR missed, and in how many cases."""

    signal: str
    miss_count: int


class TermViolation(OpenModel):
    """A forbidden term AH found, and in how many cases."""

    term: str
    count: int


class PhraseMiss(OpenModel):
    """A summary phrase AC missed, and in how many cases."""

    phrase: str
    miss_count: int


class SafeFailureAnalysis(OpenModel):
    """The lowest composites and the most common misses per metric."""

    worst_performers: list[SafeCaseResult] = Field(default_factory=list)
    common_CR_misses: list[SignalMiss] = Field(default_factory=list)
    common_AH_violations: list[TermViolation] = Field(default_factory=list)
    common_AC_misses: list[PhraseMiss] = Field(default_factory=list)


class SafeBatchReport(OpenModel):
    """The SAFE v0 batch report of the run's SAFE cases (safe-v0-spec.md 4.2 and 5.1)."""

    report_type: str = "SAFE_v0"
    schema_version: str
    generated_at: str
    batch_id: str
    concern_id: str
    summary: SafeSummary | None = None
    total_cases: int = 0
    mean_scores: dict[str, Number | None] = Field(default_factory=dict)
    pass_rates: dict[str, Number | None] = Field(default_factory=dict)
    label_distribution: dict[str, int] = Field(default_factory=dict)
    by_archetype: dict[str, SafeArchetypeRow] = Field(default_factory=dict)
    failure_analysis: SafeFailureAnalysis = Field(default_factory=SafeFailureAnalysis)
    confidence_intervals: SafeIntervals = Field(default_factory=SafeIntervals)
    batches: list[dict[str, Any]] = Field(default_factory=list)
    skipped: list[dict[str, Any]] = Field(default_factory=list)
    config: dict[str, Any] = Field(
        default_factory=dict, description="The SAFE config, spelled like safe.config.json."
    )
