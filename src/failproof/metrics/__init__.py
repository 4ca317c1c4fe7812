"""Run-level metrics: aggregators and accumulators, FailProof's suite and run scores, robustness."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.metrics._accumulate import Accumulator, TopN, accumulators, fold, folded
    from failproof.metrics._base import (
        AggregateContext,
        Aggregator,
        aggregators,
        context_for,
        declare_section,
        section_models,
    )
    from failproof.metrics._consistency import case_consistency
    from failproof.metrics._geometry_section import GeometryCluster, Observability
    from failproof.metrics._probe_section import AggregateMetrics, RankedCategory
    from failproof.metrics._robustness import pair_variants
    from failproof.metrics._run import (
        aggregate_run,
        aggregate_stream,
    )
    from failproof.metrics._scores import (
        latency_summary,
        overall_run_score,
        penalty_score,
        percentile,
        suite_score,
        weighted_run_score,
    )
    from failproof.metrics._summary_section import Latency, SuiteRow, Summary

__all__ = [
    "Accumulator",
    "AggregateContext",
    "AggregateMetrics",
    "Aggregator",
    "GeometryCluster",
    "Latency",
    "Observability",
    "RankedCategory",
    "SuiteRow",
    "Summary",
    "TopN",
    "accumulators",
    "aggregate_run",
    "aggregate_stream",
    "aggregators",
    "case_consistency",
    "context_for",
    "declare_section",
    "fold",
    "folded",
    "latency_summary",
    "overall_run_score",
    "pair_variants",
    "penalty_score",
    "percentile",
    "section_models",
    "suite_score",
    "weighted_run_score",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._accumulate": ("Accumulator", "TopN", "accumulators", "fold", "folded"),
            "._base": (
                "AggregateContext",
                "Aggregator",
                "aggregators",
                "context_for",
                "declare_section",
                "section_models",
            ),
            "._consistency": ("case_consistency",),
            "._geometry_section": ("GeometryCluster", "Observability"),
            "._probe_section": ("AggregateMetrics", "RankedCategory"),
            "._robustness": ("pair_variants",),
            "._run": ("aggregate_run", "aggregate_stream"),
            "._scores": (
                "latency_summary",
                "overall_run_score",
                "penalty_score",
                "percentile",
                "suite_score",
                "weighted_run_score",
            ),
            "._summary_section": ("Latency", "SuiteRow", "Summary"),
        },
    )
