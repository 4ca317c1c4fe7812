"""A command line that names a command loads that command's module alone; the table that says
which module registers which command is the truth, and ``--help`` still lists every command."""

from __future__ import annotations

import json
import subprocess
import sys

from failproof.cli._commands import COMMANDS, MODULES


def fresh(code: str) -> object:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


REGISTERED = """
import json
from failproof.cli import app
found = {}
for info in app.registered_commands:
    found[info.name or info.callback.__name__] = info.callback.__module__
for group in app.registered_groups:
    first = group.typer_instance.registered_commands[0]
    found[group.name] = first.callback.__module__
print(json.dumps(found))
"""


def test_every_command_is_registered_by_the_module_the_table_names() -> None:
    registered = fresh(REGISTERED)
    assert registered == {name: f"failproof.cli.{module}" for name, module in COMMANDS.items()}


def test_the_table_lists_every_module_once_in_help_order() -> None:
    assert sorted(MODULES) == sorted(set(COMMANDS.values()))
    assert len(MODULES) == len(set(MODULES))


ONE_COMMAND = """
import contextlib, io, json, sys
from failproof.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(["score", "--help"])
loaded = sorted(m for m in sys.modules if m.startswith("failproof.cli._"))
print(json.dumps({"code": code, "usage": "failproof score" in out.getvalue(), "loaded": loaded}))
"""


def test_naming_a_command_loads_its_module_and_not_the_others() -> None:
    seen = fresh(ONE_COMMAND)
    assert isinstance(seen, dict)
    assert seen["code"] == 0
    assert seen["usage"] is True
    assert "failproof.cli._score" in seen["loaded"]
    assert not {"failproof.cli._mcp", "failproof.cli._datasets", "failproof.cli._view"} & set(
        seen["loaded"]
    )


EVERY = """
import contextlib, io, json
from failproof.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(["--help"])
print(json.dumps({"code": code, "text": out.getvalue()}))
"""


def test_the_top_level_help_lists_every_command() -> None:
    seen = fresh(EVERY)
    assert isinstance(seen, dict)
    assert seen["code"] == 0
    for name in COMMANDS:
        assert f" {name} " in seen["text"]
