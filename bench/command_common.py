"""Shared pieces of the whole-command benchmarks: fresh processes, their CPU, the load.

Every command runs as its own process; its CPU is the user+sys time of it and every descendant
it waited for (``os.wait4``), its wall time from start to exit. Python writes and reads byte code
as a user's installed copy does (``PYTHONDONTWRITEBYTECODE`` is dropped from the environment and
``src`` compiled once first), so no figure includes compiling failproof's sources.
"""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src"


@dataclass(frozen=True)
class Ran:
    """One process: wall and CPU seconds, its exit code, the load average when it started."""

    wall_s: float
    cpu_s: float
    exit_code: int
    load: float


def environment(source: Path = SOURCE, **extra: str) -> dict[str, str]:
    """This environment for a child: ``source``'s failproof (this checkout's by default) first
    on the import path, byte code on."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    rest = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {**env, "PYTHONPATH": os.pathsep.join([str(source), *rest]), **extra}


def compile_sources(*sources: Path) -> None:
    """Byte code for every failproof module of each source folder, as an installed copy has."""
    for source in sources or (SOURCE,):
        compileall.compile_dir(source, quiet=1)


def load_average() -> float:
    return os.getloadavg()[0]


def run(argv: list[str], *, env: dict[str, str], cwd: Path, ok: frozenset[int]) -> Ran:
    """Run ``argv`` (output discarded) to the end; its exit code must be in ``ok``."""
    load = load_average()
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    error = process.stderr.read().decode(errors="replace") if process.stderr else ""
    if process.stderr is not None:
        process.stderr.close()
    if code not in ok:
        raise SystemExit(f"{' '.join(argv[:4])} ... exited {code}: {error[-2000:]}")
    return Ran(wall, usage.ru_utime + usage.ru_stime, code, load)


def python(*args: str) -> list[str]:
    return [sys.executable, *args]
