"""Run-level metrics: aggregators and accumulators, FailProof's suite and run scores, robustness."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.metrics._accumulate import Accumulator, accumulators, fold, folded
    from failproof.metrics._base import AggregateContext, Aggregator, aggregators, declare_section
    from failproof.metrics._geometry_section import Observability
    from failproof.metrics._probe_section import AggregateMetrics
    from failproof.metrics._run import aggregate_run, aggregate_stream
    from failproof.metrics._summary_section import Summary

__all__ = [
    "Accumulator",
    "AggregateContext",
    "AggregateMetrics",
    "Aggregator",
    "Observability",
    "Summary",
    "accumulators",
    "aggregate_run",
    "aggregate_stream",
    "aggregators",
    "declare_section",
    "fold",
    "folded",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(__name__)
