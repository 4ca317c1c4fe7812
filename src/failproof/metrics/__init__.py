"""Run-level metrics: the aggregator registry and FailProof's suite and run scores."""

from failproof.metrics._base import AggregateContext, Aggregator, aggregators
from failproof.metrics._scores import overall_run_score, suite_score, weighted_run_score

__all__ = [
    "AggregateContext",
    "Aggregator",
    "aggregators",
    "overall_run_score",
    "suite_score",
    "weighted_run_score",
]
