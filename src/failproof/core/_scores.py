"""Typed per-case scores: probe scoring's `CaseScore` and SAFE v0's per-case scorecard.

Field names and their order are the JSON contract of the seeds (``results[].case_score`` and
``results[].safe_v0`` of report.json). Both accept keys a newer scorer adds (kept, and written
back), and read like the mappings they once were (``score["risk_score"]``) for code written
against that form (a mapping iterates its keys); new code reads attributes.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "CaseScore",
    "HarmDetail",
    "HarmJudgement",
    "OpenModel",
    "PhraseDetail",
    "RefusalJudgement",
    "SafeCaseResult",
    "SafeDetails",
    "SafeMetricLabels",
    "SafeMetricScores",
    "SemanticDetail",
    "SignalMatch",
]

SafeLabel = Literal["Pass", "Review", "Fail"]


class OpenModel(BaseModel, Mapping[str, Any]):
    """A frozen, typed piece of a report that keeps keys a newer producer adds, and still reads
    as the mapping it once was (keys in JSON order). Plugin sections may build on it."""

    model_config = ConfigDict(extra="allow", frozen=True, defer_build=True)

    def __getitem__(self, key: str) -> Any:
        if key in type(self).model_fields:
            return getattr(self, key)
        extra = self.model_extra or {}
        if key in extra:
            return extra[key]
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:  # type: ignore[override]  # a mapping iterates keys
        return iter([*type(self).model_fields, *(self.model_extra or {})])

    def __len__(self) -> int:
        return len(type(self).model_fields) + len(self.model_extra or {})

    def __eq__(self, other: object) -> bool:
        """Equal to a model of the same fields, or to the plain mapping it is written as."""
        if isinstance(other, Mapping) and not isinstance(other, BaseModel):
            return bool(self.model_dump(by_alias=True) == dict(other))
        return super().__eq__(other)

    def __hash__(self) -> int:
        return hash(self.model_dump_json())


class RefusalJudgement(OpenModel):
    """The refusal verdict a CaseScore was computed with."""

    label: str = Field(description="compliance, refusal or partial_refusal.")
    score: float = Field(description="Refusal confidence in [0, 1].")
    reasons: list[str] = Field(default_factory=list)


class HarmJudgement(OpenModel):
    """The harm verdict a CaseScore was computed with."""

    label: str = Field(description="harmful, borderline or not_harmful.")
    score: float = Field(description="Probability of harm in [0, 1].")
    category: str | None = None
    evidence: list[str] = Field(default_factory=list)
    reasons: list[str] = Field(default_factory=list)


class SignalMatch(OpenModel):
    """One signal pattern that matched the output, and where."""

    id: str
    label: str
    kind: str = Field(description="safe or unsafe.")
    weight: float
    start: int
    end: int


class CaseScore(OpenModel):
    """Probe scoring's per-case result (probe-scoring.md), with the refusal verdict and why."""

    passed: bool = Field(description="Evaluated, and the gated risk is under the pass gate.")
    risk_score: float = 0.0
    severity: str = "medium"
    severity_weight: float = 1.0
    weighted_risk: float = 0.0
    safe_signal_hits: int = 0
    unsafe_signal_hits: int = 0
    boundary_or_refusal_signal: bool = False
    matched_safe_patterns: list[str] = Field(default_factory=list)
    matched_unsafe_patterns: list[str] = Field(default_factory=list)
    detected_failure_modes: list[str] = Field(default_factory=list)
    evidenced_failure_modes: list[str] = Field(default_factory=list)
    task: str | None = None
    probe_input: str = ""
    refusal: RefusalJudgement | None = None
    harm: HarmJudgement | None = None
    signals: list[SignalMatch] = Field(default_factory=list)
    evaluated: bool = Field(default=True, description="False when the target gave no output.")
    explanation: str = ""


class SemanticDetail(OpenModel):
    """A phrase exact matching missed, the closest sentence, and whether it counts."""

    phrase: str
    sentence: str
    similarity: float
    matched: bool


class PhraseDetail(OpenModel):
    """Expected phrases found and missing (semantic matches only when semantic matching ran)."""

    found: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)
    semantic: list[SemanticDetail] = Field(default_factory=list, exclude_if=lambda value: not value)


class HarmDetail(OpenModel):
    """The forbidden terms AH found."""

    violations: list[str] = Field(default_factory=list)


class SafeDetails(OpenModel):
    """The ``details`` block of a SAFE v0 scorecard."""

    CR: PhraseDetail = Field(default_factory=PhraseDetail)
    AH: HarmDetail = Field(default_factory=HarmDetail)
    AC: PhraseDetail = Field(default_factory=PhraseDetail)


class SafeMetricScores(OpenModel):
    """CR, AH, AC and the weighted composite, each in [0, 1]."""

    CR: float
    AH: float
    AC: float
    composite: float


class SafeMetricLabels(OpenModel):
    """Each metric's own label against its thresholds."""

    CR: SafeLabel
    AH: SafeLabel
    AC: SafeLabel


class SafeCaseResult(OpenModel):
    """One case's SAFE v0 scorecard (safe-v0-spec.md section 4.1, plus batch and notes)."""

    test_id: str
    archetype: str
    batch_id: str = ""
    metric_id: str | None = None
    scores: SafeMetricScores
    details: SafeDetails = Field(default_factory=SafeDetails)
    label: SafeLabel
    metric_labels: SafeMetricLabels
    notes: list[str] = Field(default_factory=list)
