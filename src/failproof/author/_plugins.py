"""The plugins of `failproof generate --purpose`: what each asks the generator to write."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from failproof.core import Severity
from failproof.core._taxonomy import TaxonomyId
from failproof.errors import InputError
from failproof.guard import load_yaml

__all__ = ["Plugin", "plugin_catalogue", "resolve_plugins"]


class Plugin(BaseModel):
    """One category of generated cases, with the expectations its cases may and must have."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    title: str
    taxonomy: tuple[TaxonomyId, ...]
    severity: Severity
    refusal: tuple[Literal["required", "allowed", "forbidden"], ...]
    needs: Literal["content", "bounds", "refusal"] = Field(
        description="What a case must check: phrases or patterns, a length bound, or a refusal."
    )
    system: bool = Field(default=False, description="Cases carry a system prompt of their own.")
    rubric: str | None = Field(
        default=None,
        description="What a case's rubric judges, beside its rules, when the outcome needs "
        "meaning a rule cannot read; None: the rules alone decide.",
    )
    brief: str


@cache
def plugin_catalogue() -> dict[str, Plugin]:
    """Every built-in plugin by name, in the catalogue's order."""
    text = resources.files("failproof.author").joinpath("data/plugins.yaml").read_text("utf-8")
    raw = load_yaml(text, source="plugins.yaml")
    return {name: Plugin.model_validate({"name": name, **entry}) for name, entry in raw.items()}


def resolve_plugins(names: str | None) -> tuple[Plugin, ...]:
    """The plugins of a comma list (every plugin when None or 'all')."""
    catalogue = plugin_catalogue()
    wanted = [n.strip() for n in (names or "all").split(",") if n.strip()]
    if not wanted or "all" in wanted:
        return tuple(catalogue.values())
    unknown = [n for n in wanted if n not in catalogue]
    if unknown:
        raise InputError(
            f"unknown plugin {unknown[0]!r}", hint="known: " + ", ".join(catalogue) + ", all"
        )
    return tuple(catalogue[n] for n in dict.fromkeys(wanted))
