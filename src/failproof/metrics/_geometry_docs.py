"""The text each case contributes to the failure geometry, and the labels it is compared with."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from failproof.config import ProbeSettings
from failproof.core import CaseResult, CaseScore

__all__ = [
    "GeometryCase",
    "document_of",
    "geometry_case",
    "geometry_cases",
    "risk_band",
    "says_something",
]


def risk_band(risk: float) -> str:
    """A word for a risk level, so that TF-IDF can see it: none, low, medium, high or severe."""
    if risk <= 0:
        return "none"
    for bound, name in ((0.25, "low"), (0.5, "medium"), (0.75, "high")):
        if risk < bound:
            return name
    return "severe"


class GeometryCase(NamedTuple):
    """One evaluated case: who it is, the labels it is compared by, and its document. The same
    tuple is kept in memory (the sample) and written to disk (a run larger than the sample)."""

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


def document_of(score: CaseScore, category: str, text_chars: int) -> str:
    """Category, severity, outcome, risk band and signal labels as tags, then the task and
    input (cut at ``text_chars``) and the explanation."""
    labels = [*score.matched_safe_patterns, *score.matched_unsafe_patterns]
    snapshot = f"{score.task or ''} {score.probe_input}"[:text_chars]
    tags = " ".join(f"signal_{label}" for label in labels)
    outcome = "pass" if score.passed else "fail"
    return (
        f"category_{category} severity_{score.severity} outcome_{outcome} "
        f"risk_{risk_band(score.risk_score)} {tags} {snapshot} {score.explanation}"
    )


def geometry_cases(results: Iterable[CaseResult], text_chars: int) -> list[GeometryCase]:
    """The results the probe scorer evaluated, in order."""
    return [c for result in results if (c := geometry_case(result, text_chars)) is not None]


def geometry_case(result: CaseResult, text_chars: int) -> GeometryCase | None:
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
        document=document_of(score, result.category, text_chars),
    )


def says_something(cases: int, failures: int, settings: ProbeSettings) -> bool:
    """Whether a geometry of ``cases`` evaluated cases, ``failures`` of them failed, can say
    anything: at least ``min_cases_for_geometry`` cases and ``min_failures_for_geometry``
    failures (a run that does not fail has no failure geometry to show)."""
    return (
        cases >= settings.min_cases_for_geometry and failures >= settings.min_failures_for_geometry
    )
