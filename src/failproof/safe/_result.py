"""The per-case scorecard (specification section 4.1) and its JSON form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from failproof.config._safe import Label
from failproof.core import SafeCaseResult
from failproof.guard._json import JsonObject

__all__ = ["MetricLabels", "PhraseCheck", "SafeResult", "SafeScores", "SemanticMatch"]


class PhraseCheck(NamedTuple):
    """Expected phrases that were found and that are missing, in expectation order."""

    found: tuple[str, ...]
    missing: tuple[str, ...]


class SafeScores(NamedTuple):
    """CR, AH, AC and the weighted composite, each in [0, 1]."""

    CR: float
    AH: float
    AC: float
    composite: float


class MetricLabels(NamedTuple):
    """Each metric's own label against its thresholds (section 3.1)."""

    CR: Label
    AH: Label
    AC: Label


class SemanticMatch(NamedTuple):
    """The sentence most similar to a phrase that exact matching missed, and whether it counts."""

    phrase: str
    sentence: str
    similarity: float
    matched: bool

    def to_json(self) -> JsonObject:
        return {
            "phrase": self.phrase,
            "sentence": self.sentence,
            "similarity": round(self.similarity, 4),
            "matched": self.matched,
        }


def _check_json(check: PhraseCheck, semantic: tuple[SemanticMatch, ...]) -> JsonObject:
    out: dict[str, Any] = {"found": list(check.found), "missing": list(check.missing)}
    if semantic:
        out["semantic"] = [m.to_json() for m in semantic]
    return out


@dataclass(frozen=True, slots=True)
class SafeResult:
    """One test case's SAFE v0 scorecard."""

    test_id: str
    archetype: str
    batch_id: str
    metric_id: str | None
    scores: SafeScores
    cr: PhraseCheck
    ah_violations: tuple[str, ...]
    ac: PhraseCheck
    label: Label
    metric_labels: MetricLabels
    notes: tuple[str, ...] = ()
    cr_semantic: tuple[SemanticMatch, ...] = ()
    ac_semantic: tuple[SemanticMatch, ...] = ()

    def details(self) -> JsonObject:
        """The ``details`` block: found / missing per metric, AH's violations."""
        return {
            "CR": _check_json(self.cr, self.cr_semantic),
            "AH": {"violations": list(self.ah_violations)},
            "AC": _check_json(self.ac, self.ac_semantic),
        }

    def to_json(self) -> JsonObject:
        """The ``SAFEv0Result`` object of section 4.1, plus batch, metric_id, labels and notes."""
        return {
            "test_id": self.test_id,
            "archetype": self.archetype,
            "batch_id": self.batch_id,
            "metric_id": self.metric_id,
            "scores": self.scores._asdict(),
            "details": self.details(),
            "label": self.label,
            "metric_labels": self.metric_labels._asdict(),
            "notes": list(self.notes),
        }

    def to_model(self) -> SafeCaseResult:
        """The typed scorecard stored on a `CaseResult` (it serialises as `to_json`)."""
        return SafeCaseResult.model_validate(self.to_json())

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SafeResult:
        """Read back `to_json`'s output (validated: a clear error on anything else)."""
        return cls.from_model(SafeCaseResult.model_validate(data))

    @classmethod
    def from_model(cls, parsed: SafeCaseResult) -> SafeResult:
        """The scorecard of a typed `SafeCaseResult`."""
        return cls(
            test_id=parsed.test_id,
            archetype=parsed.archetype,
            batch_id=parsed.batch_id,
            metric_id=parsed.metric_id,
            scores=SafeScores(**parsed.scores.model_dump()),
            cr=PhraseCheck(tuple(parsed.details.CR.found), tuple(parsed.details.CR.missing)),
            ah_violations=tuple(parsed.details.AH.violations),
            ac=PhraseCheck(tuple(parsed.details.AC.found), tuple(parsed.details.AC.missing)),
            label=parsed.label,
            metric_labels=MetricLabels(**parsed.metric_labels.model_dump()),
            notes=tuple(parsed.notes),
            cr_semantic=tuple(SemanticMatch(**m.model_dump()) for m in parsed.details.CR.semantic),
            ac_semantic=tuple(SemanticMatch(**m.model_dump()) for m in parsed.details.AC.semantic),
        )
