"""High 3: a ``python:`` target's code cannot turn a run green: it runs in a worker process, so
ending that process, raising KeyboardInterrupt or blocking its event loop is the case's error, the
other cases still run, and the run ends with its report and exit 1."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tests.hostile.conftest import write_suite

#: Not a timing of the code under test: how long a run may take before it counts as frozen.
GUARD_S = 120

FIRST = "def first(m):\n    return m[-1]['content'] == 'first'\n\n"
BOTS = {
    "os-exit-in-call": "import os\n" + FIRST + "def f(messages):\n"
    "    if first(messages):\n        os._exit(0)\n    return 'ok'\n",
    "os-exit-from-a-thread": "import os, threading\n" + FIRST + "def f(messages):\n"
    "    if first(messages):\n        threading.Thread(target=os._exit, args=(0,)).start()\n"
    "        threading.Event().wait()\n    return 'ok'\n",
    "keyboard-interrupt": FIRST + "def f(messages):\n"
    "    if first(messages):\n        raise KeyboardInterrupt\n    return 'ok'\n",
    "async-keyboard-interrupt": FIRST + "async def f(messages):\n"
    "    if first(messages):\n        raise KeyboardInterrupt\n    return 'ok'\n",
    "async-blocks-the-loop": "import time\n" + FIRST + "async def f(messages):\n"
    "    if first(messages):\n        time.sleep(3600)\n    return 'ok'\n",
    "sys-exit-from-a-thread": "import sys, threading\n" + FIRST + "def f(messages):\n"
    "    if first(messages):\n        t = threading.Thread(target=sys.exit, args=(0,))\n"
    "        t.start()\n        t.join()\n        raise RuntimeError('after exit')\n"
    "    return 'ok'\n",
}


def _run(folder: Path, bot: str) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    (folder / "bot.py").write_text(BOTS[bot], encoding="utf-8")
    cases = [
        {"id": "c0", "input": "first", "expect": {"must_contain": ["ok"]}},
        {"id": "c1", "input": "second", "expect": {"must_contain": ["ok"]}},
    ]
    suite = write_suite(folder, cases)
    command = [sys.executable, "-m", "failproof", "run", suite, "-t", "python:bot.py:f"]
    command += ["-f", "json", "--timeout", "2", "--retries", "0", "-c", "1"]
    done = subprocess.run(
        command, cwd=folder, capture_output=True, text=True, timeout=GUARD_S, check=False
    )
    reports = list(folder.glob("failproof-results/*/report.json"))
    assert reports, f"no report: exit {done.returncode}\n{done.stderr[-800:]}"
    results = json.loads(reports[0].read_text(encoding="utf-8"))["results"]
    return done, {r["case_id"]: r["classification"]["primary"] for r in results}


@pytest.mark.parametrize("bot", list(BOTS), ids=list(BOTS))
def test_the_targets_end_is_its_cases_error_and_the_run_goes_on(workdir: Path, bot: str) -> None:
    done, verdicts = _run(workdir, bot)
    assert done.returncode == 1, done.stderr[-800:]
    assert verdicts == {"c0": "error", "c1": "pass"}
    assert "Traceback" not in done.stdout + done.stderr
