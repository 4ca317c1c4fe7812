"""A case's verdict: the worst any of its scorers gave."""

from __future__ import annotations

from typing import Literal

from failproof.core._result import CaseResult

__all__ = ["Verdict", "case_verdict", "unscored_reason"]

Verdict = Literal["pass", "review", "fail", "unsupported"]


def unscored_reason(result: CaseResult) -> str | None:
    """Why the classifier left the case unscored (a rubric no judge graded), else None."""
    found = result.scores.get("failproof")
    why = found.get("unscored") if isinstance(found, dict) else None
    return str(why) if why and result.classification is None else None


def case_verdict(result: CaseResult) -> Verdict:
    """The worst verdict any scorer gave: classifier, probe gate or SAFE label.

    A scorer that raised on the case (its ``scorer_error`` is kept), or a rubric no judge graded
    (``unscored``), makes it fail: what was not scored never reads as a pass. A case that was
    not sent because the target cannot take it is ``unsupported``: not run, never a pass.
    """
    if result.unsupported is not None:
        return "unsupported"
    if _scorer_failed(result) or unscored_reason(result) is not None:
        return "fail"  # never a pass, whatever the risk gate says
    if _first_verdict_fails(result):
        return "fail"
    if result.safe_v0 is None:
        return "pass"
    label = result.safe_v0.label.lower()
    return "fail" if label == "fail" else "review" if label == "review" else "pass"


def _first_verdict_fails(result: CaseResult) -> bool:
    """The classifier's class, else the target's error, else the probe's gate: whether it fails."""
    if result.classification is not None:
        return result.classification.primary != "pass"
    if result.error is not None:
        return True
    return result.case_score is not None and not result.case_score.passed


def _scorer_failed(result: CaseResult) -> bool:
    """Whether a scorer raised on the case (its ``scorer_error`` is kept under its name)."""
    return any(isinstance(v, dict) and "scorer_error" in v for v in result.scores.values())
