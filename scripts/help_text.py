"""Print the ``--help`` screen of every failproof command, for comparing before and after a change.

Walks the command tree and runs ``failproof ... --help`` for each command in a fresh process at a
fixed terminal width, so the text is what a user sees. Typical use around a change that must not
alter the help::

    python scripts/help_text.py > before.txt
    # ... change ...
    python scripts/help_text.py | diff before.txt -
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import typer

from failproof.cli import app


def command_paths(command: object, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command's words after ``failproof``, the group itself first, in --help's order."""
    paths = [path]
    for name, sub in getattr(command, "commands", {}).items():
        if not sub.hidden:
            paths += command_paths(sub, (*path, name))
    return paths


def help_text(path: tuple[str, ...], width: int) -> str:
    env = {**os.environ, "COLUMNS": str(width), "TERM": "dumb", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "failproof", *path, "--help"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    return f"$ failproof {' '.join([*path, '--help'])}  (exit {done.returncode})\n{done.stdout}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=100, help="terminal columns")
    options = parser.parse_args()
    for path in command_paths(typer.main.get_command(app)):
        print(help_text(path, options.width))


if __name__ == "__main__":
    main()
