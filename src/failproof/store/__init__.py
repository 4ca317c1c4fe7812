"""The results store: SQLite, WAL mode, append-only named migrations."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.store._mcp import McpScanRow
    from failproof.store._migrations import MIGRATIONS
    from failproof.store._store import ResultRow, RunSummary, Store, load_result
    from failproof.store._stream import StoredResults

__all__ = [
    "MIGRATIONS",
    "McpScanRow",
    "ResultRow",
    "RunSummary",
    "Store",
    "StoredResults",
    "load_result",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "._mcp": ("McpScanRow",),
        "._migrations": ("MIGRATIONS",),
        "._store": ("ResultRow", "RunSummary", "Store", "load_result"),
        "._stream": ("StoredResults",),
    },
)
