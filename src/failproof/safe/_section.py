"""The model of the ``safe_v0`` section (the SAFE v0 batch report of the run's SAFE cases), built
by the SAFE aggregator."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from failproof.core import Interval, Number, SafeCaseResult, Section
from failproof.core._sections import AliasedSection

__all__ = [
    "PhraseMiss",
    "SafeArchetypeRow",
    "SafeBatchReport",
    "SafeFailureAnalysis",
    "SafeIntervals",
    "SafeSummary",
    "SignalMiss",
    "TermViolation",
]


class SafeSummary(AliasedSection):
    """The SAFE batch's label counts and overall pass rate."""

    total_cases: int = 0
    pass_: int = Field(alias="pass")
    review: int = 0
    fail: int = 0
    overall_pass_rate: Number | None = None
    skipped: int = 0


class SafeArchetypeRow(Section):
    """One archetype's count, mean scores and pass rate."""

    count: int = 0
    mean_CR: Number | None = None
    mean_AH: Number | None = None
    mean_AC: Number | None = None
    mean_composite: Number | None = None
    pass_rate: Number | None = None


class SafeIntervals(Section):
    """Intervals of the SAFE means and pass rates, overall and by archetype."""

    mean_scores: dict[str, Interval] = Field(default_factory=dict)
    pass_rates: dict[str, Interval] = Field(default_factory=dict)
    by_archetype: dict[str, dict[str, Interval]] = Field(default_factory=dict)


class SignalMiss(Section):
    """A signal CR missed, and in how many cases."""

    signal: str
    miss_count: int


class TermViolation(Section):
    """A forbidden term AH found, and in how many cases."""

    term: str
    count: int


class PhraseMiss(Section):
    """A summary phrase AC missed, and in how many cases."""

    phrase: str
    miss_count: int


class SafeFailureAnalysis(Section):
    """The lowest composites and the most common misses per metric."""

    worst_performers: list[SafeCaseResult] = Field(default_factory=list)
    common_CR_misses: list[SignalMiss] = Field(default_factory=list)
    common_AH_violations: list[TermViolation] = Field(default_factory=list)
    common_AC_misses: list[PhraseMiss] = Field(default_factory=list)


class SafeBatchReport(Section):
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
