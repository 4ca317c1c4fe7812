"""A large HTML report's cases in page files: ``report.cases/page-00001.js`` beside the page.

A page opened from disk (``file://``) cannot ``fetch()`` JSON, but it can load a script: each
page file calls ``fpPage(number, data)`` with the rows of `PAGE_SIZE` cases, in the same compact,
inert encoding as the embedded data (`page_payload`, `script_json`). The report page embeds the
first page, the scatter's points, and loads the others when they are shown, one at a time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from failproof.core import CaseResult
from failproof.guard import atomic_write_text, redact
from failproof.guard._files import atomic_writer
from failproof.guard._secrets import knows_secrets
from failproof.report._html_data import page_payload, script_json_parts, stored_points
from failproof.report._model import Report
from failproof.report._verdict import case_verdict
from failproof.store import StoredResults

__all__ = ["PAGE_SIZE", "PageWriter", "page_name", "write_pages"]

PAGE_SIZE = 1000  # cases per page file; a report with no more stays one self-contained file


def page_name(number: int) -> str:
    """The file name of page ``number`` (0-based)."""
    return f"page-{number + 1:05d}.js"


class PageWriter:
    """Page files written as the cases arrive, `PAGE_SIZE` at a time, into ``folder`` (its old
    pages removed first); `close` gives the first page's data, the scatter's points and the
    paging facts for the report page."""

    def __init__(self, report: Report, source: StoredResults, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob("page-*.js"):
            old.unlink()
        self.folder, self.total = folder, len(source)
        self.points = stored_points(report, source)
        self.dots: list[list[Any]] = []
        self.chunk: list[CaseResult] = []
        self.first: dict[str, Any] = {}
        self.number = 0

    def add(self, result: CaseResult) -> None:
        self.chunk.append(result)
        if len(self.chunk) == PAGE_SIZE:
            self._flush()

    def _flush(self) -> None:
        offset = self.number * PAGE_SIZE
        payload = page_payload(self.chunk, offset, self.points)
        self.dots += _dots(self.chunk, offset, self.points)
        parts = [f"fpPage({self.number}, ", *script_json_parts(payload), ");\n"]
        _write_parts(self.folder / page_name(self.number), parts)
        self.first = self.first or payload
        self.number += 1
        self.chunk = []

    def close(self) -> dict[str, Any]:
        if self.chunk:
            self._flush()
        paging = {"pages": self.number, "size": PAGE_SIZE, "total": self.total}
        return self.first | {
            "paging": paging | {"dir": self.folder.name},
            "points": self.dots,
            "has_points": bool(self.dots),
        }


def _write_parts(path: Path, parts: list[str]) -> None:
    """The text of ``parts`` written to ``path`` in one step, part by part (no part is copied
    into a whole), or whole where a known secret could span two of them."""
    if knows_secrets():
        atomic_write_text(path, redact("".join(parts)))
        return
    with atomic_writer(path) as out:
        for part in parts:
            out.write(part)


def write_pages(report: Report, source: StoredResults, folder: Path) -> dict[str, Any]:
    """Every page file of ``report`` written into ``folder``; what `PageWriter.close` gives."""
    writer = PageWriter(report, source, folder)
    for result in source:
        writer.add(result)
    return writer.close()


def _dots(
    chunk: list[CaseResult], offset: int, points: dict[int, tuple[Any, Any, Any]]
) -> list[list[Any]]:
    """Scatter points of the chunk: index, cluster, x, y, class, category, severity, verdict,
    case id, suite and the start of the output (the tip shows it without loading the page)."""
    out = []
    for i, result in enumerate(chunk, offset):
        if i in points:
            cluster, x, y = points[i]
            out.append(
                [i, cluster, round(x, 4), round(y, 4), result.primary, result.category,
                 result.severity, case_verdict(result), result.case_id, result.suite,
                 (result.error or result.output)[:160]]
            )  # fmt: skip
    return out
