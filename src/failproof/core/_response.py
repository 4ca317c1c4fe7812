"""What a target gave back for one case, made valid once, here, whatever the target sent.

Every `Response` is checked when it is built: lone surrogates in its text become U+FFFD, token
counts that are not counts are dropped, and an output longer than `MAX_OUTPUT_CHARS` is cut.
What was changed is kept in ``repairs``, so the result shows it.
"""

from __future__ import annotations

import json
import math
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from failproof.core._tools import MAX_TOOL_CALLS, ToolCall, ToolUse
from failproof.guard import loads_json
from failproof.guard._text import clean_data, clean_text

__all__ = ["MAX_OUTPUT_CHARS", "MAX_TOKENS", "Repairs", "Response", "parse_json_output"]

#: The longest output kept (above ten megabytes of text, which every scorer handles); a longer
#: one is cut, and its full length kept in ``repairs``.
MAX_OUTPUT_CHARS = 12_000_000
#: The largest believable token count for one call; a larger one is dropped as not a count.
MAX_TOKENS = 10_000_000
_TEXT_FIELDS = ("output", "error", "finish_reason")
_COUNT_FIELDS = ("prompt_tokens", "completion_tokens")


def parse_json_output(text: str) -> tuple[bool, Any]:
    """Parse ``text`` as JSON. Returns ``(True, value)`` or ``(False, None)``; never raises.

    Deeply nested input (which makes the stdlib parser recurse past its limit) counts as not JSON.
    """
    stripped = text.strip()
    if not stripped or stripped[0] not in '{["-0123456789tfn':
        return False, None
    try:
        return True, loads_json(stripped)
    except (ValueError, RecursionError):
        return False, None


class Repairs(BaseModel):
    """What failproof changed in a response from outside to make it usable."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    replaced_chars: int = Field(default=0, description="Lone surrogates replaced by U+FFFD.")
    original_chars: int | None = Field(
        default=None, description="The output's length before it was cut to the size cap."
    )
    dropped: list[str] = Field(
        default_factory=list, description="Fields the target sent that were unusable, dropped."
    )
    tool_calls_cut: int | None = Field(
        default=None,
        description="How many tool calls the answer asked for, when more than failproof runs "
        "(the rest were dropped).",
    )

    def merged(self, other: Repairs | None) -> Repairs:
        if other is None:
            return self
        return Repairs(
            replaced_chars=self.replaced_chars + other.replaced_chars,
            original_chars=self.original_chars or other.original_chars,
            dropped=sorted({*self.dropped, *other.dropped}),
            tool_calls_cut=self.tool_calls_cut or other.tool_calls_cut,
        )


def _count(value: Any) -> int | None:
    """A token count as an int, or None when it is not a believable count."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        return None
    return int(value) if 0 <= value <= MAX_TOKENS else None


def _repair(data: dict[str, Any]) -> dict[str, Any]:
    replaced = 0
    dropped: list[str] = []
    for name in _TEXT_FIELDS:
        value = data.get(name)
        if isinstance(value, str):
            data[name], n = clean_text(value)
            replaced += n
        elif value is not None and name != "output":
            data[name] = None
            dropped.append(name)
    if data.get("parsed") is not None:
        try:
            data["parsed"], n = clean_data(data["parsed"])
            replaced += 0 if data.get("output") else n  # the output text already counted them
        except RecursionError:  # nested beyond reason: the text is kept, the parse is not
            data["parsed"] = None
    for name in _COUNT_FIELDS:
        if data.get(name) is not None and _count(data[name]) is None:
            dropped.append(name)
        data[name] = _count(data.get(name))
    replaced += _clean_calls(data)
    original = _cut(data)
    calls = _cut_calls(data)
    if replaced or dropped or original is not None or calls is not None:
        mine = Repairs(
            replaced_chars=replaced, original_chars=original, dropped=dropped, tool_calls_cut=calls
        )
        data["repairs"] = mine.merged(_as_repairs(data.get("repairs")))
    return data


def _as_repairs(value: Any) -> Repairs | None:
    if value is None or isinstance(value, Repairs):
        return value
    return Repairs.model_validate(value)


def _clean_calls(data: dict[str, Any]) -> int:
    """Lone surrogates in the tool calls (and a recorded trace) become U+FFFD; how many."""
    total = 0
    for name in ("tool_calls", "tool_uses"):
        items = data.get(name)
        if not isinstance(items, list):
            continue
        cleaned = [_clean_item(item) for item in items]
        data[name] = [item for item, _ in cleaned]
        total += sum(n for _, n in cleaned)
    return total


def _clean_item(item: Any) -> tuple[Any, int]:
    """A call (or executed call), as given or as a dict, with its text cleaned."""
    if isinstance(item, BaseModel):
        fields, replaced = clean_data(item.model_dump())
        return (fields, replaced) if replaced else (item, 0)
    return clean_data(item) if isinstance(item, dict) else (item, 0)


def _cut_calls(data: dict[str, Any]) -> int | None:
    calls = data.get("tool_calls")
    if not isinstance(calls, list) or len(calls) <= MAX_TOOL_CALLS:
        return None
    data["tool_calls"] = calls[:MAX_TOOL_CALLS]
    return len(calls)


def _cut(data: dict[str, Any]) -> int | None:
    output = data.get("output")
    if not isinstance(output, str) or len(output) <= MAX_OUTPUT_CHARS:
        return None
    data["output"] = output[:MAX_OUTPUT_CHARS]
    data["parsed"] = None
    return len(output)


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
    repairs: Repairs | None = Field(
        default=None, description="What was changed to make the target's answer usable."
    )

    @model_validator(mode="before")
    @classmethod
    def _made_valid(cls, data: Any) -> Any:
        return _repair(dict(data)) if isinstance(data, dict) else data

    @classmethod
    def from_output(cls, output: Any, **fields: Any) -> Response:
        """Build a response from text, or from an already structured object (kept as ``parsed``)."""
        if isinstance(output, str):
            ok, value = parse_json_output(output)
            return cls(output=output, parsed=value if ok else None, **fields)
        if output is None:
            return cls(output="", **fields)
        text = _dumps(output)
        ok, value = parse_json_output(text)
        return cls(output=text, parsed=value if ok else None, **fields)

    @classmethod
    def failure(
        cls, error: str, *, latency_ms: float | None = None, request_body: str | None = None
    ) -> Response:
        """A response that carries an error instead of output."""
        return cls(error=error, latency_ms=latency_ms, request_body=request_body)

    @property
    def ok(self) -> bool:
        return self.error is None


def _dumps(value: Any) -> str:
    """A structured output as JSON text; what JSON cannot hold is shown by its ``repr``."""
    try:
        return json.dumps(value, ensure_ascii=False, default=repr)
    except (ValueError, RecursionError):  # a circular or absurdly deep object
        return repr(value)[:MAX_OUTPUT_CHARS]
