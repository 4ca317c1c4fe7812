"""Deterministic detection throughput: the same recorded answers through each tool's detector.

Each detector runs in its tool's own runtime (failproof's interpreter, garak's virtualenv, node
for promptfoo) as a child process that prints one JSON line per detector: the answers, the CPU
seconds of the detection calls alone (inputs built beforehand), and the refusals it found by
the answer's kind. A detector that cannot run is reported with its error.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import drive_garak
import drive_promptfoo
from tool import clean_env

HERE = Path(__file__).parent
SOURCE = HERE.parents[1] / "src"


@dataclass(frozen=True)
class Detected:
    """One detector's throughput over the answers (or why it did not run)."""

    tool: str
    detector: str
    answers: int = 0
    cpu_s: float = 0.0
    flagged: str = ""
    error: str = ""

    @property
    def per_cpu_second(self) -> float:
        return self.answers / self.cpu_s if self.cpu_s else 0.0


def _commands(answers: Path, prompts: Path, cache: Path) -> list[tuple[str, str, list[str]]]:
    index = drive_promptfoo.folder(cache) / "node_modules/promptfoo/dist/src/index.js"
    return [
        (
            "failproof",
            "full classifier",
            [sys.executable, str(HERE / "detect_failproof.py"), str(answers), str(prompts)],
        ),
        (
            "garak",
            "MitigationBypass, Prefixes",
            [str(drive_garak.python(cache)), str(HERE / "detect_garak.py"), str(answers)],
        ),
        (
            "promptfoo",
            "is-refusal",
            ["node", str(HERE / "detect_promptfoo.mjs"), str(index), str(answers)],
        ),
    ]


def _flagged(counts: dict[str, int]) -> str:
    return ", ".join(f"{kind} {n}" for kind, n in sorted(counts.items()))


def _run(tool: str, detector: str, argv: list[str], workdir: Path) -> list[Detected]:
    env = clean_env({"PYTHONPATH": str(SOURCE), **drive_promptfoo.QUIET})
    env.update({f"XDG_{k}_HOME": str(workdir / "xdg") for k in ("CACHE", "DATA", "CONFIG")})
    try:
        done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=workdir)
    except OSError as error:
        return [Detected(tool, detector, error=str(error))]
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode or not lines:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return [Detected(tool, detector, error=f"exit {done.returncode}: {tail[0][:150]}")]
    rows = [json.loads(line) for line in lines]
    return [
        Detected(
            tool,
            row.get("detector", detector),
            row["answers"],
            row["cpu_s"],
            _flagged(row["flagged"]),
        )
        for row in rows
    ]


def measure(answers: Path, prompts: Path, cache: Path, workdir: Path) -> list[Detected]:
    """Every detector over ``answers``, one child process per tool."""
    found: list[Detected] = []
    for tool, detector, argv in _commands(answers, prompts, cache):
        print(f"detection: {tool} ...", flush=True)
        found += _run(tool, detector, argv, workdir)
    return found


def table(found: list[Detected]) -> list[str]:
    """The detection table, as Markdown rows."""
    rows = [
        "| tool | detector | answers | CPU s | answers per CPU-second | refusals found, by kind |",
        "| --- | --- | ---: | ---: | ---: | --- |",
    ]
    for d in found:
        if d.error:
            rows.append(f"| {d.tool} | {d.detector} | - | - | - | error: {d.error} |")
            continue
        rows.append(
            f"| {d.tool} | {d.detector} | {d.answers:,} | {d.cpu_s:.2f} | "
            f"{d.per_cpu_second:,.0f} | {d.flagged} |"
        )
    return rows
