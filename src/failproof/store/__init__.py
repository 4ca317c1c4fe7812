"""The results store: SQLite, WAL mode, append-only named migrations."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.store._mcp import McpScanRow
    from failproof.store._migrations import MIGRATIONS
    from failproof.store._rows import load_result
    from failproof.store._store import ResultRow, RunSummary, Store
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

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._mcp": ("McpScanRow",),
            "._migrations": ("MIGRATIONS",),
            "._rows": ("load_result",),
            "._store": ("ResultRow", "RunSummary", "Store"),
            "._stream": ("StoredResults",),
        },
    )
