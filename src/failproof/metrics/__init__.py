"""Run-level metrics: the aggregator registry, FailProof's suite and run scores, robustness."""

from failproof.metrics._base import AggregateContext, Aggregator, aggregators, context_for
from failproof.metrics._robustness import VariantPair, pair_variants
from failproof.metrics._scores import (
    latency_summary,
    overall_run_score,
    penalty_score,
    percentile,
    suite_score,
    weighted_run_score,
)

__all__ = [
    "AggregateContext",
    "Aggregator",
    "VariantPair",
    "aggregators",
    "context_for",
    "latency_summary",
    "overall_run_score",
    "pair_variants",
    "penalty_score",
    "percentile",
    "suite_score",
    "weighted_run_score",
]
