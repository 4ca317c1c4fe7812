"""failproof beside its peers, in one run: the same prompts, one latency server, each tool's own
concurrency setting; then the same recorded answers through each tool's refusal detector.

    python bench/peers/run.py --install          # once: promptfoo (npm), garak and inspect-ai (pip)
    python bench/peers/run.py                    # 2,000 prompts at 16, 64, 256; 20,000 answers
    python bench/peers/run.py --prompts 200 --answers 2000 --tools failproof,promptfoo

The server (bench/runner_server.py, its own process) answers every chat completion after a fixed
latency with a different answer each time, and counts the requests it is sent. Every tool runs
as its own command (start-up included) in a fresh folder with its cache off. Per tool and
concurrency: wall time, ratio to the ideal (prompts x latency / concurrency), requests the
server saw, prompts the tool recorded, peak memory and CPU of its whole process tree, and how
many times failproof's wall time the peer took. Tools are installed outside the repository
(--cache); installing is a separate step and is never timed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import corpus  # noqa: E402
import detection  # noqa: E402
import drive_failproof  # noqa: E402
import drive_garak  # noqa: E402
import drive_inspect  # noqa: E402
import drive_promptfoo  # noqa: E402
import measure  # noqa: E402
from runner_server import request_counts, spawn  # noqa: E402
from tool import Driver, Job, clean_env  # noqa: E402

MODULES = (drive_failproof, drive_promptfoo, drive_garak, drive_inspect)
DRIVERS = {module.DRIVER.name: module.DRIVER for module in MODULES}


@dataclass(frozen=True)
class Outcome:
    """One tool at one concurrency: what it cost, or why it did not finish."""

    tool: str
    concurrency: int
    ideal_s: float
    measured: measure.Measured | None = None
    requests: int = 0
    other_requests: int = 0
    recorded: int = 0
    error: str = ""


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--install", action="store_true", help="install the peers, then stop")
    parser.add_argument("--prompts", type=int, default=2000, help="prompts sent by every tool")
    parser.add_argument("--answers", type=int, default=20000, help="answers for detection")
    parser.add_argument("--latency-ms", type=float, default=100.0, help="server latency")
    parser.add_argument("--concurrency", default="16,64,256", help="comma list")
    parser.add_argument("--tools", default=",".join(DRIVERS), help="comma list of tools")
    parser.add_argument("--skip-latency", action="store_true", help="only the detection part")
    parser.add_argument("--skip-detection", action="store_true", help="only the latency part")
    parser.add_argument(
        "--cache",
        type=Path,
        default=Path.home() / ".cache" / "failproof-bench" / "peers",
        help="where the peers are installed (outside the repository)",
    )
    return parser.parse_args()


def _one(driver: Driver, job: Job, ideal: float) -> Outcome:
    before = request_counts(job.base_url)
    try:
        command = driver.command(job)
        ran = measure.run(
            command.argv, cwd=job.workdir, env=clean_env(command.env), log=job.workdir / "log"
        )
    except (OSError, ValueError) as error:
        return Outcome(
            driver.name,
            job.concurrency,
            ideal,
            error=f"did not start (installed? run --install): {error}",
        )
    after = request_counts(job.base_url)
    seen = after["chat_completions"] - before["chat_completions"]
    other = after["other"] - before["other"]
    try:
        recorded = driver.recorded(job)
    except (OSError, ValueError, KeyError) as error:
        recorded, problem = 0, f"no results read ({type(error).__name__}: {error})"
    else:
        problem = ""
    if ran.exit_code not in driver.ok_exit:
        problem = f"exit {ran.exit_code}: {ran.output_tail[-200:]}"
    elif recorded != len(job.prompts) and not problem:
        problem = f"recorded {recorded} of {len(job.prompts)} prompts"
    return Outcome(driver.name, job.concurrency, ideal, ran, seen, other, recorded, problem)


def latency_matrix(args: argparse.Namespace, tools: list[Driver], root: Path) -> list[Outcome]:
    """Every tool at every concurrency, against one server; tools interleaved per concurrency."""
    prompts = [
        {"id": p.id, "text": p.text, "adversarial": p.adversarial}
        for p in corpus.prompts(args.prompts)
    ]
    outcomes = []
    with spawn(args.latency_ms, vary=True) as base_url:
        for concurrency in [int(c) for c in args.concurrency.split(",")]:
            ideal = args.prompts * args.latency_ms / 1000 / concurrency
            for driver in tools:
                workdir = root / f"{driver.name}-{concurrency}"
                workdir.mkdir()
                job = Job(prompts, base_url, concurrency, workdir, args.cache)
                print(f"{driver.name} at concurrency {concurrency} ...", end=" ", flush=True)
                outcomes.append(_one(driver, job, ideal))
                print(_progress(outcomes[-1]), flush=True)
    return outcomes


def _progress(o: Outcome) -> str:
    if o.measured is None:
        return o.error
    done = f"{o.measured.wall_s:.2f} s, {o.requests} requests"
    return f"{done}; {o.error}" if o.error else done


def _row(o: Outcome, failproof: dict[int, float]) -> str:
    if o.measured is None or (o.error and o.recorded == 0):
        return f"| {o.tool} | {o.concurrency} | error: {o.error} |" + " |" * 6
    m = o.measured
    base = failproof.get(o.concurrency)
    versus = f"{m.wall_s / base:.2f}x" if base and o.tool != "failproof" else "-"
    note = f" ({o.error})" if o.error else ""
    return (
        f"| {o.tool}{note} | {o.concurrency} | {m.wall_s:.2f} | {m.wall_s / o.ideal_s:.2f} | "
        f"{o.requests:,}{f' (+{o.other_requests} other)' if o.other_requests else ''} | "
        f"{o.recorded:,} | {m.peak_mb:,.0f} | {m.cpu_s:.1f} | {versus} |"
    )


def latency_table(outcomes: list[Outcome]) -> list[str]:
    """The peer table, as Markdown rows."""
    failproof = {
        o.concurrency: o.measured.wall_s
        for o in outcomes
        if o.tool == "failproof" and o.measured and not o.error
    }
    rows = [
        "| tool | concurrency | wall s | x ideal | requests seen | prompts recorded "
        "| peak MB (tree PSS) | CPU s (user+sys) | peer wall / failproof wall |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    return rows + [_row(o, failproof) for o in outcomes]


def machine() -> str:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} CPUs ({cpu}), "
        f"{ram:.0f} GiB RAM; Python {platform.python_version()}; load average {load}"
    )


def main() -> None:
    args = _arguments()
    tools = [DRIVERS[name] for name in args.tools.split(",")]
    if args.install:
        args.cache.mkdir(parents=True, exist_ok=True)
        for driver in tools:
            driver.install(args.cache)
        return
    print(f"machine: {machine()}")
    print(f"command: {' '.join(sys.argv)}")
    with tempfile.TemporaryDirectory(prefix="failproof-peers-") as tmp:
        root = Path(tmp)
        lines: list[str] = []
        if not args.skip_latency:
            outcomes = latency_matrix(args, tools, root)
            lines += ["", f"{args.prompts:,} prompts, {args.latency_ms:g} ms latency", ""]
            lines += latency_table(outcomes)
        if not args.skip_detection:
            prompt_path, answer_path = corpus.write(root / "corpus", args.prompts, args.answers)
            found = detection.measure(answer_path, prompt_path, args.cache, root)
            lines += ["", f"{args.answers:,} recorded answers (detection only)", ""]
            lines += detection.table(found)
        print("\n".join(lines))
        print(f"\nload average after: {json.dumps(os.getloadavg())}")


if __name__ == "__main__":
    main()
