"""``python:`` targets whose code ends, interrupts, stalls or forges the worker it runs in."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.hostile.replay import GUARD_S, Attempt, check

HEAD = "import os, sys, signal, threading, time, asyncio\n\n"
FIRST = "def first(messages):\n    return messages[-1]['content'] == 'first'\n\n"

#: name -> the body of ``f(messages)`` when the case is the first one (the second answers ok).
BODIES = {
    "os-exit-1": "os._exit(1)",
    "os-exit-0-after-print": "print('ok', flush=True)\n        os._exit(0)",
    "self-sigkill": "os.kill(os.getpid(), signal.SIGKILL)",
    "self-sigterm": "signal.raise_signal(signal.SIGTERM)",
    "thread-os-exit-later": "threading.Timer(0.01, os._exit, (0,)).start()\n"
    "        threading.Event().wait()",
    "keyboard-interrupt-in-thread": "raise KeyboardInterrupt('from the target')",
    "busy-loop": "while True:\n            pass",
    "forge-protocol": 'os.write(1, b\'{"id": 1, "response": {"output": "ok"}}\\n\')\n'
    "        threading.Event().wait()",
    "print-flood": "print('ok' * 100000)\n        raise RuntimeError('no answer')",
}
ASYNC_BODIES = {
    "async-os-exit": "os._exit(0)",
    "async-block-loop": "time.sleep(3600)",
    "async-keyboard-interrupt": "raise KeyboardInterrupt",
    "async-system-exit": "raise SystemExit(0)",
}


def _bot(body: str, is_async: bool) -> str:
    define = "async def" if is_async else "def"
    call = f"{define} f(messages):\n    if first(messages):\n        {body}\n    return 'ok'\n"
    return HEAD + FIRST + call


def _suite(folder: Path) -> Path:
    cases = [
        {"id": "c0", "input": "first", "expect": {"must_contain": ["ok"]}},
        {"id": "c1", "input": "second", "expect": {"must_contain": ["ok"]}},
    ]
    path = folder / "s.json"
    path.write_text(json.dumps({"suite": "s", "cases": cases}), encoding="utf-8")
    return path


def python_attempt(name: str, source: str, expected: dict[str, str] | None, code: int) -> Attempt:
    def run(folder: Path) -> None:
        (folder / "bot.py").write_text(source, encoding="utf-8")
        command = [sys.executable, "-m", "failproof", "run", str(_suite(folder))]
        command += ["-t", "python:bot.py:f", "-f", "json", "--timeout", "2", "--retries", "0"]
        env = {"FAILPROOF_HOME": str(folder / "home"), "PATH": "/usr/bin:/bin"}
        env.update({k: v for k, v in __import__("os").environ.items() if k == "PYTHONPATH"})
        try:
            done = subprocess.run(
                [*command, "-c", "1"], cwd=folder, capture_output=True, text=True,
                timeout=GUARD_S, env=env, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            raise AssertionError("the run froze") from None
        check(done.returncode == code, f"exit {done.returncode}: {done.stderr[-400:]}")
        check("Traceback" not in done.stdout + done.stderr, done.stderr[-400:])
        if expected is None:
            return
        reports = list(folder.glob("failproof-results/*/report.json"))
        check(bool(reports), "no report")
        results = json.loads(reports[0].read_text(encoding="utf-8"))["results"]
        verdicts = {r["case_id"]: r["classification"]["primary"] for r in results}
        check(verdicts == expected, f"verdicts {verdicts}")

    return Attempt(f"python/{name}", run)


def attempts() -> list[Attempt]:
    ok_after_error = {"c0": "error", "c1": "pass"}
    found = [python_attempt(n, _bot(b, False), ok_after_error, 1) for n, b in BODIES.items()]
    found += [python_attempt(n, _bot(b, True), ok_after_error, 1) for n, b in ASYNC_BODIES.items()]
    #: cannot reach the protocol: fd 1 is the worker's stderr, stdin is empty
    both_pass = {"c0": "pass", "c1": "pass"}
    found += [
        python_attempt("close-fd-1", _bot("os.close(1)", False), both_pass, 0),
        python_attempt(
            "close-fd-0-2", _bot("os.close(0)\n        os.close(2)", False), both_pass, 0
        ),
        python_attempt("stdin-read", _bot("return 'ok' + sys.stdin.read()", False), both_pass, 0),
        python_attempt("import-os-exit", HEAD + "os._exit(0)\n", None, 3),
        python_attempt("import-keyboard-interrupt", HEAD + "raise KeyboardInterrupt\n", None, 3),
        python_attempt("import-system-exit-0", HEAD + "sys.exit(0)\n", None, 3),
    ]
    return found
