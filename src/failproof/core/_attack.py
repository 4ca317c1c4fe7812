"""What an attack records: the attack, and every step (an attacker's prompt, a target's answer)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from failproof.core._capabilities import Unsupported
from failproof.core._case import Message
from failproof.core._result import utc_now
from failproof.core._tools import ToolUse

__all__ = ["Attack", "AttackStep", "UnsupportedCase"]


class AttackStep(BaseModel):
    """One call of an attack: to the attacker (a new prompt) or to the target (scored)."""

    model_config = ConfigDict(extra="forbid")

    suite: str
    case_id: str
    seq: int = Field(ge=0, description="Order of the step within its case's attack.")
    kind: Literal["attacker", "target"]
    round: int = Field(default=0, ge=0, description="The strategy's round (0: the plain case).")
    parent: int | None = Field(
        default=None, description="Target steps: the target step this one builds on."
    )
    source: int | None = Field(
        default=None, description="Target steps: the attacker step that wrote the prompt."
    )
    note: str = Field(default="", description="What the strategy did, for a person.")
    request: str = Field(description="Fingerprint of the messages sent.")
    messages: list[Message] = Field(default_factory=list, description="What was sent.")
    output: str = ""
    error: str | None = None
    latency_ms: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    tool_uses: list[ToolUse] = Field(
        default_factory=list, description="Target steps of an agent case: the tool calls run."
    )
    tool_limit: bool = Field(default=False, description="The agent hit its step limit.")
    primary: str | None = Field(default=None, description="Target steps: the verdict.")
    decided_by: str | None = Field(
        default=None,
        description="Target steps: who gave the verdict (rules, judge or rules_fallback).",
    )
    reasons: list[str] = Field(default_factory=list, description="The verdict's rules.")
    score: float | None = Field(
        default=None, description="Target steps: 1 when broken, else the probe risk score."
    )
    broken: bool = False


class UnsupportedCase(Unsupported):
    """A case of the attack the target cannot take: never attacked (no call is made for it)."""

    suite: str
    case_id: str


class Attack(BaseModel):
    """One attack: a strategy driving an attacker against a target over some suites."""

    model_config = ConfigDict(extra="forbid")

    id: str
    target: dict[str, Any] = Field(description="The target's identity; never holds secrets.")
    attacker: dict[str, Any] = Field(description="The attacker's identity; never holds secrets.")
    strategy: str
    started_at: datetime = Field(default_factory=utc_now)
    finished_at: datetime | None = None
    status: Literal["running", "finished", "interrupted", "failed"] = "running"
    config: dict[str, Any] = Field(default_factory=dict)
    unsupported: list[UnsupportedCase] = Field(
        default_factory=list,
        description="Cases the target cannot take, found before anything was sent: not attacked, "
        "reported as not tested with the reason, never as held.",
    )
