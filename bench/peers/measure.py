"""One timed run of a tool's command: wall time, the CPU and peak memory of its whole process tree.

CPU (user+sys) comes from ``os.wait4`` on the tool's process: the kernel adds the rusage of every
descendant that was waited for. Peak memory is the largest sum, over the process and all its
descendants, of their proportional set size (PSS: a page shared by k processes counts 1/k in
each, so forked workers are not counted k times), sampled from /proc every 100 ms. ``ru_maxrss``
alone is one process's peak, which undercounts a tool that forks workers; the larger of the two
readings is kept.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Measured:
    """What one command cost, and how it ended."""

    wall_s: float
    cpu_s: float
    peak_mb: float
    exit_code: int
    output_tail: str


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(parent, []).append(int(entry.name))
    return tree


def _pss(pid: int) -> int:
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    for line in rollup.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) * 1024
    return 0


def tree_memory(root: int) -> int:
    """Bytes (PSS) of ``root`` and every process below it now."""
    tree, todo, total = _children(), [root], 0
    while todo:
        pid = todo.pop()
        todo.extend(tree.get(pid, []))
        total += _pss(pid)
    return total


class _Sampler(threading.Thread):
    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid, self.peak, self.done = pid, 0, threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.1):
            self.peak = max(self.peak, tree_memory(self.pid))


def run(argv: list[str], *, cwd: Path, env: dict[str, str], log: Path) -> Measured:
    """Run ``argv`` to the end; its output goes to ``log`` (the last lines are kept)."""
    with log.open("wb") as out:
        start = time.perf_counter()
        process = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        sampler = _Sampler(process.pid)
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        sampler.done.set()
        sampler.join()
        process.returncode = os.waitstatus_to_exitcode(status)
    peak = max(sampler.peak, usage.ru_maxrss * 1024) / 2**20
    tail = log.read_text(encoding="utf-8", errors="replace").strip().splitlines()[-3:]
    return Measured(
        wall, usage.ru_utime + usage.ru_stime, peak, process.returncode, " | ".join(tail)
    )
