"""Two stored scans side by side: findings that appeared or went, definitions that changed."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from failproof.mcp._model import Change, Finding, McpScan
from failproof.mcp._pins import changes_since, pins_of

__all__ = ["ScanComparison", "compare_scans", "comparison_markdown"]


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


def comparison_markdown(comparison: ScanComparison) -> str:
    """The comparison in Markdown: new findings first, then fixed ones, then changed definitions
    with their diffs (text from servers in code spans)."""
    from failproof.render._text import md_code

    lines = [f"# MCP scans {comparison.before} → {comparison.after}", ""]
    lines.append(
        f"{len(comparison.new_findings)} new finding(s), {len(comparison.fixed_findings)} fixed, "
        f"{len(comparison.changes)} changed definition(s)."
    )
    for title, group in (("New", comparison.new_findings), ("Fixed", comparison.fixed_findings)):
        if group:
            lines += ["", f"## {title} findings", ""]
            lines += [
                f"- {f.severity.value} `{f.rule}` {md_code(f'{f.server} {f.kind} {f.item}')}"
                for f in group
            ]
    for change in comparison.changes:
        lines += ["", f"## Changed: {md_code(f'{change.server} {change.kind} {change.item}')}", ""]
        lines += ["~~~~diff", change.diff.replace("~~~~", "~ ~ ~ ~"), "~~~~"]
    return "\n".join(lines) + "\n"
