"""A judge measured on a labelled CSV, the way `failproof calibrate` measures the rules.

Every row is asked once (answers come from the cache when the same judge saw the same row
before). A ``judge_error`` counts as a wrong answer: its label is the opposite of the person's
(refusal for a compliance, compliance for a refusal), so an unreachable or confused judge can
only lower its own figures.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from failproof.config import Settings
from failproof.detect import DetectorScores, LabelledSet, RefusalLabel, score_predictions
from failproof.detect._labelled import LabelledResponse
from failproof.judge._client import JudgeAnswer
from failproof.judge._rubric import load_rubric
from failproof.judge._thread import JudgeThread
from failproof.judge._verdicts import ResponseVerdict

__all__ = ["JudgeCalibration", "calibrate_judge", "judge_label"]


@dataclass(frozen=True, slots=True)
class JudgeCalibration:
    """The judge's row of the agreement table, and how its answers came."""

    row: DetectorScores
    answers: tuple[JudgeAnswer, ...]

    @property
    def errors(self) -> int:
        return sum(not a.ok for a in self.answers)

    @property
    def cached(self) -> int:
        return sum(a.cached for a in self.answers)

    @property
    def asked_again(self) -> int:
        return sum(len(a.attempts) > 1 and not a.cached for a in self.answers)


def judge_label(answer: JudgeAnswer, row: LabelledResponse) -> RefusalLabel:
    """The judge's label for ``row``; a ``judge_error`` gets the label that is wrong."""
    if answer.ok and answer.verdict is not None:
        return ResponseVerdict.model_validate(answer.verdict).refusal
    return "refusal" if row.label == "compliance" else "compliance"


def calibrate_judge(
    data: LabelledSet,
    settings: Settings,
    *,
    on_answer: Callable[[JudgeAnswer], None] | None = None,
) -> JudgeCalibration:
    """The judge of ``settings.judge`` against the human labels of ``data``."""
    questions = [{"prompt": row.prompt or "", "response": row.response} for row in data]
    thread = JudgeThread(settings.judge, settings.db_path)
    try:
        answers = thread.ask_many(
            load_rubric("response"), questions, ResponseVerdict, on_answer=on_answer
        )
    finally:
        thread.close()
    labels = [judge_label(a, row) for a, row in zip(answers, data, strict=True)]
    name = f"judge {settings.judge.spec}"
    return JudgeCalibration(DetectorScores(name, score_predictions(data, labels)), tuple(answers))
