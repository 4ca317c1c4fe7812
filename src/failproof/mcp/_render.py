"""A scan's reports: JSON (the record), Markdown, HTML and JUnit, all from the same findings.

Everything a server listed is hostile: Markdown escapes it (or shows it as code), HTML escapes
it, JUnit writes only characters XML allows.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable

from failproof.core import Severity
from failproof.guard import redact
from failproof.mcp._model import Finding, McpScan, ServerScan
from failproof.mcp._rules import rulebook
from failproof.render._page import static_page
from failproof.render._text import html_text, md_code, md_text, xml_text

__all__ = ["RENDERERS", "render_html", "render_json", "render_junit", "render_markdown"]

_ORDER = list(Severity)


def _failing(finding: Finding, fail_on: Severity) -> bool:
    return _ORDER.index(finding.severity) >= _ORDER.index(fail_on)


def _verdict(scan: McpScan, fail_on: Severity) -> str:
    failing = scan.failing(fail_on)
    if failing:
        return f"FAIL: {len(failing)} finding(s) at or above {fail_on.value}"
    if scan.errors:
        return f"INCOMPLETE: {len(scan.errors)} server(s) could not be scanned"
    return "PASS: no finding at or above " + fail_on.value


def render_json(scan: McpScan, fail_on: Severity = Severity.low) -> str:  # noqa: ARG001
    """The scan's record as JSON (what the store holds)."""
    return redact(scan.model_dump_json(indent=2)) + "\n"


def _where(finding: Finding) -> str:
    return f"{finding.kind} {finding.item}".strip() + f" ({finding.location})"


def render_markdown(scan: McpScan, fail_on: Severity = Severity.low) -> str:
    """A Markdown summary: verdict, servers, findings, changes with their diffs."""
    lines = [f"# MCP scan {scan.id}", "", f"**{_verdict(scan, fail_on)}**", ""]
    lines += [
        "| server | transport | tools | resources | prompts | status |",
        "|---|---|---|---|---|---|",
    ]
    lines += [_server_row(s) for s in scan.servers]
    lines += ["", "## Findings", ""]
    if not scan.findings:
        lines.append("None.")
    else:
        lines += [
            "| severity | rule | server | where | evidence | taxonomy |",
            "|---|---|---|---|---|---|",
        ]
        for f in scan.findings:
            cells = (f.severity.value, f.rule, md_code(f.server), md_code(_where(f)))
            tail = (md_code(f.evidence, 200), ", ".join(f.taxonomy))
            lines.append("| " + " | ".join((*cells, *tail)) + " |")
    for change in scan.changes:
        lines += ["", f"### Changed: {change.kind} {md_text(change.item)} ({change.change})", ""]
        lines += ["~~~~diff", change.diff.replace("~~~~", "~ ~ ~ ~"), "~~~~"]
    return redact("\n".join(lines)) + "\n"


def _server_row(server: ServerScan) -> str:
    surface = server.surface
    counts = (
        [str(len(surface.tools)), str(len(surface.resources)), str(len(surface.prompts))]
        if surface is not None
        else ["-", "-", "-"]
    )
    status = md_text(server.error, 200) if server.error else "scanned"
    return "| " + " | ".join((md_code(server.server), server.transport, *counts, status)) + " |"


_STYLE = (
    "body{font-family:system-ui,sans-serif;margin:2rem;max-width:80rem}"
    "table{border-collapse:collapse;width:100%}td,th{border:1px solid #ccc;padding:.3rem;"
    "vertical-align:top;text-align:left}pre{white-space:pre-wrap;background:#f6f6f6;padding:.5rem}"
    ".critical,.high{color:#a00;font-weight:bold}.medium{color:#a60}"
)


def _cells(tag: str, values: Iterable[str]) -> str:
    return "<tr>" + "".join(f"<{tag}>{html_text(v)}</{tag}>" for v in values) + "</tr>"


def render_html(scan: McpScan, fail_on: Severity = Severity.low) -> str:
    """A self-contained HTML page; every text from a server is escaped."""
    book = rulebook()
    rows = [
        f'<tr><td class="{f.severity.value}">{f.severity.value}</td>'
        + "".join(
            f"<td>{html_text(v)}</td>" for v in (f.rule, f.server, _where(f), f.detail, f.evidence)
        )
        + "<td>"
        + ", ".join(
            f'<abbr title="{html_text(book.taxonomy.get(t, t))}">{html_text(t)}</abbr>'
            for t in f.taxonomy
        )
        + "</td></tr>"
        for f in scan.findings
    ]
    servers = [_cells("td", (s.server, s.transport, s.error or "scanned")) for s in scan.servers]
    changes = [
        f"<h3>{html_text(f'{c.kind} {c.item} ({c.change})')}</h3><pre>{html_text(c.diff)}</pre>"
        for c in scan.changes
    ]
    body = [
        f"<h1>MCP scan {html_text(scan.id)}</h1>",
        f'<p id="verdict"><strong>{html_text(_verdict(scan, fail_on))}</strong></p>',
        "<h2>Servers</h2><table>" + _cells("th", ("server", "transport", "status")),
        *servers,
        "</table><h2>Findings</h2>",
        '<table id="findings">'
        + _cells("th", ("severity", "rule", "server", "where", "why", "evidence", "taxonomy")),
        *rows,
        "</table>",
        "<h2>Changes since the pins</h2>" if changes else "",
        *changes,
    ]
    page = static_page(f"MCP scan {scan.id}", _STYLE, "".join(body))
    return redact(page)


def render_junit(scan: McpScan, fail_on: Severity = Severity.low) -> str:
    """JUnit XML: a suite per server, a case per item with findings (and one for the server)."""
    root = ET.Element("testsuites", name=xml_text(f"failproof mcp scan {scan.id}"))
    for server in scan.servers:
        mine = [f for f in scan.findings if f.server == server.server]
        suite = ET.SubElement(root, "testsuite", name=xml_text(server.server))
        failures = _junit_cases(suite, server, mine, fail_on)
        suite.set("tests", str(len(suite)))
        suite.set("failures", str(failures))
        suite.set("errors", "1" if server.error else "0")
    ET.indent(root)
    return redact(ET.tostring(root, encoding="unicode", xml_declaration=True)) + "\n"


def _items(server: ServerScan) -> list[str]:
    surface = server.surface
    if surface is None:
        return []
    names = [f"tool {t.name}" for t in surface.tools]
    names += [f"resource {r.name or r.uri}" for r in surface.resources]
    return names + [f"prompt {p.name}" for p in surface.prompts]


def _junit_cases(
    suite: ET.Element, server: ServerScan, findings: list[Finding], fail_on: Severity
) -> int:
    if server.error:
        case = ET.SubElement(suite, "testcase", name="connect", classname=xml_text(server.server))
        ET.SubElement(case, "error", message=xml_text(server.error))
        return 0
    by_item: dict[str, list[Finding]] = {}
    for f in findings:
        by_item.setdefault(f"{f.kind} {f.item}".strip(), []).append(f)
    failures = 0
    for name in dict.fromkeys([*_items(server), *by_item]):
        case = ET.SubElement(
            suite, "testcase", name=xml_text(name), classname=xml_text(server.server)
        )
        for f in by_item.get(name, []):
            tag = "failure" if _failing(f, fail_on) else "system-out"
            node = ET.SubElement(case, tag)
            if tag == "failure":
                failures += 1
                node.set("type", f.rule)
                node.set("message", xml_text(f"{f.severity.value}: {f.title} ({f.location})"))
            node.text = xml_text(f"{f.rule} {f.location}: {f.detail}\nevidence: {f.evidence}")
    return failures


#: format name -> renderer(scan, fail_on) -> text
RENDERERS: dict[str, Callable[[McpScan, Severity], str]] = {
    "json": render_json,
    "markdown": render_markdown,
    "html": render_html,
    "junit": render_junit,
}
