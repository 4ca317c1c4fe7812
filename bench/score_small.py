"""Benchmark: ``failproof score`` of a small recorded run (400 answers), end to end.

Writes the built-in suites (and renamed copies of their first cases, up to --n cases) and one
recorded answer per case (refusals, compliant answers, leaked canaries, JSON, hedged answers)
into a temporary folder, then runs the real command, every report format, in fresh processes:

    python -m failproof score answers.jsonl -s suite1.yaml -s suite2.yaml ...

and prints the user+sys CPU of the whole process (interpreter start, imports, scoring, store,
every report) as the median of --repeat runs, then one more run's breakdown, timed inside the
process: import of the command line, loading the suites, classify (replay, scoring, store),
aggregate (all run metrics, the failure geometry shown apart), report writing, and the rest.

    python bench/score_small.py [--n 400] [--repeat 5] [--seed 0]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

FILLER = (
    "The order history shows two shipments, the second of which was delayed by the carrier "
    "for three days; the refund policy covers damaged goods within thirty days. "
)


def _answer(case: dict[str, Any], rng: random.Random) -> str:
    forbidden = (case.get("expect") or {}).get("must_not_contain") or ["1234"]
    choices = [
        "I'm sorry, but I can't help with that request.",
        "Sure. Here is a detailed answer. " + FILLER * rng.randint(2, 8),
        f"Of course! The code is {forbidden[0]}. Anything else?",
        json.dumps({"status": "shipped", "order_id": "A-1009", "n": rng.randint(1, 9)}),
        "I can't do that, but here is some general background: " + FILLER * 2,
        "Step 1: gather the materials. Step 2: follow the procedure below. " + FILLER * 3,
    ]
    return rng.choice(choices)


def write_run(folder: Path, n: int, seed: int) -> list[str]:
    """Suite files holding ``n`` cases and ``answers.jsonl``; returns the command's arguments."""
    from failproof.suites import builtin_suite_names  # here: the timed child imports failproof
    from failproof.suites._resolve import builtin_suites_dir

    docs = [
        yaml.safe_load((builtin_suites_dir() / f"{name}.yaml").read_text(encoding="utf-8"))
        for name in builtin_suite_names()
    ]
    total, copies = sum(len(d["cases"]) for d in docs), []
    while total < n:
        source = docs[len(copies) % len(docs)]
        copy = {**source, "suite": f"{source['suite']}_copy{len(copies) // len(docs) + 1}"}
        copy["cases"] = source["cases"][: n - total]
        total += len(copy["cases"])
        copies.append(copy)
    rng = random.Random(seed)
    args, lines = [], []
    for doc in [*docs, *copies]:
        path = folder / f"{doc['suite']}.yaml"
        path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
        args += ["-s", str(path)]
        for case in doc["cases"]:
            answer = {"suite": doc["suite"], "case_id": case["id"], "output": _answer(case, rng)}
            lines.append(json.dumps(answer))
    (folder / "answers.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [str(folder / "answers.jsonl"), *args]


def _run_cpu(command: list[str], cwd: Path) -> tuple[float, str]:
    """User+sys CPU seconds of one fresh process, and its stderr (where the breakdown goes)."""
    before = os.times()
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    after = os.times()
    if done.returncode not in (0, 1):  # 1: the run's score is under the gate, a normal outcome
        raise SystemExit(f"failproof score failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return cpu, done.stderr


def _timed_async(table: dict[str, float], key: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return await fn(*args, **kwargs)
        finally:
            table[key] = table.get(key, 0.0) + time.process_time() - start

    return wrapper


def _timed(table: dict[str, float], key: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            table[key] = table.get(key, 0.0) + time.process_time() - start

    return wrapper


def child(argv: list[str]) -> None:
    """Run ``failproof score`` in this process with the stages timed; the table goes to stderr."""
    table: dict[str, float] = {}
    start = time.process_time()
    import failproof.cli as cli
    import failproof.cli._score as score_cli
    import failproof.metrics._geometry as geometry
    import failproof.runner._score as runner

    table["import"] = time.process_time() - start
    runner.load_suites = _timed(table, "suites", runner.load_suites)
    runner.execute_cases = _timed_async(table, "classify", runner.execute_cases)
    runner.build_report = _timed(table, "aggregate", runner.build_report)
    geometry._geometry = _timed(table, "geometry", geometry._geometry)
    score_cli.emit_reports = _timed(table, "report", score_cli.emit_reports)
    sys.argv = ["failproof", "score", *argv]
    with contextlib.suppress(SystemExit):  # the exit code is the run's verdict, not a failure
        cli.main()
    table["total"] = time.process_time() - start
    sys.stderr.write("\nBREAKDOWN " + json.dumps(table) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--n", type=int, default=400, help="recorded answers (cases)")
    parser.add_argument(
        "--repeat", type=int, default=5, help="fresh processes to take the median of"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args, rest = parser.parse_known_args()
    if args.child:
        child(rest)
        return
    with tempfile.TemporaryDirectory() as tmp:
        argv = write_run(Path(tmp), args.n, args.seed)
        env_note = f"load {os.getloadavg()[0]:.2f}, Python {sys.version.split()[0]}"
        cpus = []
        for i in range(args.repeat):
            cwd = Path(tmp) / f"run{i}"
            cwd.mkdir()
            cpus.append(_run_cpu([sys.executable, "-m", "failproof", "score", *argv], cwd)[0])
        cwd = Path(tmp) / "breakdown"
        cwd.mkdir()
        _, stderr = _run_cpu([sys.executable, __file__, "--child", *argv], cwd)
    table = json.loads(stderr.rsplit("BREAKDOWN ", 1)[1])
    print(f"failproof score, {args.n} recorded answers, every report format ({env_note})")
    print(f"  whole process, user+sys CPU: median {statistics.median(cpus):.2f} s of {len(cpus)}")
    print(f"  runs: {', '.join(f'{c:.2f}' for c in cpus)}")
    print("  breakdown of one more run (CPU s inside the process, after interpreter start;")
    print("  imports done lazily inside a stage count in that stage):")
    aggregate_rest = table.get("aggregate", 0.0) - table.get("geometry", 0.0)
    rows = [
        ("import (cli, runner, report modules)", table["import"]),
        ("load the suite files", table.get("suites", 0.0)),
        ("classify (replay, score, store)", table.get("classify", 0.0)),
        ("aggregate without geometry", aggregate_rest),
        ("  failure geometry", table.get("geometry", 0.0)),
        ("report writing (5 formats)", table.get("report", 0.0)),
    ]
    rows.append(("other (settings, signal library, ...)", table["total"] - sum(v for _, v in rows)))
    for name, seconds in rows:
        print(f"    {name:34s} {seconds:6.2f}")
    print(f"    {'total':34s} {table['total']:6.2f}")


if __name__ == "__main__":
    main()
