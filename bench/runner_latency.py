"""With 100 ms of simulated latency: how close does the runner get to the ideal time?

    python bench/runner_latency.py [--cases 2000] [--latency-ms 100]

Ideal = cases x latency / concurrency; "run" is the time from the first call to the last stored
result (loading the suites, building the scorers and starting the workers is "setup").
Targets: within 1.05x at concurrency 16, 1.15x at 64 and 1.4x at 256, scoring included (every
registered scorer). The server runs in its own process; "CPU ms/case" is the runner's own CPU
(its event loop and its scoring workers) per case: on a busy machine wall times read slow, CPU
much less so.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from runner_common import best_of, load_average, timed_run, write_suite
from runner_server import spawn

TARGETS = {16: 1.05, 64: 1.15, 256: 1.4}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--latency-ms", type=float, default=100.0)
    parser.add_argument("--best-of", type=int, default=1, help="keep the fastest of N runs")
    args = parser.parse_args()
    print(
        f"{args.cases} cases, {args.latency_ms:g} ms server latency, scoring on, "
        f"best of {args.best_of}, load average {load_average()}"
    )
    header = ("concurrency", "ideal s", "run s", "x ideal", "target", "CPU ms/case", "setup s")
    print("{:>11} {:>8} {:>7} {:>8} {:>7} {:>12} {:>8} {:>9}".format(*header, "report s"))
    with tempfile.TemporaryDirectory() as tmp, spawn(args.latency_ms) as base_url:
        suite = write_suite(Path(tmp), args.cases)
        timed_run(base_url, write_suite(Path(tmp), 100, "warm"), 16)
        for concurrency, target in TARGETS.items():
            timed = best_of(args.best_of, lambda c=concurrency: timed_run(base_url, suite, c))
            ideal = args.cases * args.latency_ms / 1000 / concurrency
            ratio = timed.wall_s / ideal
            verdict = "ok" if ratio <= target else "MISSED"
            print(
                f"{concurrency:>11} {ideal:>8.2f} {timed.wall_s:>7.2f} {ratio:>8.3f} "
                f"{target:>6.2f}x {timed.cpu_ms_per_request:>12.3f} {timed.setup_s:>8.2f} "
                f"{timed.report_s:>9.2f}  {verdict}"
            )


if __name__ == "__main__":
    main()
