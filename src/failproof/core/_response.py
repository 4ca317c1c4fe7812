"""What a target gave back for one case."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from failproof.core._tools import ToolCall, ToolUse

__all__ = ["Response", "parse_json_output"]

_NOT_JSON = object()


def parse_json_output(text: str) -> tuple[bool, Any]:
    """Parse ``text`` as JSON. Returns ``(True, value)`` or ``(False, None)``; never raises.

    Deeply nested input (which makes the stdlib parser recurse past its limit) counts as not JSON.
    """
    stripped = text.strip()
    if not stripped or stripped[0] not in '{["-0123456789tfn':
        return False, None
    try:
        return True, json.loads(stripped)
    except (ValueError, RecursionError):
        return False, None


class Response(BaseModel):
    """A target's output for one case, or the error that happened instead."""

    model_config = ConfigDict(extra="forbid")

    output: str = Field(default="", description="The output text ('' on error).")
    parsed: Any = Field(default=None, description="The output parsed as JSON, when it parses.")
    latency_ms: float | None = Field(default=None, ge=0)
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    finish_reason: str | None = None
    error: str | None = Field(default=None, description="Why no output was produced.")
    cached: bool = Field(default=False, description="Served from the response cache.")
    request_body: str | None = Field(
        default=None,
        description="The exact request body sent, secrets redacted: set by targets that build "
        "their own body from a template (http:) rather than send the case's messages as they are.",
    )
    tool_calls: list[ToolCall] = Field(
        default_factory=list, description="The tool calls the model asked for in this answer."
    )
    tool_uses: list[ToolUse] = Field(
        default_factory=list, description="Every tool call executed before this final answer."
    )
    tool_limit: bool = Field(
        default=False, description="The model was still calling tools at the step limit."
    )

    @classmethod
    def from_output(cls, output: Any, **fields: Any) -> Response:
        """Build a response from text, or from an already structured object (kept as ``parsed``)."""
        if isinstance(output, str):
            ok, value = parse_json_output(output)
            return cls(output=output, parsed=value if ok else None, **fields)
        if output is None:
            return cls(output="", **fields)
        return cls(output=json.dumps(output, ensure_ascii=False), parsed=output, **fields)

    @classmethod
    def failure(
        cls, error: str, *, latency_ms: float | None = None, request_body: str | None = None
    ) -> Response:
        """A response that carries an error instead of output."""
        return cls(error=error, latency_ms=latency_ms, request_body=request_body)

    @property
    def ok(self) -> bool:
        return self.error is None
