"""Benchmark: peak memory of a whole ``failproof run`` of a large JSONL suite.

    python bench/run_memory.py [--cases 2000 20000 100000] [--concurrency 256] [--baseline SRC]
    python bench/run_memory.py --plan-only --cases 100000 1000000 [--baseline SRC]

A local server answers at once with a different answer each time (``runner_server.py``, its own
process). For each count, a suite of that many prompts from the peer benchmark's corpus (half
should be refused) is run with ``failproof run suite.jsonl --target openai:bench --base-url URL
--no-cache --retries 0 --quiet --format json --concurrency C`` in a fresh process and a fresh
results folder. Peak RSS is the kernel's high-water mark of the run's largest process
(``ru_maxrss`` of ``os.wait4``: the runner, or a scoring worker if one grew larger). Flat memory
means the peak stops growing with the count.

``--plan-only`` skips the server and the calls: each process only plans the run (the suites
checked, the selection, the fingerprint) and walks every work item it would send, so a count
of 1,000,000 takes seconds; the baseline plans with the code before (cases held as loaded).

``--baseline SRC`` also runs another checkout's ``src`` folder on the same suites, one after the
other (e.g. the code before a change: ``git archive BASE src | tar -x -C /tmp/before``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from command_common import SOURCE, compile_sources, environment, load_average, python
from runner_server import spawn

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Peak:
    """One run: its peak RSS (MB), wall and CPU seconds, exit code, load average at the start."""

    rss_mb: float
    wall_s: float
    cpu_s: float
    exit_code: int
    load: float
    error: str = ""


def measure(argv: list[str], env: dict[str, str], cwd: Path) -> Peak:
    """Run ``argv`` to the end (output discarded); exit codes 0 and 1 (cases failed) are runs."""
    load = load_average()
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert process.stderr is not None
    error = process.stderr.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    process.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(argv[:4])} ... exited {code}: {error[-2000:]}")
    wall = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    last = error.strip().splitlines()[-1:] if code else []
    return Peak(usage.ru_maxrss / 1024, wall, cpu, code, load, "".join(last)[:160])


def run_once(source: Path, suite: Path, folder: Path, base_url: str, concurrency: int) -> Peak:
    env = environment(source, OPENAI_API_KEY="bench", FAILPROOF_HOME=str(folder / "home"))
    argv = python("-m", "failproof", "run", str(suite), "--target", "openai:bench")
    argv += ["--base-url", base_url, "--no-cache", "--retries", "0", "--quiet"]
    argv += ["--format", "json", "--output", str(folder / "report")]
    argv += ["--concurrency", str(concurrency)]
    return measure(argv, env, folder)


#: Plans a run of the suite in argv[1] and walks its work items, as `start_run` does before and
#: while it sends them (with this source's code: streamed if it has `RunRequest.stream`).
PLAN_ONLY = """
import sys
from failproof.runner._plan import RunRequest, plan_work
request = RunRequest(suites=(sys.argv[1],), target="mock:ok")
if hasattr(request, "stream"):
    suites = request.stream()
    sent = sum(1 for _ in plan_work(suites.cases(), 1))
else:
    from failproof.runner._plan import suite_fingerprint
    loaded = request.load()
    suite_fingerprint(loaded)
    sent = sum(1 for _ in plan_work(loaded, 1))
print(sent)
"""


def plan_once(source: Path, suite: Path, folder: Path) -> Peak:
    env = environment(source, FAILPROOF_HOME=str(folder / "home"))
    return measure(python("-c", PLAN_ONLY, str(suite)), env, folder)


def write_suite(path: Path, count: int) -> Path:
    """The suite of ``count`` prompts, written by another process: a child's peak RSS starts at
    its parent's (fork, then exec, keep the high-water mark), so this one must stay small."""
    script = (
        "import sys; from pathlib import Path; "
        f"sys.path[:0] = [{str(HERE)!r}, {str(HERE / 'peers')!r}]; "
        "from fixed_cost import write_suite; write_suite(Path(sys.argv[1]), int(sys.argv[2]))"
    )
    subprocess.run(python("-c", script, str(path), str(count)), check=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, nargs="+", default=[2_000, 20_000, 100_000])
    parser.add_argument("--concurrency", type=int, default=256)
    parser.add_argument("--baseline", type=Path, help="another checkout's src, run alongside")
    parser.add_argument("--plan-only", action="store_true", help="plan the runs, send nothing")
    args = parser.parse_args()
    sources = {"this checkout": SOURCE}
    if args.baseline:
        sources["baseline"] = args.baseline.resolve()
    compile_sources(*sources.values())
    what = "planning a run" if args.plan_only else f"`failproof run` at -c {args.concurrency}"
    print(f"{what}; load {load_average():.2f}")
    print("| cases | source | peak RSS MB | wall s | CPU s | exit | load (1 min) |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    server = nullcontext("") if args.plan_only else spawn(0.0, vary=True)
    with tempfile.TemporaryDirectory() as tmp, server as base_url:
        for count in args.cases:
            suite = write_suite(Path(tmp) / f"suite{count}.jsonl", count)
            for name, source in sources.items():
                folder = Path(tmp) / f"{name.replace(' ', '_')}{count}"
                folder.mkdir()
                if args.plan_only:
                    peak = plan_once(source, suite, folder)
                else:
                    peak = run_once(source, suite, folder, base_url, args.concurrency)
                refused = peak.error if args.plan_only else ""  # a run exits 1 when cases fail
                print(
                    f"| {count:,} | {name} | {peak.rss_mb:.0f} | {peak.wall_s:.1f} "
                    f"| {peak.cpu_s:.1f} | {peak.exit_code} {refused} | {peak.load:.2f} |",
                    flush=True,
                )
    print(f"load average at the end: {load_average():.2f}")


if __name__ == "__main__":
    main()
