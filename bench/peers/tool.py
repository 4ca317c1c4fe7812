"""What every peer driver provides, and the install helpers they share.

A driver installs its tool into its own environment under the cache folder (idempotent: a
finished install leaves a marker and is not repeated), and turns (prompts, server, concurrency)
into one command line. After the command, it reads the tool's own output to say how many
prompts it recorded, so a run that silently did less is visible.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Job:
    """The inputs of one run: the prompts, the server, the concurrency, a fresh folder."""

    prompts: list[dict[str, object]]
    base_url: str
    concurrency: int
    workdir: Path
    cache: Path


@dataclass(frozen=True)
class Command:
    """One tool invocation: the command line, its environment additions, its folder."""

    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    note: str = ""  # what this tool ran, where it differs from the others


@dataclass(frozen=True)
class Driver:
    """A tool: how to install it, build its command, and count what it recorded."""

    name: str
    install: Callable[[Path], None]
    command: Callable[[Job], Command]
    recorded: Callable[[Job], int]
    ok_exit: frozenset[int] = frozenset({0})  # exit codes of a run that finished
    max_concurrency: int | None = None  # the tool's own cap, if it has one


def clean_env(extra: dict[str, str]) -> dict[str, str]:
    """This process's environment without proxies or keys, plus ``extra``: tools stay offline."""
    drop = ("PROXY", "_KEY", "TOKEN", "PYTHONPATH", "VIRTUAL_ENV")
    env = {k: v for k, v in os.environ.items() if not any(d in k.upper() for d in drop)}
    return {**env, "NO_PROXY": "127.0.0.1,localhost", **extra}


def step(argv: list[str], cwd: Path | None = None) -> None:
    """Run one install step; its output shows (installs are slow, and not measured)."""
    print("  $ " + " ".join(argv), flush=True)
    subprocess.run(argv, cwd=cwd, check=True)


def python_venv(cache: Path, name: str, packages: list[str]) -> Path:
    """A virtualenv ``cache/name`` with ``packages`` installed; returns its python."""
    folder = cache / name
    python = folder / "bin" / "python"
    marker = folder / ".installed"
    wanted = " ".join(packages)
    if marker.exists() and marker.read_text(encoding="utf-8") == wanted:
        print(f"{name}: installed in {folder}")
        return python
    step([sys.executable, "-m", "venv", "--clear", str(folder)])
    step([str(python), "-m", "pip", "install", "--quiet", *packages])
    marker.write_text(wanted, encoding="utf-8")
    return python
