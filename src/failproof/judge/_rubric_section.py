"""The ``rubric`` report section: the cases with rubric expectations, graded or waiting.

A case's rubric is graded by the judge (``scores.judge.rubric``); in a run without a judge a
case the rules would pass is ``unscored`` (``scores.failproof.unscored``). The section counts
both, so a run says how many rubrics were never graded and which flag grades them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field

from failproof.core import CaseResult, Section
from failproof.metrics import AggregateContext, accumulators, aggregators, declare_section, folded

__all__ = ["RubricAccumulator", "RubricSection"]


class RubricSection(Section):
    """Rubric expectations in the run: graded, passed, judge errors, and unscored cases."""

    graded: int = Field(default=0, description="Rubrics the judge graded.")
    passed: int = Field(default=0, description="Graded rubrics that reached their threshold.")
    judge_errors: int = Field(default=0, description="Rubrics the judge could not grade.")
    unscored: int = Field(default=0, description="Rubric cases no judge graded (never a pass).")
    mean_score: float | None = Field(default=None, description="Mean score of the graded ones.")


def _grade(result: CaseResult) -> Mapping[str, Any] | None:
    judge = result.scores.get("judge")
    grade = judge.get("rubric") if isinstance(judge, Mapping) else None
    return grade if isinstance(grade, Mapping) else None


def _unscored(result: CaseResult) -> bool:
    found = result.scores.get("failproof")
    return isinstance(found, Mapping) and bool(found.get("unscored"))


class RubricAccumulator:
    """The ``rubric`` section in one pass; its list aggregator is this accumulator folded."""

    def __init__(self, _ctx: AggregateContext) -> None:
        self.counts = {"graded": 0, "passed": 0, "judge_errors": 0, "unscored": 0}
        self.total = 0.0

    def add(self, result: CaseResult) -> None:
        self.counts["unscored"] += _unscored(result)
        grade = _grade(result)
        if grade is None:
            return
        if grade.get("status") != "ok":
            self.counts["judge_errors"] += 1
            return
        self.counts["graded"] += 1
        self.counts["passed"] += bool(grade.get("passed"))
        score = grade.get("score")
        self.total += float(score) if isinstance(score, int | float) else 0.0

    def finish(self) -> RubricSection | None:
        if not any(self.counts.values()):
            return None
        graded = self.counts["graded"]
        mean = self.total / graded if graded else None
        return RubricSection(**self.counts, mean_score=mean)


accumulators.register("rubric")(RubricAccumulator)
declare_section("rubric", RubricSection)

aggregators.register("rubric")(folded(RubricAccumulator))
