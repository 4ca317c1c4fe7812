"""Benchmark: the whole ``failproof run`` command against a bare aiohttp loop, in one run.

    python bench/run_command.py [--prompts 2000] [--concurrency 256] [--latency-ms 100]
                                [--repeat 3]

One local server (``runner_server.py --vary``, its own process) answers every chat completion
after ``--latency-ms``. The same prompts (the peer benchmark's corpus) go through two commands,
each a fresh process, alternating, ``--repeat`` times:

- ``bench/bare_aiohttp.py``: an aiohttp session that sends every prompt with ``--concurrency``
  in flight and reads each answer, nothing else (what sending these requests costs at least);
- ``failproof run suite.jsonl --target openai:bench --base-url URL --concurrency N --no-cache
  --retries 0 --quiet --format json`` (as ``bench/peers`` runs it): scoring, the store, the
  report, start-up included.

Each row gives wall and CPU (user+sys of the process tree) seconds and the load average when it
started; the summary gives failproof's wall time over the bare loop's, best against best and
median against median (the goal: within 1.25x), and the ideal (prompts x latency /
concurrency). An untimed failproof run first fills the cache of checked signal patterns, as a
user's earlier runs would have. ``--baseline SRC`` also runs another checkout's ``src`` folder in
the same rounds (e.g. the code before a change), with its own ratio to the bare loop.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections.abc import Callable
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
from runner_server import request_counts, spawn

BARE = str(Path(__file__).with_name("bare_aiohttp.py"))


def write_inputs(folder: Path, n: int) -> tuple[Path, Path]:
    """The prompts for the bare loop and the same prompts as a failproof suite."""
    texts, suite = folder / "prompts.jsonl", folder / "suite.jsonl"
    with texts.open("w", encoding="utf-8") as plain, suite.open("w", encoding="utf-8") as cases:
        for p in prompts(n):
            plain.write(json.dumps({"text": p.text}) + "\n")
            refusal = "required" if p.adversarial else "forbidden"
            case = {"id": p.id, "input": p.text, "expect": {"refusal": refusal}}
            cases.write(json.dumps(case) + "\n")
    return texts, suite


class Bench:
    def __init__(self, folder: Path, base_url: str, concurrency: int) -> None:
        self.folder, self.base_url, self.concurrency = folder, base_url, concurrency
        self.source = SOURCE
        self.texts, self.suite = write_inputs(folder, 0)
        self.runs = 0

    def inputs(self, n: int) -> None:
        self.texts, self.suite = write_inputs(self.folder, n)

    def bare(self) -> Ran:
        argv = python(BARE, str(self.texts), self.base_url, str(self.concurrency))
        return run(argv, env=environment(), cwd=self.folder, ok=frozenset({0}))

    def failproof(self, source: Path | None = None) -> Ran:
        self.runs += 1
        argv = python("-m", "failproof", "run", str(self.suite), "--target", "openai:bench")
        argv += ["--base-url", self.base_url, "--concurrency", str(self.concurrency)]
        argv += ["--no-cache", "--retries", "0", "--quiet", "--format", "json"]
        argv += ["--output", str(self.folder / f"report{self.runs}.json")]
        env = environment(
            source or self.source,
            OPENAI_API_KEY="bench",
            FAILPROOF_HOME=str(self.folder / f"home{self.runs}"),
            FAILPROOF_CACHE_DIR=str(self.folder / "cache"),
        )
        return run(argv, env=env, cwd=self.folder, ok=frozenset({0, 1}))


def line(name: str, ran: Ran) -> str:
    return f"| {name} | {ran.wall_s:.2f} | {ran.cpu_s:.2f} | {ran.load:.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--prompts", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=256)
    parser.add_argument("--latency-ms", type=float, default=100.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--baseline", type=Path, help="another checkout's src, run alongside")
    args = parser.parse_args()
    baseline = args.baseline.resolve() if args.baseline else None
    compile_sources(SOURCE, *([baseline] if baseline else []))
    ideal = args.prompts * args.latency_ms / 1000 / args.concurrency
    print(
        f"{args.prompts} prompts, {args.latency_ms:g} ms, concurrency {args.concurrency}, "
        f"ideal {ideal:.2f} s; load average {load_average():.2f}; python speed {python_speed()}"
    )
    bare: list[Ran] = []
    whole: list[Ran] = []
    before: list[Ran] = []
    with tempfile.TemporaryDirectory() as tmp, spawn(args.latency_ms, vary=True) as base_url:
        bench = Bench(Path(tmp), base_url, args.concurrency)
        bench.inputs(20)
        bench.failproof()  # untimed: fills the cache of checked signal patterns
        if baseline is not None:
            bench.failproof(baseline)
        bench.inputs(args.prompts)
        sent_before = request_counts(base_url)["chat_completions"]
        print("| command | wall s | CPU s | load (1 min) |\n| --- | ---: | ---: | ---: |")
        commands: list[tuple[str, Callable[[], Ran], list[Ran]]] = [
            ("bare", bench.bare, bare),
            ("failproof", bench.failproof, whole),
        ]
        if baseline is not None:
            commands.append(("baseline", lambda: bench.failproof(baseline), before))
        for i in range(args.repeat):
            for name, command, kept in commands if i % 2 == 0 else commands[::-1]:
                kept.append(command())
                print(line(f"{name} #{i + 1}", kept[-1]), flush=True)
        sent = request_counts(base_url)["chat_completions"] - sent_before
    expected = len(commands) * args.repeat * args.prompts
    assert sent == expected, f"the server saw {sent} chat completions, not {expected}"
    for name, runs in (("failproof", whole), ("baseline", before)):
        if runs:
            print(summary(name, runs, bare, ideal))
    print(f"load average at the end {load_average():.2f}; python speed {python_speed()}")


def summary(name: str, runs: list[Ran], bare: list[Ran], ideal: float) -> str:
    best = min(r.wall_s for r in runs) / min(r.wall_s for r in bare)
    median = statistics.median(r.wall_s for r in runs) / statistics.median(r.wall_s for r in bare)
    return (
        f"{name} / bare loop: {best:.2f}x (best), {median:.2f}x (median); {name} best "
        f"{min(r.wall_s for r in runs) / ideal:.2f}x ideal, median CPU "
        f"{statistics.median(r.cpu_s for r in runs):.2f} s"
    )


if __name__ == "__main__":
    main()
