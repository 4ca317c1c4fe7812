"""Run-level metrics: aggregators and accumulators, FailProof's suite and run scores, robustness."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.metrics._accumulate import Accumulator, Collect, TopN, accumulators, fold
    from failproof.metrics._base import (
        AggregateContext,
        Aggregator,
        aggregators,
        context_for,
        declare_section,
        section_models,
    )
    from failproof.metrics._consistency import case_consistency, consistency_section
    from failproof.metrics._geometry_section import GeometryCluster, Observability
    from failproof.metrics._probe_section import AggregateMetrics, RankedCategory
    from failproof.metrics._robustness import VariantPair, pair_variants
    from failproof.metrics._run import (
        CORE_SECTIONS,
        RunAggregates,
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
    "CORE_SECTIONS",
    "Accumulator",
    "AggregateContext",
    "AggregateMetrics",
    "Aggregator",
    "Collect",
    "GeometryCluster",
    "Latency",
    "Observability",
    "RankedCategory",
    "RunAggregates",
    "SuiteRow",
    "Summary",
    "TopN",
    "VariantPair",
    "accumulators",
    "aggregate_run",
    "aggregate_stream",
    "aggregators",
    "case_consistency",
    "consistency_section",
    "context_for",
    "declare_section",
    "fold",
    "latency_summary",
    "overall_run_score",
    "pair_variants",
    "penalty_score",
    "percentile",
    "section_models",
    "suite_score",
    "weighted_run_score",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "._accumulate": ("Accumulator", "Collect", "TopN", "accumulators", "fold"),
        "._base": (
            "AggregateContext",
            "Aggregator",
            "aggregators",
            "context_for",
            "declare_section",
            "section_models",
        ),
        "._consistency": ("case_consistency", "consistency_section"),
        "._geometry_section": ("GeometryCluster", "Observability"),
        "._probe_section": ("AggregateMetrics", "RankedCategory"),
        "._robustness": ("VariantPair", "pair_variants"),
        "._run": ("CORE_SECTIONS", "RunAggregates", "aggregate_run", "aggregate_stream"),
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
