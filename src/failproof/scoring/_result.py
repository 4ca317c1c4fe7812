"""What one scorer says about one response: the `CaseResult` fields it sets, and its own keys."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from failproof.core import CaseScore, Classification, SafeCaseResult

__all__ = ["ScoreResult"]

T = TypeVar("T")


class ScoreResult(BaseModel):
    """A scorer's result on one case, read by attribute.

    ``classification``, ``accuracy``, ``case_score`` and ``safe_v0`` are set on the `CaseResult`
    (a later scorer's replaces an earlier one's: scorers run in name order); ``record`` (a
    built-in scorer's own typed record: the fields it set) and ``extra`` (a plugin's free-form
    keys) are kept together under ``CaseResult.scores[scorer.name]``.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    classification: Classification | None = None
    accuracy: int | None = Field(default=None, ge=0, le=1, description="1 for pass, else 0.")
    case_score: CaseScore | None = None
    safe_v0: SafeCaseResult | None = None
    record: BaseModel | None = Field(
        default=None, description="The scorer's own record; the fields it set are stored."
    )
    extra: dict[str, Any] = Field(default_factory=dict, description="A plugin's own keys.")

    def over(self, earlier: ScoreResult) -> ScoreResult:
        """The result fields of ``earlier`` with each one this result sets replacing its own
        (``record`` and ``extra`` are not result fields: what they hold here is not read)."""
        if not earlier.sets_fields():
            return self
        return ScoreResult(
            classification=_later(self.classification, earlier.classification),
            accuracy=_later(self.accuracy, earlier.accuracy),
            case_score=_later(self.case_score, earlier.case_score),
            safe_v0=_later(self.safe_v0, earlier.safe_v0),
        )

    def sets_fields(self) -> bool:
        """Whether this result sets any `CaseResult` field."""
        return not (
            self.classification is None
            and self.accuracy is None
            and self.case_score is None
            and self.safe_v0 is None
        )

    def kept(self) -> dict[str, object]:
        """What is stored under ``scores[scorer.name]`` (nothing when empty)."""
        record = self.record
        if record is None:
            return dict(self.extra)
        unset = set(type(record).model_fields) - record.model_fields_set
        return record.model_dump(mode="json", exclude=unset) | self.extra


def _later(value: T | None, earlier: T | None) -> T | None:
    return earlier if value is None else value
