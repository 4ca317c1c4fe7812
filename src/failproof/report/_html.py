"""The HTML report: one self-contained file, readable offline, printable, safe with hostile data."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from markupsafe import Markup

from failproof.guard import atomic_write_text, redact
from failproof.report._html_data import OUTPUT_LIMIT, case_payload, script_json
from failproof.report._html_pages import PAGE_SIZE, write_pages
from failproof.report._model import Report
from failproof.report._page import render_page
from failproof.report._present import (
    CaseIndex,
    category_table,
    class_counts,
    failure_modes,
    headline,
    selection_text,
    severity_table,
    suite_table,
    verdict_counts,
    verdict_line,
    worst_cases,
)
from failproof.report._present_ext import extras
from failproof.report._present_more import clusters, mutual_information, safe_view
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
        source = report.source
        if source is None or len(source) <= PAGE_SIZE:
            super().write(report, path)
            return
        pages = write_pages(report, source, path.with_name(path.stem + ".cases"))
        page = render_page(
            "report.html", self.context(report, pages), scripts=["report.js"], own_scripts=True
        )
        atomic_write_text(path, redact(page))

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
