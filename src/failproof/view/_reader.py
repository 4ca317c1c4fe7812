"""The results store, opened read-only: ``failproof view`` can never write to it.

SQLite's ``mode=ro`` URI refuses every write at the database level, whatever the code above it
does. One connection per call, so the threads of the HTTP server never share one.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from datetime import datetime
from pathlib import Path

from failproof.core import CaseResult, Run
from failproof.errors import StoreError
from failproof.store import RunSummary

__all__ = ["ReadOnlyStore"]

_RUN_COLUMNS = "id, target_json, suites_json, config_json, status, started_at, finished_at"


class ReadOnlyStore:
    """Runs and results of a failproof store, read through a read-only SQLite connection."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise StoreError(
                f"no results store at {self.path}",
                hint="run 'failproof run' or 'failproof score' first, or set FAILPROOF_HOME",
            )

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            db = sqlite3.connect(f"{self.path.resolve().as_uri()}?mode=ro", uri=True, timeout=10)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the results store {self.path}: {exc}") from None
        with closing(db):
            yield db

    def list_runs(self, limit: int = 50) -> list[RunSummary]:
        """The newest runs, with their result counts."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT r.id, r.target_json, r.suites_json, r.status, r.started_at, "
                "r.finished_at, COUNT(x.case_id), COALESCE(SUM(x.primary_class = 'pass'), 0) "
                "FROM runs r LEFT JOIN results x ON x.run_id = r.id "
                "GROUP BY r.id ORDER BY r.started_at DESC LIMIT ?",
                (limit,),
            ).fetchall()
        return [
            RunSummary(
                id=r[0],
                target=str(json.loads(r[1]).get("name", "?")),
                suites=json.loads(r[2]),
                status=r[3],
                started_at=r[4],
                finished_at=r[5],
                total=r[6],
                passed=r[7],
            )
            for r in rows
        ]

    def get_run(self, run_id: str) -> Run | None:
        """The run, or None when the store has no run of that id."""
        with self._connect() as db:
            row = db.execute(f"SELECT {_RUN_COLUMNS} FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            return None
        return Run(
            id=row[0],
            target=json.loads(row[1]),
            suites=json.loads(row[2]),
            config=json.loads(row[3]),
            status=row[4],
            started_at=datetime.fromisoformat(row[5]),
            finished_at=datetime.fromisoformat(row[6]) if row[6] else None,
        )

    def count_results(self, run_id: str) -> int:
        with self._connect() as db:
            row = db.execute("SELECT COUNT(*) FROM results WHERE run_id = ?", (run_id,))
            return int(row.fetchone()[0])

    def results(self, run_id: str) -> list[CaseResult]:
        """The run's results in (suite, case_id, sample) order."""
        with self._connect() as db:
            rows = db.execute(
                "SELECT result_json FROM results WHERE run_id = ? ORDER BY suite, case_id, sample",
                (run_id,),
            ).fetchall()
        return [CaseResult.model_validate_json(blob) for (blob,) in rows]
