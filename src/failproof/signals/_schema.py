"""The schema of a signal-pattern file: a list of named, weighted, linear-time patterns."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from failproof.signals._types import SignalKind, SignalPosition

__all__ = ["Pattern", "PatternFile"]

_ID = r"^[a-z0-9][a-z0-9_.\-]*$"


class Pattern(BaseModel):
    """One signal: a regular expression (RE2 syntax, matched case-insensitively) and what it means.

    The YAML key ``register`` is the attribute ``register_`` (``register`` is taken by the class).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    id: str = Field(
        pattern=_ID, description="Unique across the library; a user file reusing it overrides."
    )
    label: str = Field(min_length=1, description="Human label shown in reports.")
    kind: SignalKind = Field(
        description="safe: refusal / boundary language; unsafe: harm evidence; cue: neither alone "
        "(harm-category vocabulary, read by the harm judge)."
    )
    weight: float = Field(default=1.0, gt=0, le=10, description="Evidence strength.")
    regex: str = Field(min_length=1, description="RE2 syntax, matched case-insensitively.")
    failure_modes: tuple[str, ...] = Field(
        default=(), description="Failure modes this pattern is evidence of."
    )
    position: SignalPosition = Field(
        default="anywhere", description="start: the match must begin within the answer's opening."
    )
    lang: str | None = Field(default=None, description="Language of the phrasing (ISO 639-1).")
    register_: str | None = Field(
        default=None,
        alias="register",
        description="apology | policy | capability | redirection | boundary | ...",
    )
    examples: tuple[str, ...] = Field(default=(), description="Texts the pattern must match.")
    counterexamples: tuple[str, ...] = Field(
        default=(), description="Texts the pattern must not match."
    )
    notes: str | None = Field(default=None, description="Why the pattern exists; for maintainers.")


class PatternFile(BaseModel):
    """A pattern file: optional description, then ``patterns``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str | None = None
    patterns: tuple[Pattern, ...] = Field(default=())
