"""Scale-out: a run's work (``failproof run``, ``failproof score``) sharded across a Ray cluster.

Above the runner: it hands the runner's `WorkPlan` out in shards, each run by `run_shard`
(the local engine and scorers) in a Ray worker, and commits the results to the run's store.
Ray is imported only when `RayExecutor` is made (``pip install 'failproof[ray]'``).
"""

from failproof.scale._cluster import import_ray
from failproof.scale._ray import RayExecutor
from failproof.scale._shards import merge_shard, shard_plans
from failproof.scale._spec import ExecutorSpec

__all__ = [
    "ExecutorSpec",
    "RayExecutor",
    "import_ray",
    "merge_shard",
    "shard_plans",
]
