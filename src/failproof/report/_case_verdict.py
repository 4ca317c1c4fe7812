"""A case's verdict: the worst any of its scorers gave."""

from __future__ import annotations

from typing import Literal

from failproof.core import CaseResult

__all__ = ["Verdict", "case_verdict"]

Verdict = Literal["pass", "review", "fail"]


def case_verdict(result: CaseResult) -> Verdict:
    """The worst verdict any scorer gave: classifier, probe gate or SAFE label.

    A scorer that raised on the case (its ``scorer_error`` is kept) makes it fail: what was not
    scored never reads as a pass.
    """
    verdicts: list[Verdict] = []
    if any(isinstance(v, dict) and "scorer_error" in v for v in result.scores.values()):
        verdicts.append("fail")
    if result.classification is not None:
        verdicts.append("pass" if result.classification.primary == "pass" else "fail")
    elif result.error is not None:
        verdicts.append("fail")
    if result.case_score is not None and result.classification is None:
        verdicts.append("pass" if result.case_score.passed else "fail")
    if result.safe_v0 is not None:
        label = result.safe_v0.label.lower()
        verdicts.append("fail" if label == "fail" else "review" if label == "review" else "pass")
    if "fail" in verdicts:
        return "fail"
    return "review" if "review" in verdicts else "pass"
