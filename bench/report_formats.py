"""Benchmark: what one more result costs each report format, at the margin.

Scores the inputs of ``bench/score_margin.py`` (N1 and N2 recorded answers of 1-2 KB) once each
into a store, then, in fresh processes, reads each run back (its results held in memory, as
``failproof score`` holds them, the garbage collector tuned as the command tunes it), builds
its report, and times each format's writer alone
(`write_reports` with that one format, into an empty folder) in CPU seconds, best of
``--inner`` calls. Per format it prints the CPU of each size (median of ``--repeat`` processes,
the sizes and trees interleaved) and the margin, (CPU(N2) - CPU(N1)) / (N2 - N1): what one more
result costs that format, every fixed cost cancelled out.

    python bench/report_formats.py [--sizes 1414,2828] [--repeat 3] [--inner 3]
                                   [--formats json,junit,html,markdown] [--baseline OTHER/src]
                                   [--keep FOLDER]

``--baseline`` times another checkout's ``src`` (say ``git archive main src | tar -x -C old``) on
the same stores, interleaved with this tree. ``--keep`` writes each tree's files of the N2 run
into FOLDER/<tree>/, stamped with the run's start as the time they were generated (compare the
trees' files byte for byte: ``diff -r FOLDER/this_tree FOLDER/baseline``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from runner_common import load_average
from score_margin import builtin_cases, write_run

FORMATS = "json,junit,html,markdown"


def child(home: Path, formats: list[str], inner: int, keep: Path | None) -> None:
    """In a fresh process: the run in ``home``'s store, each format written ``inner`` times;
    prints ``{format: best CPU seconds}`` as JSON."""
    from failproof.cli._heap import own_process, settle_heap
    from failproof.config import Settings
    from failproof.report import build_report
    from failproof.report._render import write_reports
    from failproof.store import Store

    own_process()  # the collector tuned as the command tunes it
    settings = Settings(home=home)
    with Store(settings.db_path) as store:
        run = store.get_run(store.list_runs(1)[0].id)
        held = list(store.stream(run.id))
        report = build_report(run, store.stream(run.id, held=held), settings)
    settle_heap()  # the results held for the reports, as `failproof score` holds them
    if keep is not None:  # the files compared across trees: one clock reading for both
        report = _same_clock(report)
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in formats:
            for i in range(inner):
                out = Path(keep if keep and i == 0 else tmp) / f"{name}{i}"
                start = time.process_time()
                write_reports(report, [name], out, folder=True)
                cpu = time.process_time() - start
                best[name] = min(best.get(name, cpu), cpu)
    print(json.dumps(best))


def _same_clock(report: Any) -> Any:
    """``report`` as if generated at the run's start (its SAFE v0 section too)."""
    when = report.run.started_at
    update: dict[str, Any] = {"generated_at": when}
    if report.safe_v0 is not None:
        update["safe_v0"] = report.safe_v0.model_copy(update={"generated_at": when.isoformat()})
    return report.model_copy(update=update)


def run_child(
    home: Path, src: str | None, args: argparse.Namespace, keep: Path | None
) -> dict[str, float]:
    """One fresh process's figures (importing failproof from ``src`` if given)."""
    env = {**os.environ, "PYTHONPATH": src} if src else None
    command = [sys.executable, __file__, "--child", str(home), "--formats", args.formats]
    command += ["--inner", str(args.inner), *(["--keep", str(keep)] if keep else [])]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the timing process failed: {done.stderr[-2000:]}")
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def score_into(folder: Path, n: int, seed: int) -> Path:
    """``folder/home``: a store holding one ``failproof score`` run of ``n`` answers."""
    argv = write_run(folder, n, seed, builtin_cases())
    env = {**os.environ, "FAILPROOF_HOME": str(folder / "home")}
    command = [sys.executable, "-m", "failproof", "score", *argv, "--format", "json"]
    out = folder / "out"
    out.mkdir()
    done = subprocess.run(command, cwd=out, env=env, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):
        raise SystemExit(f"failproof score failed ({done.returncode}): {done.stderr[-2000:]}")
    return folder / "home"


def measure(
    homes: dict[int, Path], trees: dict[str, str | None], args: argparse.Namespace
) -> dict[str, dict[int, list[dict[str, float]]]]:
    """Every (tree, size)'s figures, ``--repeat`` times, interleaved."""
    runs: dict[str, dict[int, list[dict[str, float]]]] = {t: {n: [] for n in homes} for t in trees}
    last = max(homes)
    for i in range(args.repeat):
        for name, src in trees.items():
            for n, home in homes.items():
                keep = Path(args.keep) / name.replace(" ", "_") if args.keep else None
                if keep is not None and (i or n != last):
                    keep = None
                elif keep is not None:
                    keep.mkdir(parents=True, exist_ok=True)
                runs[name][n].append(run_child(home, src, args, keep))
    return runs


def report(name: str, runs: dict[int, list[dict[str, float]]], formats: list[str]) -> None:
    """Print one tree's figures per format and in all."""
    (n1, first), (n2, second) = runs.items()
    total = 0.0
    for fmt in formats:
        a = statistics.median(r[fmt] for r in first)
        b = statistics.median(r[fmt] for r in second)
        each = (b - a) / (n2 - n1) * 1e6
        total += each
        print(f"  {name}: {fmt:<9} {n1:,}: {a:.3f} CPU s, {n2:,}: {b:.3f} CPU s, "
              f"margin {each:6.1f} µs per result")  # fmt: skip
    print(f"  {name}: all formats: {total:.1f} µs per result")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="1414,2828", help="two sizes, N1,N2")
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per size")
    parser.add_argument("--inner", type=int, default=3, help="writes per format per process")
    parser.add_argument("--formats", default=FORMATS, help="formats timed, comma-separated")
    parser.add_argument("--baseline", help="another checkout's src folder, run alongside")
    parser.add_argument("--keep", help="write each tree's files of the larger run here")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    formats = args.formats.split(",")
    if args.child:
        child(Path(args.child), formats, args.inner, Path(args.keep) if args.keep else None)
        return
    n1, n2 = (int(s) for s in args.sizes.split(","))
    print(f"load average {load_average()} at start; {os.cpu_count()} CPUs; Python "
          f"{sys.version.split()[0]}")  # fmt: skip
    trees: dict[str, str | None] = {"this tree": None}
    if args.baseline:
        trees["baseline"] = str(Path(args.baseline).resolve())
    with tempfile.TemporaryDirectory() as tmp:
        homes = {}
        for n in (n1, n2):
            (Path(tmp) / str(n)).mkdir()
            homes[n] = score_into(Path(tmp) / str(n), n, args.seed)
        runs = measure(homes, trees, args)
    for name, by_size in runs.items():
        report(name, by_size, formats)
    print(f"  load average {load_average()} at end")


if __name__ == "__main__":
    main()
