"""A named collection of cases loaded from one suite file."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from failproof.core._case import Case

__all__ = ["Suite"]


class Suite(BaseModel):
    """A suite: a name, an optional weight for the weighted run score, and its cases."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[a-z0-9_]+$")
    description: str = ""
    weight: float = Field(default=1.0, ge=0)
    cases: tuple[Case, ...]
    source: str | None = Field(default=None, description="The file the suite was loaded from.")

    def __len__(self) -> int:
        return len(self.cases)
