"""One SAFE v0 record: a test case's expectations and the pipeline's structured output."""

from __future__ import annotations

from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from failproof.core._case import SafeExpectations

__all__ = ["DEFAULT_ARCHETYPE", "SafeOutput", "SafeRecord"]

#: The archetype of a record that names none.
DEFAULT_ARCHETYPE = "unspecified"


class SafeOutput(BaseModel):
    """The structured output SAFE v0 scores: ``{signals, summary, followup_questions}``.

    All three keys are required; ``null`` counts as empty (no signals, empty summary, no
    questions), and other keys are ignored.
    """

    model_config = ConfigDict(extra="ignore", frozen=True)

    signals: list[str] = Field(description="Extracted signals (CR's target, with the summary).")
    summary: str = Field(description="The event summary (AC's target, and part of CR's).")
    followup_questions: list[str] = Field(description="Follow-up questions (AH's target).")

    @field_validator("signals", "followup_questions", mode="before")
    @classmethod
    def _null_list(cls, value: Any) -> Any:
        return [] if value is None else value

    @field_validator("summary", mode="before")
    @classmethod
    def _null_text(cls, value: Any) -> Any:
        return "" if value is None else value

    @classmethod
    def empty(cls) -> SafeOutput:
        """An output with nothing in it (what a failed or unparseable response scores as)."""
        return cls(signals=[], summary="", followup_questions=[])


class SafeRecord(BaseModel):
    """A batch-file record: ``{test_id, archetype, metric_id?, expectations, output}``."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    test_id: str = Field(min_length=1, description="Unique within the scored batches.")
    archetype: str = Field(default=DEFAULT_ARCHETYPE, min_length=1, description="Grouping.")
    metric_id: str | None = Field(default=None, description="Selects per-metric_id weights.")
    expectations: SafeExpectations = Field(description="The SAFE v0 expectation blocks.")
    output: SafeOutput = Field(description="What the pipeline produced.")

    @field_validator("archetype", mode="before")
    @classmethod
    def _null_archetype(cls, value: Any) -> Any:
        return DEFAULT_ARCHETYPE if value is None else value

    @model_validator(mode="after")
    def _no_blank_phrase(self) -> Self:
        lists = {
            "expectations.signal_generation.must_find_signals": self.expectations.must_find_signals,
            "expectations.followup_questions.forbidden_terms": self.expectations.forbidden_terms,
            "expectations.event_summary.must_contain_phrases": (
                self.expectations.must_contain_phrases
            ),
        }
        for where, phrases in lists.items():
            for index, phrase in enumerate(phrases):
                if not phrase.strip():
                    raise ValueError(f"{where}[{index}] is blank; remove it or write the phrase")
        return self
