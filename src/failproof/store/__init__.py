"""The results store: SQLite, WAL mode, append-only named migrations."""

from failproof.store._migrations import MIGRATIONS
from failproof.store._store import ResultRow, RunSummary, Store, load_result

__all__ = ["MIGRATIONS", "ResultRow", "RunSummary", "Store", "load_result"]
