"""Benchmark: start-up CPU of ``import failproof`` and of the command's help screens.

Each command runs in N fresh processes; the figure is the median user+sys CPU time of those
processes (from ``getrusage(RUSAGE_CHILDREN)`` deltas), so other load on the machine moves it
little. ``python -c pass`` is the floor every Python process pays; the table shows it and each
command's cost above it. ``--top K`` also prints, per command, the K imports with the largest
cumulative time under ``python -X importtime`` (what is imported, and under which parent).

    python bench/startup.py [--repeat 15] [--top 0]
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
COMMANDS: list[tuple[str, list[str]]] = [
    ("python -c pass (floor)", ["-c", "pass"]),
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


def cpu_of(args: list[str]) -> float:
    """User+sys CPU seconds of one fresh process running ``python ARGS``."""
    before = child_cpu()
    subprocess.run([PY, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return child_cpu() - before


def measure(repeat: int) -> dict[str, list[float]]:
    """Interleaved rounds, so a burst of load elsewhere touches every command alike."""
    samples: dict[str, list[float]] = {label: [] for label, _ in COMMANDS}
    for _ in range(repeat):
        for label, args in COMMANDS:
            samples[label].append(cpu_of(args))
    return samples


def print_table(samples: dict[str, list[float]]) -> None:
    floor = statistics.median(samples[COMMANDS[0][0]])
    print(f"{'command':<26} {'median s':>9} {'min s':>7} {'above floor s':>14}")
    for label, values in samples.items():
        median = statistics.median(values)
        print(f"{label:<26} {median:>9.3f} {min(values):>7.3f} {median - floor:>14.3f}")


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
    options = parser.parse_args()
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores")
    print(f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {load}")
    print(f"user+sys CPU per process, median of {options.repeat}\n")
    print_table(measure(options.repeat))
    if options.top:
        print_imports(options.top)


if __name__ == "__main__":
    main()
