"""The Ray executor: a run's work in shards across a Ray cluster, committed here as they land."""

from __future__ import annotations

import contextlib
import socket
from collections import deque
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from failproof.errors import ExecutorLost
from failproof.runner import WorkPlan, run_shard
from failproof.runner._engine import ResultSink
from failproof.runner._sharded import Executed
from failproof.scale._cluster import check_reachable, connected, import_ray
from failproof.scale._shards import merge_shard, shard_plans, shard_width
from failproof.scale._spec import ExecutorSpec
from failproof.store import Store

__all__ = ["RayExecutor"]

#: How often a run waiting on its shards checks that the cluster is still there.
_POLL_S = 1.0


class RayExecutor:
    """Runs each shard as one Ray task (`run_shard`: the local engine, scorers and target code)
    and commits each shard's results to the run's store as it comes back.

    At most as many shards run at once as there are slots, so the run's limits, split evenly
    among them, hold for the run as a whole. A shard that calls a live target is not retried by
    Ray (its calls would be sent twice); ``--resume`` finishes what a failed shard left.
    Made at the edge: Ray missing, or nothing at the address, fails here before any work.
    """

    def __init__(self, spec: ExecutorSpec) -> None:
        self.spec = spec
        self._ray: ModuleType = import_ray(spec)
        check_reachable(spec)

    def execute(self, plan: WorkPlan, store: Store, sinks: Sequence[ResultSink]) -> Executed:
        done = Executed()
        with connected(self._ray, self.spec) as slots:
            width = shard_width(plan, slots)
            retries = 2 if plan.recorded is not None else 0
            task = self._ray.remote(num_cpus=1, max_retries=retries)(run_shard)
            gcs = str(self._ray.get_runtime_context().gcs_address)
            queue = deque(shard_plans(plan, width))
            running: list[Any] = []
            try:
                while queue or running:
                    while queue and len(running) < width:
                        running.append(task.remote(queue.popleft()))
                    ready, running = self._ray.wait(running, num_returns=1, timeout=_POLL_S)
                    if not ready:
                        self._check_alive(gcs)
                    for outcome in map(self._result, ready):
                        merge_shard(store, plan.run.id, outcome, sinks)
                        done.add(outcome)
            except self._ray.exceptions.RayTaskError:
                raise
            except (self._ray.exceptions.RayError, ConnectionError) as exc:
                raise self._lost(exc) from None
            finally:
                for ref in running:
                    with contextlib.suppress(Exception):  # the cluster may be gone already
                        self._ray.cancel(ref, force=True)
        return done

    def _check_alive(self, gcs: str) -> None:
        """Raise `ExecutorLost` when the cluster's control service stopped answering: Ray itself
        would end this process (exit 1) once its own reconnection gives up."""
        host, _, port = gcs.rpartition(":")
        try:
            socket.create_connection((host, int(port)), timeout=_POLL_S).close()
        except (OSError, ValueError) as exc:
            raise self._lost(exc) from None

    def _lost(self, exc: BaseException) -> ExecutorLost:
        where = self.spec.address or "started for the run"
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0][:200]
        return ExecutorLost(
            f"the Ray cluster ({where}) went away mid-run: {type(exc).__name__}: {first}; "
            "every shard that finished is stored"
        )

    def _result(self, ref: Any) -> Any:
        """A shard's outcome; a failure in the shard is raised here as itself."""
        try:
            return self._ray.get(ref)
        except self._ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, Exception):
                raise cause from None
            raise
