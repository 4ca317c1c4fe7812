"""Attack throughput against the runner benchmarks' latency server (in its own process).

    python bench/attack_throughput.py [--cases 256] [--budget 8] [--latency-ms 100]

Every case is attacked at concurrency 64 until its budget of target calls is spent (the server's
answer never breaks a case). Prints, per strategy: the calls made (target attempts and attacker
calls), the wall time, attempts per second, the ideal rate (each case's calls are sequential, so
at most 64 chains progress at once, one call per latency), and the runner's CPU per attempt
(this process: HTTP client, scoring, store commit, journal).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from runner_common import cpu_seconds, load_average, write_suite
from runner_server import spawn

from failproof.attack import AttackRequest, StrategyOptions, start_attack
from failproof.config import RunSettings, Settings
from failproof.store import Store

CONCURRENCY = 64


def measure(
    base_url: str, suite: Path, strategy: str, budget: int
) -> tuple[int, int, float, float]:
    """(target attempts, attacker calls, wall s, CPU s) of one attack over the suite."""
    with tempfile.TemporaryDirectory() as home:
        settings = Settings(
            home=Path(home),
            run=RunSettings(concurrency=CONCURRENCY, retries=0, timeout_s=120, cache=False),
        )
        request = AttackRequest(
            suites=(str(suite),),
            target="openai:bench",
            attacker="openai:attacker",
            strategy=strategy,
            budget=budget,
            target_options={"base_url": base_url},
            attacker_options={"base_url": base_url},
            options=StrategyOptions(on_topic=0.0),  # the server's fixed answer is off topic
        )
        with Store(settings.db_path) as store:
            start, cpu = time.perf_counter(), cpu_seconds()
            attack = start_attack(request, settings=settings, store=store)
            wall, cpu_used = time.perf_counter() - start, cpu_seconds() - cpu
            steps = store.attack_steps(attack.id)
    attempts = sum(1 for s in steps if s.kind == "target")
    assert not any(s.error for s in steps), "some calls failed"
    return attempts, len(steps) - attempts, wall, cpu_used


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=256)
    parser.add_argument("--budget", type=int, default=8)
    parser.add_argument("--latency-ms", type=float, default=100.0)
    args = parser.parse_args()
    print(
        f"{args.cases} cases, budget {args.budget}, concurrency {CONCURRENCY}, "
        f"{args.latency_ms:g} ms server latency, scoring on, load average {load_average()}"
    )
    header = ("strategy", "attempts", "attacker", "wall s", "attempts/s", "ideal/s", "CPU ms/att")
    print("{:>10} {:>9} {:>9} {:>7} {:>11} {:>8} {:>11}".format(*header))
    with tempfile.TemporaryDirectory() as tmp, spawn(args.latency_ms) as base_url:
        suite = write_suite(Path(tmp), args.cases)
        measure(base_url, write_suite(Path(tmp), 32, "warm"), "best_of_n", 2)  # imports, connect
        for strategy in ("best_of_n", "iterative", "tree"):
            attempts, attacker, wall, cpu = measure(base_url, suite, strategy, args.budget)
            calls_per_attempt = (attempts + attacker) / attempts
            ideal = CONCURRENCY / (args.latency_ms / 1000) / calls_per_attempt
            print(
                f"{strategy:>10} {attempts:>9} {attacker:>9} {wall:>7.2f} "
                f"{attempts / wall:>11.0f} {ideal:>8.0f} {1000 * cpu / attempts:>11.3f}"
            )


if __name__ == "__main__":
    main()
