"""A run's report built while its results are stored: each one goes to the report in report
order as soon as every result before it is in."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from failproof.core import CaseResult, Run
from failproof.store import StoredResults

if TYPE_CHECKING:  # given by the thread that loads the report (see `_prepare_report`)
    from failproof.report._model import Report, ReportBuilder

__all__ = ["WAITING", "LiveReport"]

Key = tuple[str, str, int]
#: Results that may wait for one before them in the report; past that the report is built from
#: the store (a run too large to hold its results keeps at most these for its sections).
WAITING = 2_000


class LiveReport:
    """A result sink that feeds a `ReportBuilder` the run's results in report order (by key).

    ``keys`` are the results the run will store. A result that arrives before one that comes
    before it in the report waits in memory for it, and so do all of them until the builder is
    given (`begin`, from the thread that prepares the report); when more than `WAITING` would
    wait, the sink gives up and lets them go. The builder's report is the run's only when
    `complete`: every key was added once and nothing failed; otherwise the run builds its report
    from the store, as it would without this sink, and meets any error there.
    """

    def __init__(self, keys: Iterable[Key]) -> None:
        self.builder: ReportBuilder | None = None
        self.order = sorted(keys)
        self.expected = set(self.order)
        self.waiting: dict[Key, CaseResult] = {}
        self.added = 0
        self.failed = False

    def begin(self, builder: ReportBuilder) -> None:
        """Feed ``builder`` from the next result stored (or `catch_up`) on."""
        self.builder = builder

    def __call__(self, result: CaseResult) -> None:
        key = result.key
        if self.failed or key not in self.expected:
            self.failed = True  # a key not planned, or stored twice
            return
        self.expected.discard(key)
        self.waiting[key] = result
        self.catch_up()
        if len(self.waiting) > WAITING:  # one result kept the others waiting too long
            self.failed = True
            self.waiting.clear()

    def catch_up(self) -> None:
        """Give the builder every result whose turn has come (the sink does it as results are
        stored; the run once more when they are all in and the builder was given late)."""
        if self.builder is None or self.failed:
            return
        try:
            while self.added < len(self.order) and self.order[self.added] in self.waiting:
                self.builder.add(self.waiting.pop(self.order[self.added]))
                self.added += 1
        except Exception:  # a section that fails fails in the report built from the store
            self.failed = True

    @property
    def complete(self) -> bool:
        return self.builder is not None and not self.failed and self.added == len(self.order)

    def report(self, run: Run, source: StoredResults) -> Report | None:
        """The report of ``run`` when `complete` (``source``: the results given, again, in
        report order), else None: also when a section fails to finish (one computed in another
        process that stopped, say)."""
        self.catch_up()
        if self.builder is None or not self.complete:
            return None
        try:
            return self.builder.finish(run, source)
        except Exception:  # the report built from the store meets the error, or does not
            return None
