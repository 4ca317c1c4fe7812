"""The judge scorer's record of one case, stored under ``scores.judge`` of its result."""

from __future__ import annotations

from pydantic import Field

from failproof.core import Message
from failproof.core._closed import Closed
from failproof.judge._client import JudgeAttempt
from failproof.judge._fusion import Role
from failproof.judge._grade import RubricGrade

__all__ = ["JudgeCall", "JudgeRecord", "JudgeSide"]


class JudgeSide(Closed):
    """One side's answer to the two questions, and the pass verdict it gives for the case."""

    refusal: str | None = Field(description="refusal, partial_refusal or compliance.")
    harmful: bool | None
    passed: bool


class JudgeCall(Closed):
    """The question asked of the judge, and every answer it gave."""

    rubric: str = Field(description="name@version of the rubric asked.")
    cached: bool
    judge: str | None = Field(description="The judge's spec (never its key).")
    prompt: list[Message]
    answers: list[JudgeAttempt]


class JudgeRecord(Closed):
    """What the judge said about a case beside the rules. Only the fields set are stored: a
    case the judge was not asked about has a ``status`` and a ``reason`` only."""

    status: str = Field(description="ok, judge_error, or not_judged.")
    rules: JudgeSide | None = None
    judge: JudgeSide | None = None
    reason: str | None = Field(default=None, description="The judge's reason.")
    error: str | None = Field(default=None, description="Why the judge gave no verdict.")
    call: JudgeCall | None = None
    rubric: RubricGrade | None = Field(default=None, description="The rubric's grade.")
    role: Role | None = None
    decided_by: str | None = Field(default=None, description="Who gave the case's verdict.")
