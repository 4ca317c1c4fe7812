"""From a report to a verdict and the exit code that gates CI."""

from __future__ import annotations

from enum import IntEnum
from typing import Literal

from failproof.core import CaseResult
from failproof.report._model import Report

__all__ = ["ExitCode", "case_verdict", "exit_code"]

Verdict = Literal["pass", "review", "fail"]


class ExitCode(IntEnum):
    """Exit codes of every failproof command."""

    OK = 0  # everything passed, or the --fail-under gate was met
    FAILURE = 1  # at least one failure, or the gate was missed
    REVIEW = 2  # no failure, but at least one case needs review
    ERROR = 3  # configuration, input or runtime error


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


def exit_code(report: Report, fail_under: float | None = None) -> ExitCode:
    """0 all pass, 1 any failure (a target error or an unanswered case is one), 2 review but no
    failure; with ``fail_under`` the gate decides."""
    if fail_under is not None:
        score = report.summary.get("overall_run_score")
        return ExitCode.OK if score is not None and score >= fail_under else ExitCode.FAILURE
    verdicts = {v for v, n in report.digest().verdicts.items() if n}
    if "fail" in verdicts or report.summary.get("unanswered"):
        return ExitCode.FAILURE
    return ExitCode.REVIEW if "review" in verdicts else ExitCode.OK
