"""The project section: what ``failproof run`` runs when it is given no suites or target.

``failproof init`` writes it; in ``failproof.toml``::

    [project]
    suites = ["injection", "suites/support_bot.yaml"]
    targets = ["openai:gpt-4o-mini"]

or, with options per target (and several targets run side by side)::

    [[project.targets]]
    spec = "openai:gpt-4o-mini"
    label = "mini"
    params = { temperature = 0 }
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator

__all__ = ["ProjectSettings", "ProjectTarget"]

_LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class ProjectTarget(BaseModel):
    """One target of the project, with the options ``failproof run`` takes as flags."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    spec: str = Field(min_length=1, description="The target (openai:MODEL, litellm:..., http:URL).")
    label: str | None = Field(
        default=None,
        description="Its name in side-by-side reports and its report folder (default: from spec).",
    )
    base_url: str | None = Field(default=None, description="OpenAI-compatible server (--base-url).")
    api_key_env: str | None = Field(
        default=None, description="Variable holding the key (--api-key-env)."
    )
    params: dict[str, JsonValue] = Field(
        default_factory=dict, description="Model parameters (--param key=value)."
    )
    headers: dict[str, str] = Field(
        default_factory=dict, description="http: headers, ${VAR} from the environment (--header)."
    )
    body: str | None = Field(default=None, description="http: JSON body template (--body).")
    json_path: str | None = Field(default=None, description="http: where the output is.")

    @field_validator("label")
    @classmethod
    def _label(cls, value: str | None) -> str | None:
        if value is not None and not _LABEL.match(value):
            raise ValueError("letters, digits, '-', '_' and '.', at most 64, no path")
        return value

    @property
    def name(self) -> str:
        """The label, or one made from the spec (``openai-gpt-4o-mini``)."""
        if self.label:
            return self.label
        return re.sub(r"[^A-Za-z0-9_.-]+", "-", self.spec).strip("-.")[:64] or "target"


class ProjectSettings(BaseModel):
    """What ``failproof run`` runs when given no suites or target; written by ``failproof init``.

    Give ``targets`` as specs (``["openai:gpt-4o-mini"]``) or tables with options; several
    targets are run one after another on the same suites and reported side by side.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    suites: list[str] = Field(
        default_factory=list,
        description="Suite names or files (relative to the project file) for 'failproof run'.",
    )
    targets: list[ProjectTarget] = Field(
        default_factory=list, description="Targets 'failproof run' sends the suites to."
    )

    @field_validator("targets", mode="before")
    @classmethod
    def _specs(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [value]
        if isinstance(value, list):
            return [{"spec": item} if isinstance(item, str) else item for item in value]
        return value

    @field_validator("suites", mode="before")
    @classmethod
    def _one_suite(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value
