"""Response-side probing: call tools and scan what they return for injected instructions.

Only the calls the user allows are made: the tools given arguments with ``--probe-args``, and,
with ``--probe read-only``, the tools the server marks ``readOnlyHint`` called with the
smallest arguments their schema accepts (a tool whose required arguments cannot be made up is
skipped). A probe never calls a tool that may change anything unless the user named it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from failproof.guard._json import JsonObject
from failproof.mcp._calls import call_tool
from failproof.mcp._checks import text_findings
from failproof.mcp._connect import Connection
from failproof.mcp._model import Finding, ServerSurface, ToolDef, ToolProbe
from failproof.mcp._rules import rulebook
from failproof.mcp._texts import Text

__all__ = ["RESPONSE_RULES", "probe_surface", "response_findings", "sample_arguments"]

RESPONSE_RULES = (
    "mcp-instruction-override",
    "mcp-concealment",
    "mcp-sensitive-read",
    "mcp-cross-tool-data",
    "mcp-markup",
)
_SAMPLES: dict[str, Any] = {
    "string": "failproof",
    "integer": 1,
    "number": 1,
    "boolean": False,
    "array": [],
    "object": {},
}


def _sample(schema: object) -> tuple[bool, Any]:
    if not isinstance(schema, dict):
        return False, None
    for key in ("const", "default"):
        if key in schema:
            return True, schema[key]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return True, schema["enum"][0]
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) and kind else kind
    return (True, _SAMPLES[kind]) if isinstance(kind, str) and kind in _SAMPLES else (False, None)


def sample_arguments(tool: ToolDef) -> JsonObject | None:
    """The smallest arguments ``tool``'s schema accepts (its required ones), or None."""
    properties = tool.input_schema.get("properties") or {}
    required = tool.input_schema.get("required") or []
    arguments: dict[str, Any] = {}
    for name in required:
        known, value = _sample(properties.get(name) if isinstance(properties, dict) else None)
        if not known:
            return None
        arguments[str(name)] = value
    return arguments


def _planned(
    surface: ServerSurface, allowed: Mapping[str, dict[str, Any]], read_only: bool
) -> list[tuple[ToolDef, JsonObject]]:
    plan: list[tuple[ToolDef, dict[str, Any]]] = []
    for tool in surface.tools:
        if tool.name in allowed:
            plan.append((tool, dict(allowed[tool.name])))
        elif read_only and tool.annotations.get("readOnlyHint") is True:
            arguments = sample_arguments(tool)
            if arguments is not None:
                plan.append((tool, arguments))
    return plan


async def probe_surface(
    connection: Connection,
    server: str,
    surface: ServerSurface,
    *,
    allowed: Mapping[str, dict[str, Any]],
    read_only: bool,
) -> list[ToolProbe]:
    """Call the allowed tools once each, in listing order."""
    probes: list[ToolProbe] = []
    for tool, arguments in _planned(surface, allowed, read_only):
        outcome = await call_tool(connection, tool.name, arguments)
        probes.append(
            ToolProbe(
                server=server,
                tool=tool.name,
                arguments=arguments,
                result=outcome.text,
                error=outcome.error,
            )
        )
    return probes


def response_findings(probe: ToolProbe) -> list[Finding]:
    """Instructions found in what a probed tool returned (one finding per rule that matched)."""
    book = rulebook()
    rule = book.rule("mcp-response-injection")
    text = Text("tool", probe.tool, "response", probe.result)
    found = text_findings(book, probe.server, text, RESPONSE_RULES)
    return [
        f.model_copy(
            update={
                "rule": rule.id,
                "title": rule.title,
                "severity": max(f.severity, rule.severity, key=_rank),
                "detail": f"{f.title}: {f.detail}",
                "taxonomy": sorted({*rule.taxonomy, *f.taxonomy}),
                "location": f"response ({f.rule})",
            }
        )
        for f in found
    ]


def _rank(severity: object) -> int:
    return ["low", "medium", "high", "critical"].index(str(severity))
