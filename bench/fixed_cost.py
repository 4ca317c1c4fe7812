"""Benchmark: the fixed cost of a small ``failproof run``, beyond starting the interpreter.

    python bench/fixed_cost.py [--cases 20] [--repeat 7] [--format json]

A local server answers at once (``runner_server.py``, its own process); a suite of ``--cases``
prompts from the peer benchmark's corpus (half should be refused) is run with
``failproof run suite.jsonl --target openai:bench --base-url URL --no-cache --retries 0 --quiet
--format json``, each time in a fresh process and a fresh results folder. Interleaved with the
runs, ``python -c pass`` measures starting the interpreter. Figures are user+sys CPU seconds of
the whole process (medians); the goal is a run under 0.5 CPU-seconds beyond ``python -c pass``.

The first run fills the cache of checked signal patterns (``FAILPROOF_CACHE_DIR``, shared by the
runs) and is shown on its own row; the others load it, as a user's second run does.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parent / "peers"))

from command_common import Ran, compile_sources, environment, load_average, python, run
from corpus import prompts
from runner_server import spawn


def write_suite(path: Path, n: int) -> Path:
    with path.open("w", encoding="utf-8") as out:
        for p in prompts(n):
            refusal = "required" if p.adversarial else "forbidden"
            case = {"id": p.id, "input": p.text, "expect": {"refusal": refusal}}
            out.write(json.dumps(case) + "\n")
    return path


def run_argv(suite: Path, base_url: str, output: Path, report_format: str) -> list[str]:
    argv = python("-m", "failproof", "run", str(suite), "--target", "openai:bench")
    argv += ["--base-url", base_url, "--no-cache", "--retries", "0", "--quiet"]
    return [*argv, "--format", report_format, "--output", str(output)]


def row(name: str, samples: list[Ran], floor: float | None = None) -> str:
    cpu = statistics.median(r.cpu_s for r in samples)
    wall = statistics.median(r.wall_s for r in samples)
    beyond = "" if floor is None else f"{cpu - floor:.3f}"
    loads = f"{min(r.load for r in samples):.1f}-{max(r.load for r in samples):.1f}"
    return f"| {name} | {len(samples)} | {cpu:.3f} | {beyond} | {wall:.3f} | {loads} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--format", default="json", help="report format(s) of every run")
    args = parser.parse_args()
    compile_sources()
    print(f"{args.cases}-case run, --format {args.format}; load average {load_average():.2f}")
    with tempfile.TemporaryDirectory() as tmp, spawn(0.0, vary=True) as base_url:
        folder = Path(tmp)
        suite = write_suite(folder / "suite.jsonl", args.cases)
        ok = frozenset({0, 1})  # 1: some cases failed, as expected

        def one(i: int) -> Ran:
            env = environment(
                OPENAI_API_KEY="bench",
                FAILPROOF_HOME=str(folder / f"home{i}"),
                FAILPROOF_CACHE_DIR=str(folder / "cache"),
            )
            out = folder / f"report{i}.{args.format if args.format != 'all' else 'd'}"
            return run(run_argv(suite, base_url, out, args.format), env=env, cwd=folder, ok=ok)

        first = one(0)
        floor, runs = [], []
        for i in range(1, args.repeat + 1):
            floor.append(run(python("-c", "pass"), env=environment(), cwd=folder, ok=ok))
            runs.append(one(i))
    print("| process | n | CPU s (median) | beyond `python -c pass` | wall s | load (1 min) |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    base = statistics.median(r.cpu_s for r in floor)
    print(row("`python -c pass`", floor))
    print(row(f"`failproof run`, {args.cases} cases, first run (cache empty)", [first], base))
    print(row(f"`failproof run`, {args.cases} cases", runs, base))
    print(f"load average at the end: {load_average():.2f}")


if __name__ == "__main__":
    main()
