"""From a report to a verdict and the exit code that gates CI."""

from __future__ import annotations

from failproof.core._case_verdict import case_verdict
from failproof.errors import ExitCode
from failproof.report._model import Report

__all__ = ["ExitCode", "case_verdict", "exit_code"]


def exit_code(report: Report, fail_under: float | None = None) -> ExitCode:
    """0 all pass, 1 any failure (a target error or an unanswered case is one), 2 review but no
    failure; with ``fail_under`` the gate decides. A case the target could not take
    (``unsupported``: not run) never lets a run exit 0: it is 2 where it would have been 0."""
    unsupported = report.summary.unsupported > 0
    if fail_under is not None:
        score = report.summary.overall_run_score
        if score is None or score < fail_under:
            return ExitCode.FAILURE
        return ExitCode.REVIEW if unsupported else ExitCode.OK
    verdicts = {v for v, n in report.digest().verdicts.items() if n}
    if "fail" in verdicts or report.summary.unanswered:
        return ExitCode.FAILURE
    return ExitCode.REVIEW if "review" in verdicts or unsupported else ExitCode.OK
