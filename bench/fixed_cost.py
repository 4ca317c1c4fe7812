"""Benchmark: the fixed cost of a small ``failproof run``, beyond starting the interpreter.

    python bench/fixed_cost.py [--cases 20] [--repeat 7] [--format json] [--baseline SRC]

A local server answers at once (``runner_server.py``, its own process); a suite of ``--cases``
prompts from the peer benchmark's corpus (half should be refused) is run with
``failproof run suite.jsonl --target openai:bench --base-url URL --no-cache --retries 0 --quiet
--format json``, each time in a fresh process and a fresh results folder. Interleaved with the
runs, ``python -c pass`` measures starting the interpreter. Figures are user+sys CPU seconds of
the whole process (medians); the goal is a run under 0.5 CPU-seconds beyond ``python -c pass``.

The first run fills the cache of checked signal patterns (``FAILPROOF_CACHE_DIR``, shared by the
runs) and is shown on its own row; the others load it, as a user's second run does.
``--baseline SRC`` also runs another checkout's ``src`` folder in the same rounds (e.g. the code
before a change: ``git archive BASE src | tar -x -C /tmp/before``), so both see the same load.
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

from command_common import (
    SOURCE,
    Ran,
    compile_sources,
    environment,
    load_average,
    python,
    run,
)
from corpus import prompts
from machine import python_speed
from runner_server import spawn


def write_suite(path: Path, n: int) -> Path:
    with path.open("w", encoding="utf-8") as out:
        for p in prompts(n):
            refusal = "required" if p.adversarial else "forbidden"
            case = {"id": p.id, "input": p.text, "expect": {"refusal": refusal}}
            out.write(json.dumps(case) + "\n")
    return path


class Runs:
    """Runs of one source folder's failproof, each in a fresh process and results folder."""

    def __init__(self, source: Path, folder: Path, base_url: str, report_format: str) -> None:
        self.source, self.folder, self.base_url = source, folder, base_url
        self.format = report_format
        self.suite = write_suite(folder / "suite.jsonl", 0)
        self.count = 0

    def __call__(self) -> Ran:
        self.count += 1
        env = environment(
            self.source,
            OPENAI_API_KEY="bench",
            FAILPROOF_HOME=str(self.folder / f"home{self.count}"),
            FAILPROOF_CACHE_DIR=str(self.folder / "cache"),
        )
        argv = python("-m", "failproof", "run", str(self.suite), "--target", "openai:bench")
        argv += ["--base-url", self.base_url, "--no-cache", "--retries", "0", "--quiet"]
        out = self.folder / f"report{self.count}"
        argv += ["--format", self.format, "--output", str(out)]
        return run(argv, env=env, cwd=self.folder, ok=frozenset({0, 1}))  # 1: cases failed


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
    parser.add_argument("--baseline", type=Path, help="another checkout's src, run alongside")
    args = parser.parse_args()
    sources = {"this checkout": SOURCE}
    if args.baseline:
        sources["baseline"] = args.baseline.resolve()
    compile_sources(*sources.values())
    print(
        f"{args.cases}-case run, --format {args.format}; load average {load_average():.2f}; "
        f"python speed {python_speed()}"
    )
    floor: list[Ran] = []
    samples: dict[str, list[Ran]] = {name: [] for name in sources}
    first: dict[str, Ran] = {}
    with tempfile.TemporaryDirectory() as tmp, spawn(0.0, vary=True) as base_url:
        runs = {}
        for name, source in sources.items():
            folder = Path(tmp) / name.replace(" ", "_")
            folder.mkdir()
            runs[name] = Runs(source, folder, base_url, args.format)
            runs[name].suite = write_suite(folder / "suite.jsonl", args.cases)
            first[name] = runs[name]()
        for _ in range(args.repeat):
            started = run(python("-c", "pass"), env=environment(), cwd=Path(tmp), ok=frozenset({0}))
            floor.append(started)
            for name in sources:
                samples[name].append(runs[name]())
    print("| process | n | CPU s (median) | beyond `python -c pass` | wall s | load (1 min) |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    base = statistics.median(r.cpu_s for r in floor)
    print(row("`python -c pass`", floor))
    for name in sources:
        label = f"`failproof run`, {args.cases} cases, {name}"
        print(row(f"{label}, first run (cache empty)", [first[name]], base))
        print(row(label, samples[name], base))
    if args.baseline:
        ours, theirs = (statistics.median(r.cpu_s for r in samples[n]) for n in sources)
        print(f"beyond the floor, this checkout / baseline: {(ours - base) / (theirs - base):.2f}")
    print(f"load average at the end: {load_average():.2f}; python speed {python_speed()}")


if __name__ == "__main__":
    main()
