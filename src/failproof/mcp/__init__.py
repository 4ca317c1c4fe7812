"""MCP: scan the tool surface of Model Context Protocol servers, and serve a rogue one.

`scan_servers` lists each server's tools, resources and prompts, checks every definition
(hidden instructions, invisible characters, deceptive names, shadowing, secrets, over-broad
schemas), compares them with the pins, and probes tools the user allows. The SDK (the ``mcp``
extra) is imported only when a server is contacted.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.mcp._calls import CallOutcome, call_tool
    from failproof.mcp._compare import ScanComparison, compare_scans, comparison_markdown
    from failproof.mcp._connect import Connection, McpServerError, connect, require_sdk
    from failproof.mcp._listing import list_surface, list_tools
    from failproof.mcp._model import (
        Change,
        Finding,
        McpScan,
        PromptDef,
        ResourceDef,
        ServerScan,
        ServerSpec,
        ServerSurface,
        ToolDef,
        ToolProbe,
    )
    from failproof.mcp._render import RENDERERS
    from failproof.mcp._rogue import SCENARIOS, build_rogue, rogue_spec
    from failproof.mcp._rules import Rule, rulebook
    from failproof.mcp._scan import ScanOptions, describe_error, scan_servers
    from failproof.mcp._servers import expand_headers, parse_server

__all__ = [
    "RENDERERS",
    "SCENARIOS",
    "CallOutcome",
    "Change",
    "Connection",
    "Finding",
    "McpScan",
    "McpServerError",
    "PromptDef",
    "ResourceDef",
    "Rule",
    "ScanComparison",
    "ScanOptions",
    "ServerScan",
    "ServerSpec",
    "ServerSurface",
    "ToolDef",
    "ToolProbe",
    "build_rogue",
    "call_tool",
    "compare_scans",
    "comparison_markdown",
    "connect",
    "describe_error",
    "expand_headers",
    "list_surface",
    "list_tools",
    "parse_server",
    "require_sdk",
    "rogue_spec",
    "rulebook",
    "scan_servers",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "._calls": ("CallOutcome", "call_tool"),
        "._compare": ("ScanComparison", "compare_scans", "comparison_markdown"),
        "._connect": ("Connection", "McpServerError", "connect", "require_sdk"),
        "._listing": ("list_surface", "list_tools"),
        "._model": (
            "Change",
            "Finding",
            "McpScan",
            "PromptDef",
            "ResourceDef",
            "ServerScan",
            "ServerSpec",
            "ServerSurface",
            "ToolDef",
            "ToolProbe",
        ),
        "._render": ("RENDERERS",),
        "._rogue": ("SCENARIOS", "build_rogue", "rogue_spec"),
        "._rules": ("Rule", "rulebook"),
        "._scan": ("ScanOptions", "describe_error", "scan_servers"),
        "._servers": ("expand_headers", "parse_server"),
    },
)
