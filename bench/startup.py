"""Benchmark: start-up CPU of ``import failproof`` and of the command's help screens.

Each command runs in N fresh processes; the figure is the median user+sys CPU time of those
processes (from ``getrusage(RUSAGE_CHILDREN)`` deltas), so other load on the machine moves it
little. ``python -c pass`` is the floor every Python process pays; the table shows it and each
command's cost above it. A two-command typer app with failproof's help settings shows what typer
and rich cost by themselves for a help screen. ``--top K`` also prints, per command, the K imports
with the largest cumulative time under ``python -X importtime`` (what is imported, and under
which parent).

``--baseline SRC`` measures another checkout's ``src`` folder in the same rounds (interleaved,
so both see the same load) and adds its figures and the ratio; e.g. the code before a change::

    git archive BASE src | tar -x -C /tmp/before
    python bench/startup.py [--repeat 15] [--top 0] [--baseline /tmp/before/src]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import time

PY = sys.executable
# The floor of a typer command line: a one-command app with failproof's help settings.
TYPER_APP = """
import sys, typer
app = typer.Typer(rich_markup_mode="rich", add_completion=False, pretty_exceptions_enable=False)
@app.command()
def one(n: int = 1) -> None:
    "One command."
@app.command()
def two() -> None:
    "Another."
app(sys.argv[1:])
"""
COMMANDS: list[tuple[str, list[str]]] = [
    ("python -c pass (floor)", ["-c", "pass"]),
    ("typer app --help (floor)", ["-c", TYPER_APP, "--help"]),
    ("typer app one --help", ["-c", TYPER_APP, "one", "--help"]),
    ("import failproof", ["-c", "import failproof"]),
    ("failproof --help", ["-m", "failproof", "--help"]),
    ("failproof run --help", ["-m", "failproof", "run", "--help"]),
    ("failproof score --help", ["-m", "failproof", "score", "--help"]),
    ("failproof safe --help", ["-m", "failproof", "safe", "--help"]),
    ("failproof import --help", ["-m", "failproof", "import", "--help"]),
]


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_of(args: list[str], env: dict[str, str]) -> float:
    """User+sys CPU seconds of one fresh process running ``python ARGS``."""
    before = child_cpu()
    subprocess.run(
        [PY, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True
    )
    return child_cpu() - before


def with_src(src: str | None) -> dict[str, str]:
    """The environment, with ``src`` first on the import path when given."""
    if src is None:
        return dict(os.environ)
    rest = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    return {**os.environ, "PYTHONPATH": os.pathsep.join([src, *[p for p in rest if p]])}


Samples = dict[str, list[float]]


def measure(repeat: int, baseline: str | None) -> tuple[Samples, Samples]:
    """Interleaved rounds, so a burst of load elsewhere touches every command alike."""
    ours: Samples = {label: [] for label, _ in COMMANDS}
    theirs: Samples = {label: [] for label, _ in COMMANDS}
    for _ in range(repeat):
        for label, args in COMMANDS:
            ours[label].append(cpu_of(args, with_src(None)))
            if baseline is not None:
                theirs[label].append(cpu_of(args, with_src(baseline)))
    return ours, theirs


def print_table(ours: Samples, theirs: Samples) -> None:
    floor = statistics.median(ours[COMMANDS[0][0]])
    extra = f" {'baseline s':>11} {'ratio':>6}" if any(theirs.values()) else ""
    print(f"{'command':<26} {'median s':>9} {'min s':>7} {'above floor s':>14}{extra}")
    for label, values in ours.items():
        median = statistics.median(values)
        row = f"{label:<26} {median:>9.3f} {min(values):>7.3f} {median - floor:>14.3f}"
        if theirs[label]:
            base = statistics.median(theirs[label])
            row += f" {base:>11.3f} {median / base:>6.2f}"
        print(row)


def heaviest_imports(args: list[str], top: int) -> list[tuple[int, str]]:
    """The ``top`` imports with the largest cumulative microseconds under -X importtime."""
    done = subprocess.run(
        [PY, "-X", "importtime", *args], capture_output=True, text=True, check=True
    )
    rows: list[tuple[int, str]] = []
    for line in done.stderr.splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].rstrip()))
    return sorted(rows, reverse=True)[:top]


def print_imports(top: int) -> None:
    for label, args in COMMANDS[1:]:
        print(f"\n{label}: heaviest imports (cumulative ms, indented under their parent)")
        for micros, name in heaviest_imports(args, top):
            print(f"  {micros / 1000:8.1f}  {name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="fresh processes per command")
    parser.add_argument("--top", type=int, default=0, help="also list the K heaviest imports")
    parser.add_argument("--baseline", help="another checkout's src folder, measured alongside")
    options = parser.parse_args()
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {load}")
    print(f"user+sys CPU per process, median of {options.repeat}\n")
    print_table(*measure(options.repeat, options.baseline))
    if options.top:
        print_imports(options.top)


if __name__ == "__main__":
    main()
