"""Which module registers each command: ``failproof run ...`` imports the run command alone.

Building every command (typer reads each one's signature and type hints) and importing every
command module costs a small run about a tenth of its CPU; a command line that names a command
loads just that command's module. Anything else (``--help``, a misspelt command) loads them all,
in `MODULES` order, which is the order ``--help`` lists them in. ``tests/cli`` holds the table
to what the modules register.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module

import typer

from failproof.cli._app import app

__all__ = ["COMMANDS", "MODULES", "application"]

#: Every command module, in the order ``--help`` lists their commands.
MODULES = (
    "_run",
    "_attack",
    "_demo",
    "_score",
    "_rescore",
    "_report",
    "_view",
    "_generate",
    "_import",
    "_suites",
    "_runs",
    "_safe",
    "_calibrate",
    "_config",
    "_compare",
    "_init",
    "_ci",
    "_mcp",
    "_datasets",
)

#: Each top-level command or command group, and the module that registers it.
COMMANDS = {
    "run": "_run",
    "attack": "_attack",
    "demo": "_demo",
    "score": "_score",
    "rescore": "_rescore",
    "report": "_report",
    "view": "_view",
    "generate": "_generate",
    "import": "_import",
    "suites": "_suites",
    "runs": "_runs",
    "safe": "_safe",
    "calibrate": "_calibrate",
    "config": "_config",
    "compare": "_compare",
    "init": "_init",
    "ci": "_ci",
    "mcp": "_mcp",
    "datasets": "_datasets",
}


def application(args: Sequence[str] = ()) -> typer.Typer:
    """The app with the command ``args`` names registered (every command when it names none)."""
    named = COMMANDS.get(args[0]) if args else None
    for module in (named,) if named else MODULES:
        import_module(f"failproof.cli.{module}")
    return app
