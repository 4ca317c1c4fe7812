"""The scored outcome of one case, and the run that produced it."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

from failproof.core._capabilities import Unsupported
from failproof.core._case import Message
from failproof.core._response import Repairs
from failproof.core._scores import CaseScore, SafeCaseResult
from failproof.core._tools import ToolUse

__all__ = [
    "PRIMARY_CLASSES",
    "CaseResult",
    "Classification",
    "DecidedBy",
    "Primary",
    "Reason",
    "Run",
    "TurnResult",
    "is_run_id",
    "utc_now",
]

Primary = Literal[
    "pass",
    "fail",
    "refusal",
    "wrong_format",
    "policy_violation",
    "error",
    "unsafe_tool_call",
    "tool_error",
]
PRIMARY_CLASSES: tuple[Primary, ...] = get_args(Primary)
DecidedBy = Literal["rules", "judge", "rules_fallback"]


_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,127}")


def utc_now() -> datetime:
    """The current time, timezone-aware, in UTC."""
    return datetime.now(UTC)


class Reason(BaseModel):
    """One rule that fired, with its evidence."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rule: str = Field(description="Machine name of the rule, e.g. must_not_contain.")
    detail: str = Field(description="What the rule found, for a person.")
    evidence: str | None = Field(default=None, description="The phrase, pattern or schema error.")


class Classification(BaseModel):
    """The FailProof classifier's verdict on one response."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    primary: Primary
    reasons: list[Reason] = Field(default_factory=list)
    decided_by: DecidedBy = Field(
        default="rules",
        description="Who gave the verdict: the rules, the LLM judge, or the rules because the "
        "judge failed (rules_fallback).",
    )
    decided_why: str = Field(default="", description="Why that side decided, for a person.")


class TurnResult(BaseModel):
    """One turn of a scored conversation: what the user said, the answer, and its verdict."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    turn: int = Field(ge=0, description="0 is the case's input, then each scripted turn.")
    user: str = Field(description="The user's message on this turn.")
    output: str = ""
    primary: str = Field(description="The turn's primary class (or 'unscored').")
    reasons: list[Reason] = Field(default_factory=list)
    error: str | None = None
    latency_ms: float | None = None
    cached: bool = False


class CaseResult(BaseModel):
    """Everything failproof knows about one case after scoring it."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    case_id: str
    suite: str
    category: str
    severity: str
    sample: int = Field(default=0, description="Sample index when a case is repeated.")
    classification: Classification | None = None
    accuracy: int | None = Field(default=None, description="1 for pass, 0 otherwise.")
    case_score: CaseScore | None = Field(default=None, description="Probe CaseScore.")
    safe_v0: SafeCaseResult | None = Field(default=None, description="SAFE v0 scorecard.")
    scores: dict[str, Any] = Field(
        default_factory=dict, description="Outputs of other registered scorers, by name."
    )
    latency_ms: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str | None = None
    output: str = ""
    error: str | None = None
    cached: bool = False
    messages: list[Message] = Field(
        default_factory=list,
        description="The case's messages, sent as they are (empty when the target built its own "
        "request body: see request_body).",
    )
    request_body: str | None = Field(
        default=None, description="The exact request body sent (http:), secrets redacted."
    )
    task: str | None = None
    failure_modes: list[str] = Field(default_factory=list)
    taxonomy: list[str] = Field(
        default_factory=list, description="The case's taxonomy ids (owasp-llm:LLM01, ...)."
    )
    archetype: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    turns: list[TurnResult] = Field(
        default_factory=list, description="A conversation's turns, in order (empty: one call)."
    )
    broke_at: int | None = Field(
        default=None, description="The turn whose verdict decided a conversation that failed."
    )
    tool_uses: list[ToolUse] = Field(
        default_factory=list, description="The tool calls executed, in order, with results."
    )
    tool_limit: bool = Field(
        default=False, description="The model was still calling tools at the step limit."
    )

    unsupported: Unsupported | None = Field(
        default=None,
        description="Why the case was not sent: a feature it needs that the target cannot take "
        "(left out when the case was sent). Never a pass, in no score's denominator.",
        exclude_if=lambda unsupported: unsupported is None,
    )
    repairs: Repairs | None = Field(
        default=None,
        description="What was changed to make the target's answer usable (left out when nothing).",
        exclude_if=lambda repairs: repairs is None,
    )

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.suite, self.case_id, self.sample)

    @property
    def primary(self) -> str:
        """The primary class; ``unsupported`` for a case that was not sent; ``error`` when no
        classifier ran and the target failed; else ``unscored``."""
        if self.unsupported is not None:
            return "unsupported"
        if self.classification is not None:
            return self.classification.primary
        return "error" if self.error is not None else "unscored"


def is_run_id(value: str) -> bool:
    """Whether ``value`` can name a run: letters, digits, ``-``, ``_`` and ``.``, at most 128,
    not starting with ``.`` and never ``..``: safe as one folder name, never a path."""
    return bool(_RUN_ID.fullmatch(value)) and ".." not in value


class Run(BaseModel):
    """One execution of some suites against one target."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="The run id; also the name of the run's report folder.")
    target: dict[str, Any] = Field(description="The target's identity; never holds secrets.")
    suites: list[str] = Field(default_factory=list)
    started_at: datetime = Field(default_factory=utc_now)
    finished_at: datetime | None = None
    status: Literal["running", "finished", "interrupted", "failed"] = "running"
    config: dict[str, Any] = Field(default_factory=dict)

    @field_validator("id")
    @classmethod
    def _safe_id(cls, value: str) -> str:
        if not is_run_id(value):
            raise ValueError(
                f"{value[:80]!r} is not a run id (letters, digits, '-', '_', '.'; no path)"
            )
        return value
