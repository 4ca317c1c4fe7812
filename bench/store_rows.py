"""Benchmark: what storing one result costs, by the store file's page size.

Scores the inputs of ``bench/score_margin.py`` (recorded answers of 1-2 KB to the built-in
suites' cases) in this process, then stores the same results into fresh stores whose files use
each page size, 256 results a commit (the runner's group commit), and prints the CPU and wall
microseconds per result stored (the median of ``--repeat`` rounds, the page sizes interleaved):

    python bench/store_rows.py [--results 2828] [--repeat 5] [--page-sizes 4096,16384]

The store's own `PAGE_SIZE` is what a new store gets; the other sizes are set on the file
before the store opens it (SQLite keeps a file's page size once it holds a table).
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from runner_common import load_average
from score_margin import builtin_cases, write_run

from failproof.core import CaseResult, Run

BATCH = 256


def scored_results(folder: Path, n: int) -> list[CaseResult]:
    """``n`` results of the classifier and the probe on the margin benchmark's answers."""
    from failproof.config import ScoringConfig, Settings
    from failproof.core import Case
    from failproof.scoring import score_case, scorers
    from failproof.targets._replay import load_responses

    folder.mkdir(parents=True, exist_ok=True)
    write_run(folder, n, 7, builtin_cases())
    recorded = load_responses(folder / "answers.jsonl")
    lines = (folder / "suite.jsonl").read_text(encoding="utf-8").splitlines()
    config = ScoringConfig.from_settings(Settings())
    built = [scorers.get(name)(config) for name in ("failproof", "probe")]
    out = []
    for line in lines:
        case = Case.model_validate_json(line).model_copy(update={"suite": "suite"})
        out.append(score_case(case, recorded.by_key[(None, case.id)].to_response(), built))
    return out


def store_once(path: Path, page_size: int, results: list[CaseResult]) -> tuple[float, float]:
    """CPU and wall seconds to store ``results`` into a new store at ``path``."""
    from failproof.store import Store

    with closing(sqlite3.connect(path)) as made:  # the page size, fixed before the store opens
        made.execute(f"PRAGMA page_size={page_size}")
        made.execute("VACUUM")
    store = Store(path)
    try:
        with closing(sqlite3.connect(path)) as other:
            if other.execute("PRAGMA page_size").fetchone()[0] != page_size:
                raise SystemExit(f"the store did not keep page size {page_size}")
        store.create_run(Run(id="r", target={"name": "bench"}))
        written = [r.model_dump_json() for r in results]
        cpu, wall = time.process_time(), time.perf_counter()
        for i in range(0, len(results), BATCH):
            store.add_results("r", results[i : i + BATCH], written=written[i : i + BATCH])
        return time.process_time() - cpu, time.perf_counter() - wall
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=2828)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--page-sizes", default="4096,16384")
    args = parser.parse_args()
    sizes = [int(s) for s in args.page_sizes.split(",")]
    print(f"load average {load_average()}; {args.results} results")
    with tempfile.TemporaryDirectory() as tmp:
        results = scored_results(Path(tmp) / "inputs", args.results)
        mean_json = statistics.mean(len(r.model_dump_json()) for r in results)
        print(f"mean result JSON {mean_json:,.0f} bytes; {BATCH} results a commit")
        runs: dict[int, list[tuple[float, float]]] = {size: [] for size in sizes}
        for i in range(args.repeat):
            for size in sizes if i % 2 == 0 else sizes[::-1]:
                runs[size].append(store_once(Path(tmp) / f"{size}-{i}.db", size, results))
        print("| page size | CPU µs a result | wall µs a result |")
        print("| ---: | ---: | ---: |")
        for size in sizes:
            cpu = statistics.median(c for c, _ in runs[size]) / len(results) * 1e6
            wall = statistics.median(w for _, w in runs[size]) / len(results) * 1e6
            print(f"| {size:,} | {cpu:.1f} | {wall:.1f} |")
    print(f"load average at the end {load_average()}")


if __name__ == "__main__":
    main()
