"""Calling a server's tool: the answer as text (content blocks joined, bounded), or the error."""

from __future__ import annotations

import json
from typing import Any

from failproof.guard._text import clean_text
from failproof.mcp._connect import Connection

__all__ = ["MAX_RESULT", "CallOutcome", "call_tool", "result_text"]

MAX_RESULT = 20_000


class CallOutcome:
    """What one call returned: ``text``, and ``error`` when the tool or the server failed."""

    __slots__ = ("error", "text", "tool_error")

    def __init__(self, text: str = "", error: str | None = None, *, tool_error: bool = False):
        self.text = text
        self.error = error
        self.tool_error = tool_error


def _block_text(block: Any) -> str:
    kind = getattr(block, "type", "")
    if kind == "text":
        return str(getattr(block, "text", ""))
    if kind == "resource":
        inner = getattr(block, "resource", None)
        return str(getattr(inner, "text", "") or f"[resource {getattr(inner, 'uri', '')}]")
    return f"[{kind or 'unknown'} content]"


def result_text(result: Any) -> str:
    """A tools/call result as the text a model reads (structured content when no text)."""
    parts = [_block_text(b) for b in getattr(result, "content", None) or []]
    structured = getattr(result, "structured_content", None)
    if not parts and structured is not None:
        parts.append(json.dumps(structured, ensure_ascii=False, default=str))
    return clean_text("\n".join(parts)[:MAX_RESULT])[0]


async def call_tool(connection: Connection, name: str, arguments: dict[str, Any]) -> CallOutcome:
    """Call ``name`` with ``arguments``; a failure is an outcome with an error, never raised."""
    from mcp import MCPError

    try:
        result = await connection.session.call_tool(name, arguments)
    except MCPError as exc:
        return CallOutcome(error=f"the server answered an error: {str(exc)[:500]}")
    text = result_text(result)
    if getattr(result, "is_error", False):
        error = f"the tool reported an error: {text[:500]}"
        return CallOutcome(text=text, error=error, tool_error=True)
    return CallOutcome(text=text)
