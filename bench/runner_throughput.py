"""Runner throughput against a local server that answers at once (server in its own process).

    python bench/runner_throughput.py [--requests 3000] [--no-scoring]

Prints requests/s at concurrency 1, 16, 64, 256 and the client's CPU per request: the runner's
own overhead (HTTP client, scoring, store commit, JSONL), since the server runs elsewhere.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from runner_common import best_of, load_average, timed_run, write_suite
from runner_server import spawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=3000)
    parser.add_argument("--no-scoring", action="store_true", help="measure without scorers")
    parser.add_argument("--best-of", type=int, default=1, help="keep the fastest of N runs")
    args = parser.parse_args()
    if args.no_scoring:
        import failproof.runner._run as run_module

        run_module.build_scorers = lambda settings: []  # type: ignore[assignment]
    scoring = "off" if args.no_scoring else "on"
    print(
        f"{args.requests} requests per row, instant server, scoring {scoring}, "
        f"best of {args.best_of}, load average {load_average()}"
    )
    print(f"{'concurrency':>11} {'req/s':>8} {'client CPU ms/req':>18} {'setup s':>8}")
    with tempfile.TemporaryDirectory() as tmp, spawn(0) as base_url:
        suite = write_suite(Path(tmp), args.requests)
        timed_run(base_url, write_suite(Path(tmp), 200, "warm"), 16)  # imports, first connect
        for concurrency in (1, 16, 64, 256):
            timed = best_of(args.best_of, lambda c=concurrency: timed_run(base_url, suite, c))
            print(
                f"{concurrency:>11} {timed.rate:>8.0f} {timed.cpu_ms_per_request:>18.3f} "
                f"{timed.setup_s:>8.2f}"
            )


if __name__ == "__main__":
    main()
