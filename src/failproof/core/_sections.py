"""What every report section is built on: a closed model, and one `Interval` type for every
confidence interval.

A section is a frozen pydantic model that refuses keys it does not declare and is read by
attribute. Field names and their order are report.json's contract (the seeds' names); numbers keep
their JSON kind (an integer stays an integer). Each section's model lives beside its producer;
only third-party sections (``extensions``) stay open.
"""

from __future__ import annotations

from pydantic import AliasChoices, BaseModel, ConfigDict, Field

from failproof.guard._json import JsonObject

__all__ = ["AliasedSection", "Interval", "Number", "Section"]

#: A JSON number, kept as the kind it was computed as (1 stays 1, 1.0 stays 1.0).
Number = int | float


class Section(BaseModel):
    """A frozen piece of a report that refuses unknown keys: a misspelled key is an error."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class AliasedSection(Section):
    """A section some of whose fields are written under another name than their attribute's (a
    keyword such as ``pass``): read by either name, written by the alias."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        serialize_by_alias=True,
        validate_by_name=True,
        defer_build=True,
    )


class Interval(AliasedSection):
    """A point estimate with its bounds, how they were computed, and at what confidence level.

    Written as ``{estimate, low, high, n, method, confidence}``. Bounds are None when n is 0.
    """

    estimate: Number | None
    low: Number | None
    high: Number | None
    n: Number = Field(default=0, description="Sample size (effective size for weighted rates).")
    method: str = Field(description="wilson, wilson_kish, bootstrap, ...")
    level: float = Field(
        default=0.95,
        validation_alias=AliasChoices("confidence", "level"),
        serialization_alias="confidence",
        description="Confidence level, written as confidence.",
    )

    @property
    def confidence(self) -> float:
        return self.level

    @property
    def has_bounds(self) -> bool:
        return self.low is not None and self.high is not None

    def as_dict(self) -> JsonObject:
        """The JSON form (``confidence`` for the level)."""
        return self.model_dump(mode="json")
