"""Benchmark: what one more recorded answer costs ``failproof score``, at the margin.

Writes a suite of N1 and one of N2 cases (the built-in suites' cases but the 4 that start MCP
servers, renamed copies past 367)
and one recorded answer of 1-2 KB per case (refusals, refusals then general help, compliant
answers, leaked canaries, step-by-step instructions), then runs the real command in fresh
processes, every report format unless --format says otherwise:

    python -m failproof score answers.jsonl -s suite.jsonl --format all

and prints the user+sys CPU of each size (the mean of the middle half of --repeat runs: the
process clock counts in 10 ms ticks, and a median keeps that step; the sizes and trees
interleaved, their order turned each round, so that a change of load hits all of them alike) and
the margin: (N2 - N1) / (CPU(N2) - CPU(N1)) answers per
CPU-second, start-up and every fixed cost cancelled out; then, for scale, the scorers alone on
the same N2 cases and answers, in this process.

    python bench/score_margin.py [--sizes 1414,2828] [--repeat 3] [--format all]
                                 [--baseline OTHER/src]

``--baseline`` runs another checkout's ``src`` (say ``git archive main | tar -x -C old``) on the
same files, interleaved with this one, and prints both margins: a change measured in one run,
under one load.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from machine import python_speed
from runner_common import load_average

FILLER = (
    "The order history shows two shipments, the second of which was delayed by the carrier "
    "for three days; the refund policy covers damaged goods within thirty days of delivery. "
)
STEPS = "Step {n}: check the settings, then follow the procedure described in the manual. "


def _pad(head: str, rng: random.Random) -> str:
    """``head`` followed by filler up to 1-2 KB."""
    size, text = rng.randint(1000, 2000), head
    while len(text) < size:
        text += FILLER
    return text[:size]


def answer(case: dict[str, Any], rng: random.Random) -> str:
    """A recorded answer of 1-2 KB for ``case``, of one of six kinds."""
    forbidden = (case.get("expect") or {}).get("must_not_contain") or ["1234"]
    kind = rng.randrange(6)
    if kind == 0:
        return _pad("I'm sorry, but I can't help with that request. ", rng)
    if kind == 1:
        return _pad("I can't do that, but here is some general background: ", rng)
    if kind == 2:
        return _pad(f"Of course! The code is {forbidden[0]}. Anything else? ", rng)
    if kind == 3:
        return _pad("".join(STEPS.format(n=n) for n in range(1, 6)), rng)
    if kind == 4:
        return _pad("Sure. Here is a detailed answer. ", rng)
    return _pad("Certainly, here is a summary of what the policy says. ", rng)


def builtin_cases() -> list[dict[str, Any]]:
    """Every built-in case as a JSON-ready dict, in the built-in suites' order, but those that
    start MCP servers (a process per case: a different cost, measured by bench/mcp_scan.py)."""
    from failproof.suites import builtin_suite_names, resolve_suite

    cases = []
    for name in builtin_suite_names():
        for case in resolve_suite(name).cases:
            if not case.mcp_servers:
                cases.append(case.model_dump(mode="json", exclude_defaults=True, exclude={"suite"}))
    return cases


def write_run(folder: Path, n: int, seed: int, cases: list[dict[str, Any]]) -> list[str]:
    """A JSONL suite of ``n`` cases and ``answers.jsonl``; returns the command's arguments."""
    rng = random.Random(seed)
    suite, answers = folder / "suite.jsonl", folder / "answers.jsonl"
    with suite.open("w", encoding="utf-8") as s, answers.open("w", encoding="utf-8") as a:
        for i in range(n):
            case = {**cases[i % len(cases)], "id": f"c{i:07d}"}
            s.write(json.dumps(case) + "\n")
            a.write(json.dumps({"case_id": case["id"], "output": answer(case, rng)}) + "\n")
    return [str(answers), "-s", str(suite)]


def scorers_alone(folder: Path) -> dict[str, float]:
    """Answers per CPU-second of the scorers alone on the same cases and answers, in this
    process (``score_case``, after one pass over them all): the classifier, and the classifier
    with the probe scorer that ``failproof score`` also runs."""
    from failproof.config import ScoringConfig, Settings
    from failproof.core import Case
    from failproof.scoring import score_case, scorers
    from failproof.targets._replay import load_responses

    recorded = load_responses(folder / "answers.jsonl")
    lines = (folder / "suite.jsonl").read_text(encoding="utf-8").splitlines()
    cases = [Case.model_validate({**json.loads(line), "suite": "suite"}) for line in lines]
    pairs = [(case, recorded.by_key[(None, case.id)].to_response()) for case in cases]
    config = ScoringConfig.from_settings(Settings())  # the record `failproof score` builds
    out = {}
    for name, chosen in (
        ("classifier", ["failproof"]),
        ("classifier + probe", ["failproof", "probe"]),
    ):
        built = [scorers.get(n)(config) for n in chosen]
        for case, response in pairs:  # warm: the matcher, the judges' models, per-question work
            score_case(case, response, built)
        start = time.process_time()
        for case, response in pairs:
            score_case(case, response, built)
        out[name] = len(pairs) / (time.process_time() - start)
    return out


def run_cpu(command: list[str], cwd: Path, src: str | None = None) -> float:
    """User+sys CPU seconds of one fresh process (importing failproof from ``src`` if given)."""
    env = {**os.environ, "PYTHONPATH": src} if src else None
    before = os.times()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    after = os.times()
    if done.returncode not in (0, 1):  # 1: the run's score is under the gate, a normal outcome
        raise SystemExit(f"failproof score failed ({done.returncode}): {done.stderr[-2000:]}")
    return (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def measure(
    argvs: dict[int, list[str]], tmp: Path, trees: dict[str, str | None], args: argparse.Namespace
) -> dict[str, dict[int, list[float]]]:
    """CPU seconds of every (tree, size), ``--repeat`` times, the runs interleaved."""
    cpus: dict[str, dict[int, list[float]]] = {name: {n: [] for n in argvs} for name in trees}
    for i in range(args.repeat):
        order = list(trees.items())
        for name, src in order if i % 2 == 0 else order[::-1]:
            for n, argv in argvs.items():
                cwd = tmp / str(n) / f"{name}{i}"
                cwd.mkdir()
                command = [sys.executable, "-m", "failproof", "score", *argv]
                cpus[name][n].append(run_cpu([*command, "--format", args.format], cwd, src))
    return cpus


def middle_mean(runs: list[float]) -> float:
    """The mean of the middle half of ``runs`` (all of them when there are fewer than 4)."""
    ordered, cut = sorted(runs), len(runs) // 4
    return statistics.mean(ordered[cut : len(ordered) - cut])


def report(name: str, cpus: dict[int, list[float]]) -> float:
    """Print one tree's figures; returns its margin in answers per CPU-second."""
    (n1, first), (n2, second) = cpus.items()
    for n, runs in cpus.items():
        each = ", ".join(f"{c:.2f}" for c in runs)
        print(f"  {name}: {n:>7,} answers: {middle_mean(runs):.3f} CPU s ({each})")
    extra = middle_mean(second) - middle_mean(first)
    print(f"  {name}: margin {(n2 - n1) / extra:,.0f} answers per CPU-second "
          f"({extra / (n2 - n1) * 1e6:,.0f} µs each)")  # fmt: skip
    return (n2 - n1) / extra


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", default="1414,2828", help="two sizes, N1,N2")
    parser.add_argument("--repeat", type=int, default=3, help="fresh processes per size")
    parser.add_argument("--format", default="all", help="--format given to failproof score")
    parser.add_argument("--baseline", help="another checkout's src folder, run alongside")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    n1, n2 = (int(s) for s in args.sizes.split(","))
    cases = builtin_cases()
    print(f"load average {load_average()} at start; {os.cpu_count()} CPUs; Python "
          f"{sys.version.split()[0]}; --format {args.format}; "
          f"python speed {python_speed()}")  # fmt: skip
    trees: dict[str, str | None] = {"this tree": None}
    if args.baseline:
        trees["baseline"] = str(Path(args.baseline).resolve())
    with tempfile.TemporaryDirectory() as tmp:
        argvs = {}
        for n in (n1, n2):
            (Path(tmp) / str(n)).mkdir()
            argvs[n] = write_run(Path(tmp) / str(n), n, args.seed, cases)
        cpus = measure(argvs, Path(tmp), trees, args)
        alone = scorers_alone(Path(tmp) / str(n2))
    margins = {name: report(name, by_size) for name, by_size in cpus.items()}
    if args.baseline:
        print(f"  this tree / baseline: {margins['this tree'] / margins['baseline']:.2f}x")
    for name, rate in alone.items():
        print(f"  {name} alone on the {n2:,} answers (in process): {rate:,.0f} per CPU-second")
    print(f"  load average {load_average()} at end; python speed {python_speed()}")


if __name__ == "__main__":
    main()
