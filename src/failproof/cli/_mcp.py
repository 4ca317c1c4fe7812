"""``failproof mcp``: scan MCP servers' tool surface, compare two scans, serve a rogue server."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from failproof.cli._app import ConfigOpt, VerboseOpt, app, settings_from
from failproof.cli._compared import Compared
from failproof.cli._output import say, stdout
from failproof.cli._target_options import parse_headers
from failproof.core._severity import Severity
from failproof.errors import ConfigError, InputError
from failproof.guard import for_console

if TYPE_CHECKING:
    from failproof.guard._json import JsonObject
    from failproof.mcp import McpScan

__all__ = ["mcp_app"]

mcp_app = typer.Typer(
    help="Test MCP servers: scan their tools, resources and prompts for poisoning, shadowing, "
    "rug pulls and injected answers (needs: pip install 'failproof\\[mcp]')."
)
app.add_typer(mcp_app, name="mcp")

_FORMATS = ("json", "markdown", "html", "junit")
_SUFFIX = {"json": "json", "markdown": "md", "html": "html", "junit": "xml"}


def _formats(text: str | None) -> list[str]:
    if not text:
        return []
    chosen = list(_FORMATS) if text.strip() == "all" else [f.strip() for f in text.split(",")]
    unknown = [f for f in chosen if f not in _FORMATS]
    if unknown:
        raise ConfigError(f"unknown format {unknown[0]!r}", hint=f"one of {', '.join(_FORMATS)}")
    return chosen


def _probe_args(items: list[str]) -> dict[str, JsonObject]:
    allowed: dict[str, dict[str, Any]] = {}
    for item in items:
        tool, sep, raw = item.partition("=")
        try:
            value = json.loads(raw) if sep else None
        except ValueError:
            value = None
        if not tool.strip() or not isinstance(value, dict):
            raise ConfigError(
                f"--probe-args {item!r} is not TOOL=JSON-OBJECT",
                hint='e.g. --probe-args \'search={"query": "weather"}\'',
            )
        allowed[tool.strip()] = value
    return allowed


def _write(scan: McpScan, formats: list[str], output: Path, fail_on: Severity) -> list[Path]:
    from failproof.guard import atomic_write_text
    from failproof.mcp._render import RENDERERS

    single = len(formats) == 1 and output.suffix != ""
    written: list[Path] = []
    for name in formats:
        path = output if single else output / f"report.{_SUFFIX[name]}"
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, RENDERERS[name](scan, fail_on))
        written.append(path)
    return written


def _console(scan: McpScan, fail_on: Severity) -> None:
    from rich.table import Table

    for server in scan.servers:
        if server.error:
            say(f"failproof: {server.server}: could not be scanned: {server.error}")
    table = Table(title=f"MCP scan {scan.id}: {len(scan.findings)} finding(s)")
    for column in ("severity", "rule", "where", "evidence"):
        table.add_column(column, overflow="fold")
    for f in scan.findings:
        where = f"{f.server} · {f.kind} {f.item} ({f.location})"
        cells = (f.severity.value, f.rule, where, f.evidence)
        table.add_row(*(for_console(c, keep_newlines=False) for c in cells))
    stdout.print(table)
    failing = scan.failing(fail_on)
    verdict = f"{len(failing)} at or above {fail_on.value}" if failing else "none failing"
    if scan.errors:
        unscanned = f"{len(scan.errors)} of {len(scan.servers)} server(s) not scanned"
        verdict = f"as failed ({unscanned}); {verdict} among what was scanned"
    stdout.print(f"scan {scan.id} stored {verdict}", highlight=False)


@mcp_app.command("scan")
def scan(
    servers: Annotated[
        list[str],
        typer.Argument(
            help="Servers: 'stdio:COMMAND ARGS', an http(s) URL (streamable HTTP), an SSE "
            "URL (path ending in /sse, or sse+http://...), or rogue:SCENARIO (the built-in "
            "rogue server).",
        ),
    ],
    header: Annotated[
        list[str] | None,
        typer.Option(
            "--header",
            help="HTTP header NAME=VALUE for URL servers; ${ENV} names a secret; repeatable.",
        ),
    ] = None,
    probe: Annotated[
        str | None,
        typer.Option(
            "--probe",
            help="'read-only': also call the tools marked readOnlyHint (with the smallest "
            "arguments their schema takes) and scan what they return.",
        ),
    ] = None,
    probe_args: Annotated[
        list[str] | None,
        typer.Option(
            "--probe-args",
            help="TOOL=JSON: call TOOL with these arguments and scan what it returns; "
            "repeatable. Only tools named here (or read-only ones with --probe) are called.",
        ),
    ] = None,
    pin: Annotated[
        bool, typer.Option("--pin", help="Accept the definitions listed now as the pins.")
    ] = False,
    fail_on: Annotated[
        Severity, typer.Option("--fail-on", help="Exit 1 on a finding at or above this.")
    ] = Severity.low,
    timeout: Annotated[
        float, typer.Option("--timeout", min=0.1, help="Seconds per request (4x per server).")
    ] = 30.0,
    formats: Annotated[
        str | None,
        typer.Option("--format", "-f", help="Files: json, markdown, html, junit; a list or all."),
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="A file for one format, else a folder."),
    ] = None,
    config: ConfigOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Scan MCP servers; exit 1 on findings, 3 when a server could not be scanned."""
    from failproof.mcp import ScanOptions, parse_server, scan_servers
    from failproof.mcp._connect import require_sdk
    from failproof.mcp._servers import expand_headers
    from failproof.store import Store

    require_sdk()
    if probe not in (None, "read-only"):
        raise ConfigError(f"--probe {probe!r} is not known", hint="--probe read-only")
    chosen = _formats(formats)
    headers = parse_headers(header or [])
    specs = [parse_server(s, headers) for s in servers]
    for spec in specs:  # every ${NAME} set before any server is contacted
        expand_headers(spec.headers)
    options = ScanOptions(
        timeout_s=timeout,
        probe_read_only=probe == "read-only",
        probe_args=_probe_args(probe_args or []),
        pin=pin,
    )
    settings = settings_from(config)
    import asyncio

    from failproof.runner._stop import stop_signals

    def scanning(label: str) -> None:
        say(f"failproof: scanning {label}")

    with Store(settings.db_path) as store, stop_signals():  # Ctrl-C, SIGTERM: servers stopped
        result = asyncio.run(scan_servers(specs, options, store, on_server=scanning))
    _console(result, fail_on)
    if chosen:
        folder = output or Path(settings.report.output_dir) / result.id
        for path in _write(result, chosen, folder, fail_on):
            say(f"failproof: wrote {path}")
    raise typer.Exit(result.exit_code(fail_on))


@mcp_app.command("scans")
def scans(
    limit: Annotated[int, typer.Option(help="How many scans, newest first.")] = 20,
    config: ConfigOpt = None,
) -> None:
    """The stored MCP scans, newest first."""
    from failproof.store import Store

    settings = settings_from(config)
    with Store(settings.db_path) as store:
        rows = store.mcp_scans(limit)
    for row in rows:
        found = f"FAILED ({row.unscanned} server(s) not scanned)" if row.failed else ""
        found = found or f"{row.findings} finding(s)"
        line = f"{row.id}  {row.started_at[:19]}  {found}  {row.servers}"
        stdout.print(for_console(line, keep_newlines=False), highlight=False)


def is_scan_id(text: str) -> bool:
    """Whether ``text`` names an MCP scan (``failproof mcp scans``), not a run."""
    return re.fullmatch(r"mcp-\d{8}-\d{6}-[0-9a-f]{4}", text) is not None


def compare_scan_ids(before: str, after: str, *, as_json: bool, config: Path | None) -> Compared:
    """The comparison of two stored scans as text, and whether it regressed (the newer scan has
    new findings or changed definitions)."""
    from failproof.mcp import McpScan
    from failproof.mcp._compare import compare_scans, comparison_markdown
    from failproof.store import Store

    settings = settings_from(config)
    with Store(settings.db_path, readonly=True) as store:
        old = McpScan.model_validate_json(store.mcp_scan_json(before))
        new = McpScan.model_validate_json(store.mcp_scan_json(after))
    for scan in (old, new):
        _refuse_failed(scan)
    result = compare_scans(old, new)
    text = result.model_dump_json(indent=2) + "\n" if as_json else comparison_markdown(result)
    return Compared(text, bool(result.new_findings or result.changes))


def _refuse_failed(scan: McpScan) -> None:
    """A scan that could not reach a server says nothing of its findings: comparing with it
    would call every finding of that server fixed (or new)."""
    if scan.errors:
        names = ", ".join(s.server for s in scan.errors)
        raise InputError(
            f"MCP scan {scan.id} failed ({names} could not be scanned): it cannot be compared",
            hint="compare scans that reached every server ('failproof mcp scans' marks the "
            "failed ones)",
        )


@mcp_app.command("compare")
def compare(
    before: Annotated[str, typer.Argument(help="The older scan's id ('failproof mcp scans').")],
    after: Annotated[str, typer.Argument(help="The newer scan's id.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
    config: ConfigOpt = None,
) -> None:
    """What changed between two stored scans: new and fixed findings, changed definitions;
    exit 1 when the newer scan has new findings or changed definitions, 3 when either scan
    failed (a server could not be scanned). ('failproof compare' does the same when given two
    scan ids.)"""
    done = compare_scan_ids(before, after, as_json=as_json, config=config)
    typer.echo(done.text, nl=False)
    raise typer.Exit(1 if done.regressed else 0)


@mcp_app.command("serve-rogue")
def serve_rogue(
    scenario: Annotated[
        str,
        typer.Option(
            "--scenario",
            help="all, poisoned-description, shadowing, rug-pull or poisoned-response.",
        ),
    ] = "all",
    transport: Annotated[
        str, typer.Option("--transport", help="stdio, streamable-http or sse.")
    ] = "stdio",
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, help="HTTP port on 127.0.0.1 (0: any free).")
    ] = 0,
    verbose: VerboseOpt = False,
) -> None:
    """Serve failproof's rogue MCP server (poisoned descriptions, a shadowing tool, a rug pull,
    poisoned answers carrying canaries) to test an agent or an MCP client against known attacks.
    Over HTTP it listens on 127.0.0.1 only."""
    from failproof.mcp._connect import require_sdk
    from failproof.mcp._rogue import SCENARIOS, build_rogue

    require_sdk()
    if scenario not in SCENARIOS:
        raise ConfigError(f"no rogue scenario {scenario!r}", hint=f"one of {', '.join(SCENARIOS)}")
    if transport not in ("stdio", "streamable-http", "sse"):
        raise ConfigError(f"--transport {transport!r}", hint="stdio, streamable-http or sse")
    server = build_rogue(scenario)
    if transport == "stdio":
        server.run()
    else:
        server.run(transport, host="127.0.0.1", port=port)
