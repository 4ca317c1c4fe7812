"""The JSON Schema of suite files, for editors and validators."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from failproof.core import Case
from failproof.guard._json import JsonObject

__all__ = ["suite_json_schema"]


class _CaseInFile(Case):
    model_config = ConfigDict(title="Case", extra="forbid", frozen=True)


class SuiteFile(BaseModel):
    """A failproof suite file."""

    model_config = ConfigDict(title="failproof suite", extra="forbid")

    suite: str = Field(pattern=r"^[a-z0-9_]+$", description="Lowercase letters, digits, _.")
    description: str = Field(default="", description="What the suite tests.")
    weight: float = Field(default=1.0, ge=0, description="Weight in the weighted run score.")
    defaults: dict[str, Any] = Field(
        default_factory=dict, description="Keys merged into every case (a case's own keys win)."
    )
    cases: list[_CaseInFile] = Field(min_length=1)


def suite_json_schema() -> JsonObject:
    """JSON Schema (draft 2020-12) of a suite file."""
    schema = SuiteFile.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
