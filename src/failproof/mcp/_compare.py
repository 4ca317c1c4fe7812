"""Two stored scans side by side: findings that appeared or went, definitions that changed."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from failproof.mcp._model import Change, Finding, McpScan
from failproof.mcp._pins import changes_since, pins_of

__all__ = ["ScanComparison", "compare_scans"]


class ScanComparison(BaseModel):
    """What changed from scan ``before`` to scan ``after``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    before: str = Field(description="The older scan's id.")
    after: str = Field(description="The newer scan's id.")
    new_findings: list[Finding] = Field(default_factory=list)
    fixed_findings: list[Finding] = Field(default_factory=list)
    changes: list[Change] = Field(default_factory=list, description="Definitions that differ.")
    servers_added: list[str] = Field(default_factory=list)
    servers_removed: list[str] = Field(default_factory=list)


def compare_scans(before: McpScan, after: McpScan) -> ScanComparison:
    """Findings matched by (rule, server, item, location); definitions compared by hash."""
    old = {f.key for f in before.findings}
    new = {f.key for f in after.findings}
    surfaces_before = {s.server: s.surface for s in before.servers if s.surface is not None}
    surfaces_after = {s.server: s.surface for s in after.servers if s.surface is not None}
    changes: list[Change] = []
    for server in sorted(set(surfaces_before) & set(surfaces_after)):
        pins_before = pins_of(surfaces_before[server])
        changes += changes_since(server, pins_before, pins_of(surfaces_after[server]))
    return ScanComparison(
        before=before.id,
        after=after.id,
        new_findings=[f for f in after.findings if f.key not in old],
        fixed_findings=[f for f in before.findings if f.key not in new],
        changes=changes,
        servers_added=sorted(
            {s.server for s in after.servers} - {s.server for s in before.servers}
        ),
        servers_removed=sorted(
            {s.server for s in before.servers} - {s.server for s in after.servers}
        ),
    )
