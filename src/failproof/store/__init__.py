"""The results store: SQLite, WAL mode, append-only named migrations."""

from failproof.store._store import RunSummary, Store
from failproof.store._stream import StoredResults

__all__ = [
    "RunSummary",
    "Store",
    "StoredResults",
]
