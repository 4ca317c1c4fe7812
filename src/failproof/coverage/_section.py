"""The ``coverage`` report section: what the run covered, with the failures per category."""

from __future__ import annotations

from failproof.core import CaseResult
from failproof.core._case_verdict import case_verdict
from failproof.coverage._model import Coverage
from failproof.coverage._tally import Tally
from failproof.metrics import AggregateContext, accumulators, aggregators, declare_section, folded

__all__ = ["CoverageAccumulator", "coverage_section"]


class CoverageAccumulator:
    """`coverage_section` in one pass; memory grows with the taxonomy ids, not the answers."""

    def __init__(self, _ctx: AggregateContext | None = None) -> None:
        self.tally = Tally(run=True)

    def add(self, result: CaseResult) -> None:
        """One answer, failed when its verdict is (an unsafe tool call, a scorer error, a SAFE
        fail: whatever fails the case fails its categories). A case that was not sent
        (unsupported) tested nothing, so it covers nothing: what only it would have tested
        shows as not tested by this run."""
        if result.unsupported is None:
            failed = case_verdict(result) == "fail"
            self.tally.add(
                result.suite, result.case_id, result.taxonomy, result.primary, failed=failed
            )

    def finish(self) -> Coverage | None:
        return self.section() if self.tally.cases else None

    def section(self) -> Coverage:
        """The section as its typed model."""
        return self.tally.coverage()


accumulators.register("coverage")(CoverageAccumulator)
#: Per framework and category: the answers labelled with it, failed, errors, suites.
coverage_section = aggregators.register("coverage")(folded(CoverageAccumulator))


declare_section("coverage", Coverage)
