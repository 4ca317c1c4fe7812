"""Finding the case a section names (by suite, id and sample), so that a row can open it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from failproof.core import CaseResult
from failproof.render._table import Table
from failproof.report._model import Report

__all__ = ["CaseIndex", "link_rows"]


class CaseIndex:
    """Finds a result by (suite, case id, sample), or by fewer of them when a section omits some."""

    def __init__(self, report: Report) -> None:
        source = report.source
        held = source.held if source is not None else None
        #: The store, where its results are not held in memory (those held are its order).
        self.source = source if held is None else None
        self._results: Sequence[CaseResult] = report.results if held is None else held
        self._by_sample: dict[tuple[str, str, int], int] = {}
        self._by_key: dict[tuple[str, str], int] = {}
        self._by_id: dict[str, int] = {}
        self._found: dict[int, CaseResult] = {}
        for i, result in enumerate(self._results if self.source is None else ()):
            self._by_sample.setdefault(result.key, i)
            self._by_key.setdefault((result.suite, result.case_id), i)
            self._by_id.setdefault(result.case_id, i)

    def find(self, case_id: str, suite: str | None = None, sample: int | None = None) -> int | None:
        """The index in report order of the case named, if any."""
        if self.source is not None:
            return self._lookup(case_id, suite, sample)
        if suite is None:
            return self._by_id.get(case_id)
        if sample is not None and (suite, case_id, sample) in self._by_sample:
            return self._by_sample[(suite, case_id, sample)]
        return self._by_key.get((suite, case_id))

    def _lookup(self, case_id: str, suite: str | None, sample: int | None) -> int | None:
        """`find` in a streamed report: an index lookup in the store (a few per report)."""
        assert self.source is not None
        if suite is not None and sample is not None:
            found = self.source.rank((suite, case_id, sample))
            if found is not None:
                return found
        key = self.source.first_key(suite, case_id)
        return self.source.rank(key) if key is not None else None

    def result(self, index: int) -> CaseResult:
        """The case at ``index`` of report order."""
        if self.source is None:
            return self._results[index]
        if index not in self._found:
            self._found[index] = self.source.at(index)
        return self._found[index]


def link_rows(table: Table, links: Sequence[int | None], index: CaseIndex) -> Table:
    """Each row's first cell opens its case; a ``class`` column takes the case's class colour."""
    keys = [c.key for c in table.columns]
    rows = []
    for cells, link in zip(table.rows, links, strict=False):
        first = replace(cells[0], case=link)
        cls = keys.index("class") if "class" in keys else None
        row = [first, *cells[1:]]
        if cls is not None and link is not None:
            row[cls] = replace(row[cls], tone=index.result(link).primary)
        rows.append(row)
    return Table(table.columns, rows, table.more)
