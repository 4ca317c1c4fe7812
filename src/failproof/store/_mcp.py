"""MCP scans and pins in the store (the scan's JSON is written by ``failproof.mcp``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass

from failproof.core._result import utc_now
from failproof.errors import StoreError
from failproof.guard import redact

__all__ = ["McpRecords", "McpScanRow"]


@dataclass(frozen=True)
class McpScanRow:
    """One stored scan: its id, when it started, the servers it scanned, its finding count and
    how many of its servers could not be scanned (a scan with any is failed)."""

    id: str
    started_at: str
    servers: str
    findings: int
    unscanned: int = 0

    @property
    def failed(self) -> bool:
        return self.unscanned > 0


class McpRecords:
    """The store's MCP tables: ``mcp_scans`` (one row per scan) and ``mcp_pins``."""

    _db: sqlite3.Connection

    def add_mcp_scan(self, row: McpScanRow, scan_json: str) -> None:
        """Store a scan (its JSON redacted)."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO mcp_scans "
                "(id, started_at, servers, findings, scan_json, unscanned) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    row.id,
                    row.started_at,
                    redact(row.servers),
                    row.findings,
                    redact(scan_json),
                    row.unscanned,
                ),
            )

    def mcp_scan_json(self, scan_id: str) -> str:
        """A stored scan's JSON; StoreError when there is none with that id."""
        row = self._db.execute("SELECT scan_json FROM mcp_scans WHERE id = ?", (scan_id,))
        found = row.fetchone()
        if found is None:
            raise StoreError(
                f"no MCP scan {scan_id!r} in the store", hint="'failproof mcp scans' lists them"
            )
        return str(found[0])

    def mcp_scans(self, limit: int = 50) -> list[McpScanRow]:
        """The newest scans first."""
        rows = self._db.execute(
            "SELECT id, started_at, servers, findings, unscanned FROM mcp_scans "
            "ORDER BY started_at DESC, id DESC LIMIT ?",
            (limit,),
        )
        return [McpScanRow(*row) for row in rows]

    def mcp_pins(self, server: str) -> dict[str, tuple[str, str]]:
        """``kind:name`` -> (sha256, definition JSON) pinned for ``server``."""
        rows = self._db.execute(
            "SELECT item, sha256, definition_json FROM mcp_pins WHERE server = ?", (server,)
        )
        return {item: (digest, text) for item, digest, text in rows}

    def set_mcp_pins(self, server: str, pins: Mapping[str, tuple[str, str]], scan_id: str) -> None:
        """Replace ``server``'s pins with ``pins`` (taken by scan ``scan_id``)."""
        now = utc_now().isoformat()
        rows = [(server, k, d, redact(t), scan_id, now) for k, (d, t) in sorted(pins.items())]
        with self._db:
            self._db.execute("DELETE FROM mcp_pins WHERE server = ?", (server,))
            self._db.executemany("INSERT INTO mcp_pins VALUES (?, ?, ?, ?, ?, ?)", rows)

    def mcp_call(self, run_id: str, call_key: str) -> str | None:
        """The stored JSON of an MCP tool call a run already made, or None."""
        row = self._db.execute(
            "SELECT use_json FROM mcp_calls WHERE run_id = ? AND call_key = ?", (run_id, call_key)
        ).fetchone()
        return str(row[0]) if row else None

    def add_mcp_call(self, run_id: str, call_key: str, use_json: str) -> None:
        """Store an MCP tool call a run made (its JSON redacted), so a resume does not repeat it."""
        with self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO mcp_calls VALUES (?, ?, ?, ?)",
                (run_id, call_key, redact(use_json), utc_now().isoformat()),
            )
