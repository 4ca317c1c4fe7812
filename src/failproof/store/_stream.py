"""A run's results read in chunks: a re-iterable source in report order that never loads them all.

Each pass opens its own read-only connection and reads ``chunk`` rows at a time by keyset
(``(suite, case_id, sample) > last``), so no read transaction is held across the pass and the
store may be closed by its owner in between. SQLite compares TEXT with BINARY collation (UTF-8
bytes), which orders like Python's ``str`` comparison: the order is the report's key order.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import closing
from pathlib import Path
from typing import overload

from failproof.core import CaseResult
from failproof.errors import StoreError
from failproof.store._rows import load_result

__all__ = ["StoredResults"]

_COLUMNS = "SELECT suite, case_id, sample, result_json FROM results WHERE run_id = ?"
_ORDER = " ORDER BY suite, case_id, sample LIMIT ?"


class StoredResults(Sequence[CaseResult]):
    """The results of run ``run_id`` in ``path``, in (suite, case_id, sample) order: a sequence
    that reads the store on demand and holds none of them (unless given them as ``held``: the
    results a process just stored, in that order, which every pass then reads instead).

    ``len()`` counts rows (one query, then remembered: the run is finished); every ``iter()`` is a
    fresh pass. `rank` and `at` (``source[i]``) find a case's position and a case by position,
    for the few cases a report links to by name; reading many by position is slow, iterate.
    """

    def __init__(
        self,
        path: str | Path,
        run_id: str,
        *,
        chunk: int = 1000,
        held: Sequence[CaseResult] | None = None,
    ) -> None:
        self.path = Path(path)
        self.run_id = run_id
        self.chunk = max(1, chunk)
        self.held = held
        self._count: int | None = None if held is None else len(held)

    def _connect(self) -> sqlite3.Connection:
        if not self.path.is_file():
            raise StoreError(f"no results store at {self.path}")
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        return sqlite3.connect(uri, uri=True, timeout=30)

    def __len__(self) -> int:
        if self._count is None:
            with closing(self._connect()) as db:
                row = db.execute("SELECT COUNT(*) FROM results WHERE run_id = ?", (self.run_id,))
                self._count = int(row.fetchone()[0])
        return self._count

    def __iter__(self) -> Iterator[CaseResult]:
        return self.chunks_flat()

    def __eq__(self, other: object) -> bool:
        """Equal to any sequence of the same results in the same order (a list of them, too)."""
        if isinstance(other, StoredResults):
            return (other.path.resolve(), other.run_id) == (self.path.resolve(), self.run_id)
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    @overload
    def __getitem__(self, index: int) -> CaseResult: ...
    @overload
    def __getitem__(self, index: slice) -> list[CaseResult]: ...
    def __getitem__(self, index: int | slice) -> CaseResult | list[CaseResult]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            return [self.at(i) for i in range(start, stop, step)]
        if index < 0:
            index += len(self)
        if index < 0:
            raise IndexError(index)
        return self.at(index)

    def chunks(self) -> Iterator[list[CaseResult]]:
        """The results, ``chunk`` at a time (from ``held`` when the run's results are in memory:
        the same results, in the same order, without reading them again)."""
        if self.held is not None:
            for start in range(0, len(self.held), self.chunk):
                yield list(self.held[start : start + self.chunk])
            return
        with closing(self._connect()) as db:
            rows = db.execute(_COLUMNS + _ORDER, (self.run_id, self.chunk)).fetchall()
            while rows:
                yield [load_result(row[3]) for row in rows]
                last = rows[-1][:3]
                rows = db.execute(
                    _COLUMNS + " AND (suite, case_id, sample) > (?, ?, ?)" + _ORDER,
                    (self.run_id, *last, self.chunk),
                ).fetchall()

    def chunks_flat(self) -> Iterator[CaseResult]:
        for block in self.chunks():
            yield from block

    def keys(self) -> Iterator[tuple[str, str, int]]:
        """Every result's (suite, case_id, sample), in order, without reading the results."""
        query = "SELECT suite, case_id, sample FROM results WHERE run_id = ?"
        with closing(self._connect()) as db:
            rows = db.execute(query + _ORDER, (self.run_id, self.chunk * 10)).fetchall()
            while rows:
                yield from ((str(a), str(b), int(c)) for a, b, c in rows)
                rows = db.execute(
                    query + " AND (suite, case_id, sample) > (?, ?, ?)" + _ORDER,
                    (self.run_id, *rows[-1], self.chunk * 10),
                ).fetchall()

    def rank(self, key: tuple[str, str, int]) -> int | None:
        """The position of the result with ``key`` in the order, or None when there is none."""
        with closing(self._connect()) as db:
            found = db.execute(
                "SELECT 1 FROM results WHERE run_id = ? AND suite = ? AND case_id = ? "
                "AND sample = ?",
                (self.run_id, *key),
            ).fetchone()
            if found is None:
                return None
            row = db.execute(
                "SELECT COUNT(*) FROM results WHERE run_id = ? AND (suite, case_id, sample) < "
                "(?, ?, ?)",
                (self.run_id, *key),
            )
            return int(row.fetchone()[0])

    def first_key(self, suite: str | None, case_id: str) -> tuple[str, str, int] | None:
        """The first key (in order) of case ``case_id``, in ``suite`` when given."""
        query = "SELECT suite, case_id, sample FROM results WHERE run_id = ? AND case_id = ?"
        params: tuple[object, ...] = (self.run_id, case_id)
        if suite is not None:
            query += " AND suite = ?"
            params = (*params, suite)
        with closing(self._connect()) as db:
            row = db.execute(query + " ORDER BY suite, sample LIMIT 1", params).fetchone()
        return (str(row[0]), str(row[1]), int(row[2])) if row else None

    def at(self, index: int) -> CaseResult:
        """The result at position ``index`` of the order."""
        with closing(self._connect()) as db:
            row = db.execute(
                "SELECT result_json FROM results WHERE run_id = ? "
                "ORDER BY suite, case_id, sample LIMIT 1 OFFSET ?",
                (self.run_id, index),
            ).fetchone()
        if row is None:
            raise IndexError(index)
        return load_result(row[0])
