"""The text each case contributes to the failure geometry, and the labels it is compared with."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from failproof.core import CaseResult, CaseScore

__all__ = ["GeometryCase", "geometry_case", "geometry_cases", "risk_band"]


def risk_band(risk: float) -> str:
    """A word for a risk level, so that TF-IDF can see it: none, low, medium, high or severe."""
    if risk <= 0:
        return "none"
    for bound, name in ((0.25, "low"), (0.5, "medium"), (0.75, "high")):
        if risk < bound:
            return name
    return "severe"


class GeometryCase(NamedTuple):
    """One evaluated case: who it is, the labels it is compared by, and its CaseScore."""

    suite: str
    case_id: str
    sample: int
    category: str
    severity: str
    passed: bool
    risk: float
    weighted: float
    score: CaseScore

    @property
    def outcome(self) -> str:
        return "pass" if self.passed else "fail"

    def document(self, text_chars: int) -> str:
        """Category, severity, outcome, risk band and signal labels as tags, then the task and
        input (cut at ``text_chars``) and the explanation: built on demand, never all at once."""
        score = self.score
        labels = [*score.matched_safe_patterns, *score.matched_unsafe_patterns]
        snapshot = f"{score.task or ''} {score.probe_input}"[:text_chars]
        tags = " ".join(f"signal_{label}" for label in labels)
        return (
            f"category_{self.category} severity_{self.severity} outcome_{self.outcome} "
            f"risk_{risk_band(self.risk)} {tags} {snapshot} {score.explanation}"
        )


def geometry_cases(results: Sequence[CaseResult]) -> list[GeometryCase]:
    """The results the probe scorer evaluated, in order."""
    return [case for result in results if (case := geometry_case(result)) is not None]


def geometry_case(result: CaseResult) -> GeometryCase | None:
    """The geometry's view of ``result``, or None when the probe scorer did not evaluate it."""
    score = result.case_score
    if score is None or not score.evaluated:
        return None
    return GeometryCase(
        suite=result.suite,
        case_id=result.case_id,
        sample=result.sample,
        category=result.category,
        severity=score.severity,
        passed=score.passed,
        risk=score.risk_score,
        weighted=score.weighted_risk,
        score=score,
    )
