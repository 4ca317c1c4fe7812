"""What a target can take from a case, and why a case it cannot take is ``unsupported``.

A target declares its `Capabilities`; `unsupported_by` compares a case's needs with them before
anything is sent. A case that needs more than the target takes is not sent: its result is
``unsupported`` with the reason (`Unsupported`), counted apart, never a pass, and left out of
every score's denominator (a case that was not run).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from failproof.core._case import Case

__all__ = [
    "NEEDS",
    "Capabilities",
    "Feature",
    "Unsupported",
    "needs_of",
    "too_long",
    "unsupported_by",
]

Feature = Literal["tools", "system_prompt", "conversation", "context"]

#: What cases that need each feature do, for a person: "2 use tools".
NEEDS: dict[Feature, str] = {
    "tools": "use tools",
    "system_prompt": "need a system prompt",
    "conversation": "are conversations",
    "context": "do not fit in the model's context",
}


class Capabilities(BaseModel):
    """What a target can take from a case (every feature by default; no known context limit)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tools: bool = Field(default=True, description="Offers a case's tools and runs its calls.")
    system_prompt: bool = Field(default=True, description="Sends a case's system prompt.")
    conversation: bool = Field(
        default=True, description="Sends earlier turns (a message history, scripted turns)."
    )
    context_tokens: int | None = Field(
        default=None, ge=1, description="The model's context in tokens, when the target knows it."
    )
    because: str = Field(
        default="", description="Why the target lacks what it lacks, for a person (may be empty)."
    )


class Unsupported(BaseModel):
    """Why a case was not sent: it needs a feature the target cannot take."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    feature: Feature = Field(description="What the case needs that the target cannot take.")
    target: str = Field(description="The target's name (local, exec, http, ...).")
    reason: str = Field(description="What would have been lost, and how to test it instead.")


def needs_of(case: Case) -> list[Feature]:
    """The features ``case`` needs beyond one user prompt, in the order they are checked."""
    needs: list[Feature] = []
    if case.tools or case.mcp_servers:
        needs.append("tools")
    messages = case.input if isinstance(case.input, list) else []
    if case.system or any(m.role == "system" for m in messages):
        needs.append("system_prompt")
    if case.turns or sum(m.role != "system" for m in messages) > 1:
        needs.append("conversation")
    return needs


def _tools_reason(case: Case) -> str:
    hidden = any(t.injection for t in case.tools) or bool(case.mcp_servers)
    what = "tools" if case.tools else "MCP servers' tools"
    also = " and the instructions hidden in them" if hidden else ""
    return f"this case's {what}{also} never reached the model"


def _reason(feature: Feature, case: Case, target: str, because: str) -> str:
    why = f" ({because})" if because else ""
    if feature == "tools":
        return f"the {target} target does not send tools{why}; {_tools_reason(case)}"
    if feature == "system_prompt":
        return (
            f"the {target} target does not send a system prompt{why}; the rules this case "
            "sets there would be lost, so its answer would test nothing"
        )
    turns = case.turn_count if case.turns else len(case.messages())
    return (
        f"the {target} target sends one prompt, not a conversation{why}; "
        f"{turns - 1} earlier or later turn(s) of this case would be lost"
    )


def unsupported_by(case: Case, capabilities: Capabilities, target: str) -> Unsupported | None:
    """Why ``target`` (with ``capabilities``) cannot take ``case``, or None when it can."""
    for feature in needs_of(case):
        if feature != "context" and not getattr(capabilities, feature):
            reason = _reason(feature, case, target, capabilities.because)
            return Unsupported(feature=feature, target=target, reason=reason)
    return None


def too_long(prompt_tokens: int, answer_tokens: int, context: int, target: str) -> Unsupported:
    """A case whose prompt and longest answer do not fit in the model's context."""
    return Unsupported(
        feature="context",
        target=target,
        reason=f"the prompt is {prompt_tokens:,} tokens and the answer may take "
        f"{answer_tokens:,}; the {target} target's context holds {context:,} "
        "(load the model with a larger one: -p n_ctx=N)",
    )
