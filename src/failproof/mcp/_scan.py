"""``failproof mcp scan``: connect to each server, list, check, compare with the pins, probe.

Servers are scanned one after another, each within its own deadline; one that cannot be
reached, answers wrongly, hangs or dies is recorded with the reason and the scan goes on.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from failproof.core._result import utc_now
from failproof.mcp._checks import check_surface, finding
from failproof.mcp._connect import Connection, ServerLog, connect
from failproof.mcp._listing import list_surface, list_tools
from failproof.mcp._model import Change, Finding, McpScan, ServerScan, ServerSpec, ToolProbe
from failproof.mcp._pins import changes_since, pins_of
from failproof.mcp._probe import probe_surface, response_findings
from failproof.mcp._rules import rulebook
from failproof.mcp._shadow import cross_server_findings
from failproof.mcp._texts import Text
from failproof.store import Store
from failproof.store._mcp import McpScanRow

__all__ = ["ScanOptions", "describe_error", "new_scan_id", "scan_servers"]


class ScanOptions(BaseModel):
    """How to scan: the deadline per server, what to probe, whether to pin."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    timeout_s: float = Field(default=30.0, gt=0, description="Per request; a server gets 4x.")
    probe_read_only: bool = Field(default=False, description="Call readOnlyHint tools.")
    probe_args: dict[str, dict[str, Any]] = Field(
        default_factory=dict, description="tool -> the arguments the user allows it called with."
    )
    pin: bool = Field(default=False, description="Accept what is listed now as the pins.")


def new_scan_id() -> str:
    """A new scan id: ``mcp-`` and the UTC time, then 4 random hex digits."""
    return f"mcp-{utc_now().strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(2)}"


def describe_error(exc: BaseException, log: ServerLog | None = None) -> str:
    """One line on why a server failed (the first leaf of an exception group)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, TimeoutError):
        why = "timed out: no answer within the deadline (the server hangs or streams without end)"
    else:
        why = f"{type(exc).__name__}: {str(exc)[:300] or 'no message'}"
    tail = log.read_tail() if log is not None else ""
    return f"{why}; its stderr ends: {tail[-300:]}" if tail else why


class _Scanned(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    server: ServerScan
    probes: list[ToolProbe] = Field(default_factory=list)
    relisted: list[Change] = Field(
        default_factory=list, description="Tools that changed between two listings of a session."
    )


async def _scan_one(spec: ServerSpec, options: ScanOptions) -> _Scanned:
    import anyio

    log = ServerLog(sys.stderr)
    try:
        with anyio.fail_after(options.timeout_s * 4):
            async with connect(spec, timeout_s=options.timeout_s, log=log) as connection:
                surface = await list_surface(connection)
                again = await list_tools(connection)
                probes = await _probes(connection, spec, surface, options)
    except Exception as exc:  # a hostile server: record why, go on with the next
        error = describe_error(exc, log if log.tail is not None else None)
        return _Scanned(server=ServerScan(server=spec.label, transport=spec.transport, error=error))
    hashes = {key: pin[0] for key, pin in pins_of(surface).items()}
    scanned = ServerScan(
        server=spec.label, transport=spec.transport, surface=surface, hashes=hashes
    )
    relisted = surface.model_copy(update={"tools": again})
    changed = changes_since(spec.label, pins_of(surface), pins_of(relisted))
    return _Scanned(server=scanned, probes=probes, relisted=changed)


async def _probes(
    connection: Connection, spec: ServerSpec, surface: Any, options: ScanOptions
) -> list[ToolProbe]:
    if not options.probe_read_only and not options.probe_args:
        return []
    return await probe_surface(
        connection,
        spec.label,
        surface,
        allowed=options.probe_args,
        read_only=options.probe_read_only,
    )


def _pin(store: Store | None, server: ServerScan, scan_id: str, pin: bool) -> ServerScan:
    """The server's scan with its changes since the pins; pins it on its first scan or with
    ``pin``."""
    if store is None or server.surface is None:
        return server
    now = pins_of(server.surface)
    pinned = store.mcp_pins(server.server)
    changes = changes_since(server.server, pinned, now) if pinned else []
    if not pinned or pin:
        store.set_mcp_pins(server.server, now, scan_id)
    return server.model_copy(update={"pinned": not pinned or pin, "changes": changes})


def _change_finding(change: Change, *, within_session: bool = False) -> Finding:
    book = rulebook()
    where = f"{change.change} (between two listings of one session)" if within_session else ""
    text = Text(change.kind, change.item, where or change.change, "")
    detail = {
        "added": f"the {change.kind} {change.item!r} was not there when the server was pinned",
        "removed": f"the {change.kind} {change.item!r} was pinned and is gone",
        "description": f"the description of {change.kind} {change.item!r} changed",
        "schema": f"the definition of {change.kind} {change.item!r} changed",
    }[change.change]
    if within_session:
        detail += " from one tools/list to the next in the same session"
    changed = [ln for ln in change.diff.splitlines()[2:] if ln[:1] in "+-"]
    quoted = " / ".join(changed)[:320]
    return finding(book, "mcp-definition-changed", change.server, text, detail, quoted)


async def scan_servers(
    specs: Sequence[ServerSpec],
    options: ScanOptions,
    store: Store | None,
    *,
    on_server: Callable[[str], None] | None = None,
) -> McpScan:
    """Scan every server; the scan is stored (with the pins) when ``store`` is given.
    ``on_server`` is told each server's label as its scan starts."""
    scan_id, started = new_scan_id(), utc_now().isoformat()
    done: list[_Scanned] = []
    for spec in specs:
        if on_server is not None:
            on_server(spec.label)
        done.append(await _scan_one(spec, options))
    servers = [d.server for d in done]
    findings: list[Finding] = []
    for server in servers:
        if server.surface is not None:
            findings += check_surface(server.server, server.surface)
    surfaces = [(s.server, s.surface) for s in servers if s.surface is not None]
    findings += cross_server_findings(surfaces)
    probes = [p for d in done for p in d.probes]
    findings += [f for p in probes for f in response_findings(p)]
    relisted = [c for d in done for c in d.relisted]
    findings += [_change_finding(c, within_session=True) for c in relisted]
    servers = [_pin(store, s, scan_id, options.pin) for s in servers]
    changes = [c for s in servers for c in s.changes]
    if not options.pin:
        findings += [_change_finding(c) for c in changes]
    scan = McpScan(
        id=scan_id,
        started_at=started,
        finished_at=utc_now().isoformat(),
        servers=servers,
        findings=findings,
        changes=[*relisted, *changes],
        probes=probes,
    )
    if store is not None:
        _store(store, scan)
    return scan


def _store(store: Store, scan: McpScan) -> None:
    labels = ", ".join(s.server for s in scan.servers)
    row = McpScanRow(scan.id, scan.started_at, labels, len(scan.findings), len(scan.errors))
    store.add_mcp_scan(row, scan.model_dump_json())
