"""Benchmark: scoring recorded answers locally and on Ray (1 and 2 workers), the per-record and
coordination costs, and the throughput projected for N workers.

Builds N recorded answers for the built-in suites' cases (the answers of bench/classify.py),
then scores them (1) with the local path (the engine replaying into the SQLite store, one commit
per result), (2) with the Ray executor on a local cluster of 2 CPUs using 1 and then 2 workers.
It measures what one record costs in a worker, what a shard costs beyond its records (a task's
round trip, building the scorers, moving the plan and the results), and what the driver spends
per record (receiving and committing), and projects the throughput of N workers from them.

    python bench/ray_scale.py [--n 3000] [--seed 0]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import pickle
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

# a single-machine cluster: Ray opens its ports on 127.0.0.1 (read when ray is imported)
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from classify import build

from failproof.config import Settings
from failproof.core import Run
from failproof.runner import WorkPlan, run_shard
from failproof.runner._plan import WorkItem
from failproof.runner._record import resolve_scoring
from failproof.runner._scoring import InlineScoring
from failproof.runner._setup import make_engine
from failproof.scale import (
    ExecutorSpec,
    RayExecutor,
    import_ray,
    merge_shard,
    shard_plans,
)
from failproof.scoring import build_scorers
from failproof.store import Store
from failproof.suites import builtin_suite_names, resolve_suite
from failproof.targets import RecordedResponse, RecordedResponses, ReplayTarget


def make_plan(n: int, seed: int, settings: Settings) -> WorkPlan:
    """N recorded answers, each for its own copy of a built-in case (ids made unique)."""
    pairs = build(n, seed)
    recorded = RecordedResponses(source="bench")
    items = []
    for index, (case, response) in enumerate(pairs):
        copy = case.model_copy(update={"id": f"{case.id}~{index}"})
        recorded.by_key[(copy.suite, copy.id)] = RecordedResponse(
            case_id=copy.id,
            suite=copy.suite,
            output=response.output if response.error is None else None,
            error=response.error,
            latency_ms=response.latency_ms,
        )
        items.append(WorkItem(copy))
    suites = [resolve_suite(name) for name in builtin_suite_names()]
    scoring = resolve_scoring(settings, suites)
    names = tuple(s.name for s in build_scorers(scoring))
    calm = settings.run.model_copy(
        update={"concurrency": 1, "retries": 0, "cache": False, "max_consecutive_failures": 0}
    )
    run = Run(id="bench", target={"name": "replay"}, suites=[s.name for s in suites], config={})
    return WorkPlan(
        run=run,
        items=tuple(items),
        scoring=scoring,
        scorer_names=names,
        settings=calm,
        target="replay",
        recorded=recorded,
    )


def fresh_store(folder: Path, plan: WorkPlan, tag: str) -> tuple[Store, WorkPlan]:
    store = Store(folder / f"{tag}.db")
    run = plan.run.model_copy(update={"id": tag})
    store.create_run(run)
    return store, replace(plan, run=run)


def timed(step: Callable[[], object]) -> tuple[float, float]:
    """(wall seconds, this process's CPU seconds) of ``step``."""
    wall, cpu = time.perf_counter(), time.process_time()
    step()
    return time.perf_counter() - wall, time.process_time() - cpu


def local_path(plan: WorkPlan, store: Store) -> None:
    """What ``failproof score`` does without an executor: replay, score, commit each result."""
    assert plan.recorded is not None
    target = ReplayTarget(plan.recorded)
    scoring = InlineScoring(build_scorers(plan.scoring, list(plan.scorer_names)))
    engine = make_engine(plan.settings, target, scoring, store, plan.run.id, use_cache=False)

    async def go() -> None:
        async with target:
            await engine.run(iter(plan.items))

    asyncio.run(go())
    scoring.close()


def coordination(ray: Any, plan: WorkPlan, folder: Path) -> dict[str, float]:
    """Per-task round trip, scorer build, (de)serialization and driver commit costs."""
    noop = ray.remote(num_cpus=1)(_noop)
    ray.get([noop.remote() for _ in range(20)])
    trips = []
    for _ in range(100):
        start = time.perf_counter()
        ray.get(noop.remote())
        trips.append(time.perf_counter() - start)
    many = 400
    start = time.perf_counter()
    ray.get([noop.remote() for _ in range(many)])
    tasks_per_s = many / (time.perf_counter() - start)
    build_s, _ = timed(lambda: build_scorers(plan.scoring, list(plan.scorer_names)))
    shard = replace(plan, items=plan.items[:500], recorded=_subset(plan, 500))
    blob = pickle.dumps(shard)
    pickled_s, _ = timed(lambda: pickle.loads(pickle.dumps(shard)))
    empty = pickle.dumps(replace(shard, items=(), recorded=RecordedResponses(source="bench")))
    outcome = run_shard(shard)
    out_blob = pickle.dumps(outcome)
    out_s, _ = timed(lambda: pickle.loads(pickle.dumps(outcome)))
    store, part = fresh_store(folder, plan, "merge")
    merge_s, merge_cpu = timed(lambda: merge_shard(store, part.run.id, outcome))
    store.close()
    n = len(shard.items)
    return {
        "task round trip (median, s)": statistics.median(trips),
        "tasks/s (400 empty tasks, 2 workers)": tasks_per_s,
        "build scorers per shard (s)": build_s,
        "shard plan fixed bytes": len(empty),
        "shard plan bytes per record": (len(blob) - len(empty)) / n,
        "plan pickle+unpickle per record (s)": pickled_s / n,
        "outcome bytes per record": len(out_blob) / n,
        "outcome pickle+unpickle per record (s)": out_s / n,
        "driver commit per record (s)": merge_s / n,
        "driver commit CPU per record (s)": merge_cpu / n,
    }


def _noop() -> None:
    return None


def _subset(plan: WorkPlan, n: int) -> RecordedResponses:
    assert plan.recorded is not None
    part = RecordedResponses(source="bench")
    for item in plan.items[:n]:
        key = (item.case.suite, item.case.id)
        part.by_key[key] = plan.recorded.by_key[key]
    return part


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    logging.getLogger("ray").setLevel(logging.ERROR)
    load = os.getloadavg()
    settings = Settings()
    plan = make_plan(args.n, args.seed, settings)
    n = len(plan.items)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = measure(plan, folder)
    per_record = rows.pop("_per_record")
    costs = rows.pop("_costs")
    print(f"recorded answers: {n:,}; machine: {os.cpu_count()} cores; load before {load[0]:.1f}")
    print(f"{'executor':<22} {'wall s':>8} {'answers/s':>10} {'driver CPU s':>13}")
    for name, (wall, cpu) in rows.items():
        print(f"{name:<22} {wall:8.2f} {n / wall:10,.0f} {cpu:13.2f}")
    print("\ncosts")
    print(f"  {'per record in a worker (run_shard, in process) (s)':<52} {per_record:.6f}")
    for name, value in costs.items():
        print(f"  {name:<52} {value:.6g}")
    project(per_record, costs)
    print(f"\nload after: {os.getloadavg()[0]:.1f} (2 cores shared: the Ray rows compete with it)")


def measure(plan: WorkPlan, folder: Path) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    store, part = fresh_store(folder, plan, "local")
    rows["local"] = timed(lambda: local_path(part, store))
    store.close()
    _, cpu = timed(lambda: run_shard(plan))
    per_record = cpu / len(plan.items)
    ray = import_ray()
    start_s, _ = timed(
        lambda: ray.init(
            num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR
        )
    )
    try:
        warm = replace(plan, items=plan.items[:40])
        first = RayExecutor(ExecutorSpec("ray", None, 2))
        cold, _ = timed(lambda: first.execute(*_s(folder, warm, "warm")))
        for workers in (1, 2):
            store, part = fresh_store(folder, plan, f"ray{workers}")
            executor = RayExecutor(ExecutorSpec("ray", None, workers))
            rows[f"ray, {workers} worker{'s' * (workers > 1)}"] = timed(
                lambda e=executor, p=part, s=store: e.execute(p, s, ())
            )
            assert store.count_results(part.run.id) == len(plan.items)
            store.close()
        costs = coordination(ray, plan, folder)
    finally:
        ray.shutdown()
    costs["cluster start, 2 CPUs (s)"] = start_s
    costs["first shards (worker start, imports) (s)"] = cold
    costs["shards per run (2 workers)"] = len(shard_plans(plan, 2))
    rows["_per_record"] = per_record
    rows["_costs"] = costs
    return rows


def _s(folder: Path, plan: WorkPlan, tag: str) -> tuple[WorkPlan, Store, tuple[()]]:
    store, part = fresh_store(folder, plan, tag)
    return part, store, ()


def project(per_record: float, costs: dict[str, float]) -> None:
    """Throughput of N workers: each shard of S records costs a fixed part plus S records; the
    driver receives and commits every record, which caps the total."""
    shard = 5_000
    fixed = costs["task round trip (median, s)"] + costs["build scorers per shard (s)"]
    worker = shard / (fixed + shard * (per_record + costs["plan pickle+unpickle per record (s)"]))
    driver = 1 / (
        costs["driver commit per record (s)"] + costs["outcome pickle+unpickle per record (s)"]
    )
    print(f"\nprojection (shards of {shard:,} records; driver commits into one SQLite store)")
    inbound = driver * costs["outcome bytes per record"] / 1e6
    print(f"  one worker: {worker:,.0f} answers/s; the driver caps the run at {driver:,.0f}/s")
    print(f"  (at the cap the driver receives {inbound:,.0f} MB/s of results)")
    print(f"  {'workers':>8} {'answers/s':>12} {'100 M answers take':>20}")
    for workers in (1, 2, 4, 8, 16, 32, 64, 128, 256):
        rate = min(workers * worker, driver)
        print(f"  {workers:>8} {rate:12,.0f} {100e6 / rate / 3600:17.1f} h")


if __name__ == "__main__":
    main()
