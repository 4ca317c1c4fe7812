"""What ``failproof view`` answers, independent of the HTTP server: paths in, replies out.

Read-only by construction: the store is opened with SQLite's ``mode=ro``, and only GET and HEAD
reach this module. Reports are built on first request and kept (a few at a time) while their
result count is unchanged, so a run still in progress is rebuilt when it grows.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from failproof.config import Settings
from failproof.metrics import Summary, accumulators, fold
from failproof.metrics._base import context_for
from failproof.report import Report, build_report, compare_reports, renderers
from failproof.view._pages import Page, compare_page, error_page, report_page, runs_page
from failproof.view._reader import ReadOnlyStore

__all__ = ["Reply", "ViewApp"]

_RUN_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$")
_DOWNLOADS = {"report.json": "json", "report.md": "markdown", "junit.xml": "junit"}
_TEXT_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox"
_CACHE = 8


@dataclass(frozen=True, slots=True)
class Reply:
    """An HTTP answer: status, body, and headers besides the common security headers."""

    status: int
    body: bytes
    content_type: str
    headers: dict[str, str] = field(default_factory=dict)

    @classmethod
    def page(cls, page: Page, status: int = 200) -> Reply:
        return cls(
            status,
            page.html.encode("utf-8"),
            "text/html; charset=utf-8",
            {"Content-Security-Policy": page.csp},
        )

    @classmethod
    def error(cls, status: int, message: str) -> Reply:
        return cls.page(error_page(status, message), status)


class ViewApp:
    """Routes: ``/``, ``/runs/<id>``, ``/runs/<id>/{report.json,report.md,junit.xml}``,
    ``/compare?a=<id>&b=<id>``."""

    def __init__(self, store: ReadOnlyStore, settings: Settings, *, limit: int = 100) -> None:
        self.store = store
        self.settings = settings
        self.limit = limit
        self._lock = threading.Lock()
        self._reports: OrderedDict[str, tuple[int, Report]] = OrderedDict()
        self._summaries: dict[str, tuple[int, Summary | None]] = {}

    def handle(self, target: str) -> Reply:
        """The reply to ``GET target`` (a path with its query string)."""
        url = urlsplit(target)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        parts = [p for p in url.path.split("/") if p]
        if not parts:
            return Reply.page(runs_page(self._rows(), str(self.store.path)))
        if parts == ["compare"]:
            return self._compare(query.get("a", ""), query.get("b", ""))
        if parts[0] == "runs" and len(parts) in (2, 3):
            return self._run(parts[1], parts[2] if len(parts) == 3 else None)
        return Reply.error(404, "There is no such page.")

    # -- runs ------------------------------------------------------------------------------

    def report(self, run_id: str) -> Report | None:
        """The run's report (cached while its result count is unchanged), or None if unknown."""
        if not _RUN_ID.match(run_id):
            return None
        count = self.store.count_results(run_id)
        with self._lock:
            cached = self._reports.get(run_id)
            if cached is not None and cached[0] == count:
                self._reports.move_to_end(run_id)
                return cached[1]
        run = self.store.get_run(run_id)
        if run is None:
            return None
        built = build_report(run, self.store.results(run_id), self.settings)
        with self._lock:
            self._reports[run_id] = (count, built)
            while len(self._reports) > _CACHE:
                self._reports.popitem(last=False)
        return built

    def _run(self, run_id: str, download: str | None) -> Reply:
        if download is not None and download not in _DOWNLOADS:
            return Reply.error(404, "There is no such page.")
        report = self.report(run_id)
        if report is None:
            return Reply.error(404, f"The store has no run {run_id!r}.")
        if download is None:
            return Reply.page(report_page(report))
        text = renderers.get(_DOWNLOADS[download])().render(report)
        return Reply(
            200,
            text.encode("utf-8"),
            "text/plain; charset=utf-8",
            {"Content-Security-Policy": _TEXT_CSP},
        )

    def _compare(self, a: str, b: str) -> Reply:
        first, second = self.report(a), self.report(b)
        if first is None or second is None:
            missing = a if first is None else b
            return Reply.error(404, f"The store has no run {missing!r} to compare.")
        return Reply.page(compare_page(compare_reports(first, second)))

    # -- the run list ----------------------------------------------------------------------

    def _summary(self, run_id: str, total: int) -> Summary | None:
        """The run's ``summary`` section (cheap: no geometry), cached by result count."""
        with self._lock:
            cached = self._summaries.get(run_id)
        if cached is not None and cached[0] == total:
            return cached[1]
        run = self.store.get_run(run_id)
        if run is None:
            return None
        ctx = context_for(run, self.settings)
        folded = fold(accumulators.get("summary")(ctx), self.store.results(run_id))
        summary = folded if isinstance(folded, Summary) else None
        with self._lock:
            self._summaries[run_id] = (total, summary)
        return summary

    def _rows(self) -> list[dict[str, Any]]:
        runs = self.store.list_runs(self.limit)
        rows = []
        for i, run in enumerate(runs):
            summary = self._summary(run.id, run.total)
            previous = runs[i + 1].id if i + 1 < len(runs) else None
            rows.append({"run": run, "summary": summary, "previous": previous})
        return rows
