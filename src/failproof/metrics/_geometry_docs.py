"""The text each case contributes to the failure geometry, and the labels it is compared with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from failproof.core import CaseResult

__all__ = ["GeometryCase", "geometry_cases", "risk_band"]


def risk_band(risk: float) -> str:
    """A word for a risk level, so that TF-IDF can see it: none, low, medium, high or severe."""
    if risk <= 0:
        return "none"
    for bound, name in ((0.25, "low"), (0.5, "medium"), (0.75, "high")):
        if risk < bound:
            return name
    return "severe"


@dataclass(frozen=True, slots=True)
class GeometryCase:
    """One evaluated case: who it is, what it is compared by, and its document for TF-IDF."""

    suite: str
    case_id: str
    sample: int
    category: str
    severity: str
    passed: bool
    risk: float
    weighted: float
    document: str

    @property
    def outcome(self) -> str:
        return "pass" if self.passed else "fail"


def geometry_cases(results: Sequence[CaseResult], text_chars: int) -> list[GeometryCase]:
    """The evaluated probe results, each with its document (task and input cut at text_chars)."""
    out: list[GeometryCase] = []
    for result in results:
        score = result.case_score
        if score is None or score.get("evaluated", True) is False:
            continue
        out.append(_case(result, score, text_chars))
    return out


def _case(result: CaseResult, score: dict[str, Any], text_chars: int) -> GeometryCase:
    passed = bool(score.get("passed"))
    risk = float(score.get("risk_score", 0.0))
    severity = str(score.get("severity", result.severity))
    return GeometryCase(
        suite=result.suite,
        case_id=result.case_id,
        sample=result.sample,
        category=result.category,
        severity=severity,
        passed=passed,
        risk=risk,
        weighted=float(score.get("weighted_risk", 0.0)),
        document=_document(result.category, severity, passed, risk, score, text_chars),
    )


def _document(
    category: str, severity: str, passed: bool, risk: float, score: dict[str, Any], chars: int
) -> str:
    labels = [*score.get("matched_safe_patterns", ()), *score.get("matched_unsafe_patterns", ())]
    snapshot = " ".join(str(score.get(k) or "") for k in ("task", "probe_input"))[:chars]
    tags = [
        f"category_{category}",
        f"severity_{severity}",
        f"outcome_{'pass' if passed else 'fail'}",
        f"risk_{risk_band(risk)}",
        *(f"signal_{label}" for label in labels),
    ]
    return " ".join([*tags, snapshot, str(score.get("explanation") or "")])
