"""The scan's record: servers, what they list, findings, changes against the pins, probes.

Every model is closed (``extra="forbid"``) and frozen: a scan is written to the store and read
back by ``compare`` and the reports exactly as it was made.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from failproof.core import Severity
from failproof.core._closed import Closed

__all__ = [
    "Change",
    "Finding",
    "ItemKind",
    "McpScan",
    "PromptDef",
    "ResourceDef",
    "ServerScan",
    "ServerSpec",
    "ServerSurface",
    "ToolDef",
    "ToolProbe",
]

#: What a finding or a change is about.
ItemKind = Literal["tool", "resource", "prompt", "server"]


class ServerSpec(Closed):
    """How to reach one MCP server: a command over stdio, or a URL (streamable HTTP or SSE)."""

    transport: Literal["stdio", "http", "sse"]
    command: list[str] = Field(default_factory=list, description="stdio: the program and args.")
    url: str | None = Field(default=None, description="http/sse: the endpoint.")
    headers: dict[str, str] = Field(
        default_factory=dict, description="HTTP headers; values may name ${ENV} variables."
    )
    label: str = Field(description="The server as reports name it (no secrets).")


class ToolDef(Closed):
    """One tool as the server listed it."""

    name: str
    title: str | None = None
    description: str = ""
    input_schema: dict[str, Any] = Field(default_factory=dict)
    output_schema: dict[str, Any] | None = None
    annotations: dict[str, Any] = Field(default_factory=dict)


class ResourceDef(Closed):
    """One resource (or resource template) as the server listed it."""

    uri: str
    name: str = ""
    description: str = ""
    mime_type: str | None = None


class PromptDef(Closed):
    """One prompt as the server listed it, with its arguments' names and descriptions."""

    name: str
    description: str = ""
    arguments: dict[str, str] = Field(default_factory=dict)


class ServerSurface(Closed):
    """Everything one server offers a model."""

    server_name: str = ""
    server_version: str = ""
    instructions: str = ""
    tools: list[ToolDef] = Field(default_factory=list)
    resources: list[ResourceDef] = Field(default_factory=list)
    prompts: list[PromptDef] = Field(default_factory=list)
    truncated: list[str] = Field(
        default_factory=list, description="Listings cut at the limit (tools, resources, ...)."
    )


class Finding(Closed):
    """One thing the scan found, explained: the rule, where, why, and the evidence quoted."""

    rule: str = Field(description="The rule's id, e.g. mcp-hidden-instruction.")
    title: str
    severity: Severity
    server: str = Field(description="The server's label.")
    kind: ItemKind
    item: str = Field(description="The tool, resource or prompt's name ('' for the server).")
    location: str = Field(description="Where: description, a parameter's doc, the name, ...")
    detail: str = Field(description="Why this is a finding, in a sentence.")
    evidence: str = Field(description="The text that triggered it, quoted and shortened.")
    taxonomy: list[str] = Field(default_factory=list, description="OWASP MCP / Agentic / LLM ids.")

    @property
    def key(self) -> str:
        """The finding's identity across scans (compare matches on it)."""
        return "|".join((self.rule, self.server, self.kind, self.item, self.location))


class Change(Closed):
    """A definition that differs from the one pinned for its server: a possible rug pull."""

    server: str
    kind: ItemKind
    item: str
    change: Literal["added", "removed", "description", "schema"]
    diff: str = Field(default="", description="A unified diff of the definition, pinned -> now.")


class ToolProbe(Closed):
    """One call made with --probe: the arguments sent and what came back (shortened)."""

    server: str
    tool: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    result: str = ""
    error: str | None = None


class ServerScan(Closed):
    """One server's part of a scan."""

    server: str = Field(description="The server's label.")
    transport: Literal["stdio", "http", "sse"]
    surface: ServerSurface | None = None
    hashes: dict[str, str] = Field(
        default_factory=dict, description="kind:name -> sha256 of its definition (the pins)."
    )
    pinned: bool = Field(default=False, description="This scan's definitions were pinned.")
    changes: list[Change] = Field(
        default_factory=list, description="What differs from the pins (before this scan)."
    )
    error: str | None = Field(default=None, description="Why the server could not be scanned.")


class McpScan(Closed):
    """A whole ``failproof mcp scan``: what was scanned, found, changed and probed."""

    kind: Literal["mcp_scan"] = "mcp_scan"
    id: str
    started_at: str
    finished_at: str
    servers: list[ServerScan]
    findings: list[Finding] = Field(default_factory=list)
    changes: list[Change] = Field(default_factory=list)
    probes: list[ToolProbe] = Field(default_factory=list)

    @property
    def errors(self) -> list[ServerScan]:
        """The servers that could not be scanned."""
        return [s for s in self.servers if s.error is not None]

    def failing(self, fail_on: Severity = Severity.low) -> list[Finding]:
        """The findings at or above ``fail_on``."""
        order = list(Severity)
        return [f for f in self.findings if order.index(f.severity) >= order.index(fail_on)]

    def exit_code(self, fail_on: Severity = Severity.low) -> int:
        """1 on a finding at or above ``fail_on``, else 3 when a server could not be scanned,
        else 0."""
        if self.failing(fail_on):
            return 1
        return 3 if self.errors else 0
