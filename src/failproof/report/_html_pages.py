"""A large HTML report's cases in page files: ``report.cases/page-00001.js`` beside the page.

A page opened from disk (``file://``) cannot ``fetch()`` JSON, but it can load a script: each
page file calls ``fpPage(number, data)`` with the rows of `PAGE_SIZE` cases, in the same compact,
inert encoding as the embedded data (`page_payload`, `script_json`). The report page embeds the
first page, the scatter's points, and loads the others when they are shown, one at a time.
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import Any

from failproof.guard import atomic_write_text, redact
from failproof.report._html_data import page_payload, script_json, stored_points
from failproof.report._model import Report
from failproof.report._verdict import case_verdict
from failproof.store import StoredResults

__all__ = ["PAGE_SIZE", "page_name", "write_pages"]

PAGE_SIZE = 1000  # cases per page file; a report with no more stays one self-contained file


def page_name(number: int) -> str:
    """The file name of page ``number`` (0-based)."""
    return f"page-{number + 1:05d}.js"


def write_pages(report: Report, source: StoredResults, folder: Path) -> dict[str, Any]:
    """Write every page file into ``folder`` (old pages removed); the first page's data, the
    scatter's points and the paging facts for the report page."""
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("page-*.js"):
        old.unlink()
    points = stored_points(report, source)
    dots: list[list[Any]] = []
    cases = iter(source)
    first: dict[str, Any] = {}
    number = 0
    while chunk := list(islice(cases, PAGE_SIZE)):
        offset = number * PAGE_SIZE
        payload = page_payload(chunk, offset, points)
        dots += _dots(chunk, offset, points)
        text = f"fpPage({number}, {script_json(payload)});\n"
        atomic_write_text(folder / page_name(number), redact(text))
        first = first or payload
        number += 1
    return first | {
        "paging": {"pages": number, "size": PAGE_SIZE, "total": len(source), "dir": folder.name},
        "points": dots,
        "has_points": bool(dots),
    }


def _dots(
    chunk: list[Any], offset: int, points: dict[int, tuple[Any, Any, Any]]
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
