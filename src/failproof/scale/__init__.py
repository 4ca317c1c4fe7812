"""Scale-out: a run's work (``failproof run``, ``failproof score``) sharded across a Ray cluster.

Above the runner: it hands the runner's `WorkPlan` out in shards, each run by `run_shard`
(the local engine and scorers) in a Ray worker, and commits the results to the run's store.
Ray is imported only when `RayExecutor` is made (``pip install 'failproof[ray]'``).
"""

from failproof.runner import WorkExecutor
from failproof.scale._cluster import check_reachable, connected, import_ray
from failproof.scale._ray import RayExecutor
from failproof.scale._shards import (
    SHARDS_PER_WORKER,
    merge_shard,
    shard_plans,
    shard_width,
    share_limits,
)
from failproof.scale._spec import ExecutorSpec, parse_executor

__all__ = [
    "SHARDS_PER_WORKER",
    "ExecutorSpec",
    "RayExecutor",
    "check_reachable",
    "connected",
    "executor_for",
    "import_ray",
    "merge_shard",
    "parse_executor",
    "shard_plans",
    "shard_width",
    "share_limits",
]


def executor_for(text: str, workers: int | None = None) -> WorkExecutor | None:
    """The executor ``--executor TEXT`` names: None for ``local`` (the run's own engine)."""
    spec = parse_executor(text, workers)
    return None if spec.kind == "local" else RayExecutor(spec)
