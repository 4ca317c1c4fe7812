"""Memory of a long run: 100,000 cases against a local server that answers at once.

    python bench/runner_memory.py [--cases 100000] [--concurrency 64] [--no-report]

Samples the memory (PSS: resident, shared pages split between the processes sharing them) of
the runner and of its scoring workers every half second and
prints it at each tenth of the run, the peak while cases run, and the peak while the report is
built from the store afterwards. Flat means the samples stop growing once the run is under way.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from runner_common import load_average, write_suite
from runner_server import spawn

from failproof.config import RunSettings, Settings
from failproof.core import CaseResult
from failproof.runner import RunRequest, start_run
from failproof.store import Store


def rss_mb(pid: int | str = "self") -> float:
    """Proportional set size: resident memory, pages shared with other processes split evenly
    (the scoring workers are forked and share the runner's pages)."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return 0.0


def children() -> list[str]:
    found: list[str] = []
    for task in Path("/proc/self/task").iterdir():
        found += (task / "children").read_text().split()
    return found


def workers_rss_mb(server_pid: int) -> float:
    total = 0.0
    for pid in children():
        if int(pid) != server_pid:
            try:
                total += rss_mb(pid)
            except OSError:
                continue
    return total


class Sampler(threading.Thread):
    """Samples (seconds, completed, runner MB, workers MB) twice a second."""

    def __init__(self, server_pid: int) -> None:
        super().__init__(daemon=True)
        self.server_pid = server_pid
        self.completed = 0
        self.samples: list[tuple[float, int, float, float]] = []
        self.stop = threading.Event()
        self.start_time = time.perf_counter()

    def run(self) -> None:
        while not self.stop.wait(0.5):
            now = time.perf_counter() - self.start_time
            sample = (now, self.completed, rss_mb(), workers_rss_mb(self.server_pid))
            self.samples.append(sample)

    def count(self, _result: CaseResult) -> None:
        self.completed += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--concurrency", type=int, default=64)
    args = parser.parse_args()
    print(f"{args.cases} cases, concurrency {args.concurrency}, load average {load_average()}")
    with tempfile.TemporaryDirectory() as tmp, spawn(0) as base_url:
        folder = Path(tmp)
        suite = write_suite(folder, args.cases)
        settings = Settings(
            home=folder / "home", run=RunSettings(concurrency=args.concurrency, retries=0)
        )
        request = RunRequest(
            suites=(str(suite),), target="openai:bench", target_options={"base_url": base_url}
        )
        print(f"before the run: runner {rss_mb():.0f} MB")
        sampler = Sampler(server_pid=0)
        server = [int(p) for p in children()]
        sampler.server_pid = server[0] if server else 0
        sampler.start()
        with Store(settings.db_path) as store:
            outcome = start_run(
                request,
                settings=settings,
                store=store,
                responses_path=folder / "out/responses.jsonl",
                sinks=[sampler.count],
            )
        sampler.stop.set()
        sampler.join()
    report(sampler, args.cases, outcome.report.summary.total_cases)


def report(sampler: Sampler, cases: int, stored: int) -> None:
    running = [s for s in sampler.samples if s[1] < cases]
    after = [s for s in sampler.samples if s[1] >= cases]
    print(f"{'done':>8} {'seconds':>8} {'runner MB':>10} {'workers MB':>11}")
    shown = -1
    for seconds, done, runner, workers in running:
        tenth = done * 10 // cases
        if tenth > shown:
            shown = tenth
            print(f"{done:>8} {seconds:>8.1f} {runner:>10.0f} {workers:>11.0f}")
    if running:
        elapsed = running[-1][0]
        print(f"rate {running[-1][1] / elapsed:.0f} cases/s while running")
        print(
            f"peak while running: runner {max(s[2] for s in running):.0f} MB, "
            f"workers {max(s[3] for s in running):.0f} MB, "
            f"together {max(s[2] + s[3] for s in running):.0f} MB"
        )
    if after:
        print(
            f"peak while building the report: runner {max(s[2] for s in after):.0f} MB "
            f"({after[-1][0] - (running[-1][0] if running else 0):.0f} s)"
        )
    print(f"stored results: {stored}")


if __name__ == "__main__":
    main()
