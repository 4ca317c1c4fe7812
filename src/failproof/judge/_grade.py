"""A case's rubric, graded by the judge: the score, the threshold, and the reason it failed."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from failproof.core._case import RubricExpect
from failproof.core._result import Reason
from failproof.judge._client import JudgeAnswer, JudgeAttempt
from failproof.judge._verdicts import RubricVerdict

__all__ = ["RubricGrade"]


class RubricGrade(BaseModel):
    """The judge's grade of one answer against the case's rubric (``scores.judge.rubric``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    status: Literal["ok", "judge_error"]
    name: str | None = Field(default=None, description="The rubric's name, when it has one.")
    template: str = Field(description="name@version of the grading template.")
    threshold: float
    score: float | None = Field(default=None, description="The judge's score, 0 to 1.")
    passed: bool = Field(description="The score reaches the threshold (never on an error).")
    reason: str = Field(default="", description="The judge's reason, or why there is no grade.")
    cached: bool = False
    answers: list[JudgeAttempt] = Field(
        default_factory=list, description="Every call's raw answer, problem and tokens."
    )

    @classmethod
    def of(cls, spec: RubricExpect, answer: JudgeAnswer) -> RubricGrade:
        """The grade in the judge's answer; an answer with no valid verdict never passes."""
        common = {
            "name": spec.name,
            "template": answer.rubric,
            "threshold": spec.threshold,
            "cached": answer.cached,
            "answers": answer.attempts,
        }
        if not answer.ok or answer.verdict is None:
            why = answer.error or "the judge gave no grade"
            return cls(status="judge_error", passed=False, reason=why, **common)
        verdict = RubricVerdict.model_validate(answer.verdict)
        passed = verdict.score >= spec.threshold
        return cls(
            status="ok",
            score=verdict.score,
            passed=passed,
            reason=verdict.reason,
            **common,
        )

    def reasons(self) -> list[Reason]:
        """The failed check this grade adds to the verdict (none when it passed)."""
        named = f" {self.name!r}" if self.name else ""
        if self.status == "judge_error":
            detail = f"the judge could not grade the rubric{named}, so the case cannot pass"
            return [Reason(rule="judge_error", detail=detail, evidence=self.reason[:300])]
        if self.passed:
            return []
        detail = (
            f"the judge grades the answer {self.score:.2f} against the rubric{named}, "
            f"below its threshold {self.threshold:g}"
        )
        return [Reason(rule="rubric", detail=detail, evidence=self.reason[:300] or None)]
