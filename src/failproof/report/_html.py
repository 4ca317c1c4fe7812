"""The HTML report: one self-contained file, readable offline, printable, safe with hostile data."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from markupsafe import Markup

from failproof.core import CaseResult
from failproof.guard import atomic_write_text, redact
from failproof.report._html_data import OUTPUT_LIMIT, case_payload, script_json
from failproof.report._html_pages import PAGE_SIZE, PageWriter
from failproof.report._model import Report
from failproof.report._page import render_page
from failproof.report._present.breakdown import (
    category_table,
    failure_modes,
    severity_table,
    suite_table,
    worst_cases,
)
from failproof.report._present.cases import CaseIndex
from failproof.report._present.extensions import extras
from failproof.report._present.geometry import clusters, mutual_information
from failproof.report._present.headline import (
    class_counts,
    headline,
    selection_text,
    verdict_counts,
    verdict_line,
)
from failproof.report._present.safe import safe_view
from failproof.report._record import record_notes
from failproof.report._render import Renderer, renderers

__all__ = ["HtmlRenderer"]


@renderers.register("html")
class HtmlRenderer(Renderer):
    """A dashboard in one HTML file: headline, suites, risk, failure geometry, every case."""

    format = "html"
    filename = "report.html"

    def __init__(self, *, links: Sequence[tuple[str, str]] = ()) -> None:
        #: (label, href) navigation links drawn in the header, e.g. back to ``failproof view``.
        self.links = list(links)

    def render(self, report: Report) -> str:
        return render_page("report.html", self.context(report), scripts=["report.js"])

    def write(self, report: Report, path: Path) -> None:
        """One file up to `PAGE_SIZE` cases; beyond, the case rows go into page files in the
        folder ``<name>.cases`` beside it (scripts the page loads one at a time)."""
        sink = self.sink(report, path, None)
        if sink is None:
            super().write(report, path)
            return
        for result in report.cases():
            sink.add(result)
        sink.close()

    def sink(
        self,
        report: Report,
        path: Path,
        files: ExitStack | None,  # noqa: ARG002 (its files are written when each is complete)
    ) -> _PagedSink | None:
        """A paged report's writer (None for a report that fits one file)."""
        source = report.source
        if source is None or len(source) <= PAGE_SIZE:
            return None
        folder = path.with_name(path.stem + ".cases")
        return _PagedSink(self, report, path, PageWriter(report, source, folder))

    def context(self, report: Report, pages: dict[str, Any] | None = None) -> dict[str, Any]:
        """What the template draws: presented sections and the embedded case data (or, for a
        paged report, its first page and where the others are)."""
        index = CaseIndex(report)
        return {
            "report": report,
            "run": report.run,
            "links": self.links,
            "notes": record_notes(report),
            "headline": headline(report),
            "classes": class_counts(report),
            "verdicts": verdict_counts(report),
            "verdict_word": verdict_line(verdict_counts(report))[0],
            "selection": selection_text(report),
            "suites": suite_table(report),
            "severity": severity_table(report),
            "categories": category_table(report),
            "modes": failure_modes(report, 15),
            "worst": worst_cases(report, index),
            "mi": mutual_information(report),
            "clusters": clusters(report, index),
            "safe": safe_view(report, index),
            "extras": extras(report, index),
            "data_json": Markup(script_json(pages if pages else case_payload(report))),
            "output_limit": OUTPUT_LIMIT,
        }


class _PagedSink:
    """Page files as the cases arrive; the report page itself once they are all written."""

    def __init__(self, html: HtmlRenderer, report: Report, path: Path, pages: PageWriter) -> None:
        self.html, self.report, self.path, self.pages = html, report, path, pages

    def add(self, result: CaseResult) -> None:
        self.pages.add(result)

    def close(self) -> None:
        context = self.html.context(self.report, self.pages.close())
        page = render_page("report.html", context, scripts=["report.js"], own_scripts=True)
        atomic_write_text(self.path, redact(page))
