"""The pages of ``failproof view``: the run list, a run's report, a comparison, and errors.

Each page comes with the Content-Security-Policy it must be served with (the same as its meta tag,
plus ``frame-ancestors 'none'``, which only a header can carry).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from failproof.report import Comparison, HtmlRenderer, Report
from failproof.report._page import asset, content_security_policy, render_page

__all__ = ["Page", "compare_page", "error_page", "report_page", "runs_page"]

_PACKAGE = "failproof.view"
_FRAMES = "; frame-ancestors 'none'"


@dataclass(frozen=True, slots=True)
class Page:
    """An HTML page and the policy to serve it with."""

    html: str
    csp: str


def _view_page(template: str, context: dict[str, Any]) -> Page:
    html = render_page(template, context, packages=[_PACKAGE], form_action="'self'")
    policy = content_security_policy([asset("report.css")], [], form_action="'self'")
    return Page(html, policy + _FRAMES)


def runs_page(rows: Sequence[dict[str, Any]], store: str) -> Page:
    """The runs in the store, newest first, with their headline numbers and a comparison form."""
    return _view_page("runs.html", {"rows": rows, "store": store})


def report_page(report: Report) -> Page:
    """A run's HTML report, with links back to the run list and to its other formats."""
    base = f"/runs/{report.run.id}"
    links = [
        ("← All runs", "/"),
        ("JSON", f"{base}/report.json"),
        ("Markdown", f"{base}/report.md"),
        ("JUnit", f"{base}/junit.xml"),
    ]
    html = HtmlRenderer(links=links).render(report)
    policy = content_security_policy([asset("report.css")], [asset("report.js")])
    return Page(html, policy + _FRAMES)


def compare_page(comparison: Comparison, limit: int = 200) -> Page:
    """Run A against run B: score deltas per suite, and the cases that flipped."""
    return _view_page("compare.html", {"c": comparison, "limit": limit})


def error_page(status: int, message: str) -> Page:
    """A plain page for 4xx / 5xx answers."""
    return _view_page("error.html", {"status": status, "message": message})
