"""With 100 ms of simulated latency: how close does the runner get to the ideal time?

    python bench/runner_latency.py [--cases 2000] [--latency-ms 100]

Ideal = cases x latency / concurrency. Targets: within 1.15x at concurrency 64 and 1.4x at 256,
scoring included (every registered scorer). The server runs in its own process.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from runner_common import timed_run, write_suite  # noqa: E402
from runner_server import spawn  # noqa: E402

TARGETS = {16: 1.15, 64: 1.15, 256: 1.4}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--latency-ms", type=float, default=100.0)
    args = parser.parse_args()
    print(f"{args.cases} cases, {args.latency_ms:g} ms server latency, scoring on")
    print(f"{'concurrency':>11} {'ideal s':>8} {'run s':>7} {'x ideal':>8} {'target':>7} {'report s':>9}")
    with tempfile.TemporaryDirectory() as tmp, spawn(args.latency_ms) as base_url:
        suite = write_suite(Path(tmp), args.cases)
        timed_run(base_url, write_suite(Path(tmp), 100, "warm"), 16)
        for concurrency, target in TARGETS.items():
            timed = timed_run(base_url, suite, concurrency)
            ideal = args.cases * args.latency_ms / 1000 / concurrency
            ratio = timed.wall_s / ideal
            verdict = "ok" if ratio <= target else "MISSED"
            print(
                f"{concurrency:>11} {ideal:>8.2f} {timed.wall_s:>7.2f} {ratio:>8.3f} "
                f"{target:>6.2f}x {timed.report_s:>9.2f}  {verdict}"
            )


if __name__ == "__main__":
    main()
