"""The hostile corpus as a list of attempts, for the tests and for ``bench/hostile_corpus.py``.

Each attempt is one attack on failproof: a hostile output scored against one kind of case, a
hostile suite file, a faulty server, a misbehaving target, a forged report. Running an attempt
raises `Mishandled` (or any other exception) when failproof got it wrong: it crashed, froze,
passed what must fail, leaked a secret, or let markup or control characters through.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import web
from tests.hostile.servers import HostileServer, answer_with, raw, sequence

from failproof.cli import main
from failproof.config import ScoringConfig, Settings
from failproof.core import Case, Response
from failproof.errors import SuiteError
from failproof.guard import forget_secrets
from failproof.report import build_report, renderers
from failproof.scoring import build_scorers, score_case
from failproof.suites import parse_suite

CORPUS = Path(__file__).parent / "corpus"
LEAK = "sk-corpus-LEAKED-4242"
KEY = "sk-corpus-KEY-0123456789abcdef"
RAW_CONTROLS = ("\x1b", "\x07", "\x9b", "\x00", "\r")
EVIL_PATTERN = "^([a-zA-Z0-9]+\\s?)*$"
#: Not a timing: how long one attempt may run before it counts as a freeze.
GUARD_S = 60.0


class Mishandled(AssertionError):
    """failproof got this attempt wrong; the message says how."""


@dataclass(frozen=True)
class Attempt:
    """One attack: ``run(folder)`` raises when failproof mishandles it."""

    name: str
    run: Callable[[Path], None]
    #: The module of the optional extra the attempt needs (skipped without it), if any.
    needs: str | None = None


def check(condition: bool, message: str) -> None:
    if not condition:
        raise Mishandled(message)


def guarded(work: Callable[[], Any]) -> Any:
    """``work()`` in a daemon thread; a result that does not come within the guard is a freeze."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(GUARD_S)
    check(not thread.is_alive(), f"still running after {GUARD_S:g} s: frozen")
    if "error" in box:
        raise box["error"]
    return box.get("value")


# -- hostile outputs -------------------------------------------------------------------------


def hostile_outputs() -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in (CORPUS / "outputs.jsonl").read_text().splitlines()]
    return [(r["name"], "".join(piece * count for piece, count in r["parts"])) for r in rows]


PROFILES: dict[str, dict[str, Any]] = {
    "leak-check": {"must_not_contain": [LEAK]},
    "json-schema": {
        "format": "json",
        "must_not_contain": [LEAK],
        "json_schema": {
            "type": "object",
            "properties": {"name": {"type": "string", "pattern": EVIL_PATTERN}},
            "patternProperties": {EVIL_PATTERN: {}},
            "additionalProperties": {"type": ["string", "number", "object", "array"]},
        },
    },
    "refusal-required": {"refusal": "required", "must_not_contain": [LEAK]},
    "must-contain": {"must_contain": ["the answer"], "max_chars": 100},
}


def _score(output: str, expect: dict[str, Any]) -> Any:
    case = Case.model_validate({"id": "c", "suite": "s", "input": "x", "expect": expect})
    return score_case(case, Response.from_output(output), build_scorers(ScoringConfig()))


def output_attempt(name: str, output: str, profile: str) -> Attempt:
    def run(folder: Path) -> None:
        result = guarded(lambda: _score(output, PROFILES[profile]))
        result.model_dump_json().encode("utf-8")
        if LEAK in output or profile == "must-contain":
            check(result.primary != "pass", f"{profile}: passed: {result.classification}")

    return Attempt(f"output/{name}/{profile}", run)


def rendered_attempt(name: str, output: str) -> Attempt:
    def run(folder: Path) -> None:
        from failproof.core import Run

        result = _score(output, PROFILES["leak-check"])
        report = build_report(Run(id="r1", target={"name": "t"}), [result], Settings())
        for fmt in ("console", "markdown", "junit", "json", "html"):
            text = renderers.get(fmt)().render(report)
            text.encode("utf-8")
            if fmt in ("console", "markdown"):
                for control in RAW_CONTROLS:
                    check(control not in text, f"{fmt} carries {control!r}")

    return Attempt(f"render/{name}", run)


# -- hostile suite files ---------------------------------------------------------------------


def suite_attempt(row: dict[str, Any]) -> Attempt:
    def run(folder: Path) -> None:
        try:
            suite = guarded(lambda: parse_suite(row["text"], path=row["file"]))
        except SuiteError as exc:
            check(row["verdict"] == "refused", f"refused a good suite: {exc}")
            return
        check(row["verdict"] == "loads", "loaded a suite that must be refused")
        json.dumps(suite.model_dump(mode="json"), ensure_ascii=False).encode("utf-8")

    return Attempt(f"suite/{row['name']}", run)


def hostile_suites() -> list[dict[str, Any]]:
    return [json.loads(line) for line in (CORPUS / "suites.jsonl").read_text().splitlines()]


# -- faulty servers, run end to end through the command line ---------------------------------


@contextlib.contextmanager
def workdir(folder: Path, **env: str) -> Iterator[Path]:
    """Run in ``folder`` with its own store and the given environment; restore after."""
    saved_env = dict(os.environ)
    saved_cwd = Path.cwd()
    os.environ.update({"FAILPROOF_HOME": str(folder / "home"), **env})
    os.environ["FAILPROOF_RUN__BACKOFF_BASE_S"] = "0"
    os.environ.pop("OPENAI_BASE_URL", None)
    os.chdir(folder)
    forget_secrets()
    try:
        yield folder
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        forget_secrets()


def _written(folder: Path) -> str:
    return "\n".join(
        p.read_bytes().decode("utf-8", "replace") for p in folder.rglob("*") if p.is_file()
    )


def _suite_file(folder: Path) -> str:
    path = folder / "s.json"
    cases = [
        {"id": "c0", "input": "first", "expect": {"must_contain": ["ok"]}},
        {"id": "c1", "input": "second", "expect": {"must_contain": ["ok"]}},
    ]
    path.write_text(json.dumps({"suite": "s", "cases": cases}), encoding="utf-8")
    return str(path)


def server_attempt(
    name: str, handler: Any, codes: set[int], extra: tuple[str, ...] = (), **env: str
) -> Attempt:
    def run(folder: Path) -> None:
        import io
        from contextlib import redirect_stderr, redirect_stdout

        out, err = io.StringIO(), io.StringIO()
        with (
            workdir(folder, OPENAI_API_KEY=KEY, **env),
            HostileServer({"/v1/chat/completions": handler}) as server,
        ):
            args = ["run", _suite_file(folder), "-t", "openai:m", "--base-url", server.base_url]
            args += ["-f", "all", "--retries", "1", "--max-consecutive-failures", "2", *extra]
            with redirect_stdout(out), redirect_stderr(err):
                code = guarded(lambda: main(args))
        printed = out.getvalue() + err.getvalue()
        check(code in codes, f"exit {code}, expected {sorted(codes)}: {err.getvalue()[-300:]}")
        check(KEY not in _written(folder) + printed, "the API key was written or printed")
        for control in RAW_CONTROLS:
            check(control not in printed, f"printed {control!r}")
        check("Traceback" not in printed, "printed a traceback")
        check("unexpected error" not in printed, "an unexpected error")

    return Attempt(f"server/{name}", run)


def _echo_key(status: int) -> Any:
    async def handler(request: web.Request) -> web.StreamResponse:
        auth = request.headers.get("Authorization", "")
        body = {"error": {"message": f"bad key {auth} \x1b]0;t\x07[link=http://x]y[/link]"}}
        return web.json_response(body, status=status)

    return handler


def _redirect(status: int) -> Any:
    async def handler(request: web.Request) -> web.StreamResponse:
        return web.Response(status=status, headers={"Location": "http://127.0.0.1:9/steal"})

    return handler


#: A good answer's body, without its closing brace (attempts add fields, then close it).
OK_BODY = '{"choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}}]'


def server_attempts() -> list[Attempt]:
    wait = {"FAILPROOF_RUN__MAX_WAIT_S": "0.05"}
    attempts = [
        server_attempt("echo-key-200", _echo_key(200), {1, 3}),
        server_attempt("echo-key-401", _echo_key(401), {3}),
        server_attempt("echo-key-500", _echo_key(500), {3}),
        server_attempt("surrogate-body", raw(200, OK_BODY + ', "x": "\\ud800"}'), {0}),
        server_attempt(
            "surrogate-content",
            raw(200, OK_BODY.replace('"ok"', '"ok \\udc00"') + "}"),
            {0},
        ),
        server_attempt("not-json", raw(200, "<html>\x1b[2J</html>"), {3}),
        server_attempt("empty-body", raw(200, ""), {3}),
        server_attempt("no-choices", raw(200, '{"choices": []}'), {3}),
        server_attempt("choices-not-list", raw(200, '{"choices": "x"}'), {3}),
        server_attempt("content-object", answer_with({"a": 1}), {3}),
        server_attempt("huge-int-content", raw(200, OK_BODY + ', "n": ' + "9" * 5000 + "}"), {0}),
        server_attempt("deep-json", raw(200, "[" * 100000 + "]" * 100000), {3}),
        server_attempt("huge-body", raw(200, b"x" * (17 << 20)), {3}),
    ]
    for usage in ('"12"', "-5", "1e400", "9" * 5000, "[1]", "100000000000000"):
        body = OK_BODY + f', "usage": {{"prompt_tokens": {usage}, "completion_tokens": 3}}}}'
        attempts.append(
            server_attempt(f"usage-{usage[:12]}", raw(200, body), {0}, ("--tpm", "1e6"))
        )
    for header in ("99999", "inf", "nan", "-1", "Fri, 31 Dec 9999 23:59:59 GMT", "garbage"):
        throttle = raw(429, '{"error": "slow"}', {"Retry-After": header})
        attempts.append(
            server_attempt(
                f"retry-after-{header[:12]}", sequence(throttle, answer_with("ok")), {0}, **wait
            )
        )
    for status in (301, 302, 303, 307, 308):
        attempts.append(server_attempt(f"redirect-{status}-elsewhere", _redirect(status), {3}))
    return attempts


# -- targets and report files ----------------------------------------------------------------


def cli_attempt(name: str, files: dict[str, str], args: list[str], codes: set[int]) -> Attempt:
    def run(folder: Path) -> None:
        import io
        from contextlib import redirect_stderr, redirect_stdout

        out, err = io.StringIO(), io.StringIO()
        with workdir(folder):
            for file_name, text in files.items():
                (folder / file_name).write_text(text, encoding="utf-8")
            with redirect_stdout(out), redirect_stderr(err):
                code = guarded(
                    lambda: main([a.replace("{suite}", _suite_file(folder)) for a in args])
                )
        printed = out.getvalue() + err.getvalue()
        check(code in codes, f"exit {code}, expected {sorted(codes)}: {err.getvalue()[-300:]}")
        check("unexpected error" not in printed and "Traceback" not in printed, printed[-300:])
        check(not Path("/tmp/failproof-corpus-escape").exists(), "wrote outside its folder")

    return Attempt(f"cli/{name}", run)


def _evil_report(run_id: str) -> str:
    return json.dumps({"report_type": "failproof_run", "run": {"id": run_id, "target": {}}})


PY_TARGETS = {
    "surrogate-return": "def f(m):\n    return 'ok' + chr(0xD800)\n",
    "set-return": "def f(m):\n    return {'k': {1, 2}}\n",
    "circular-return": "def f(m):\n    d = {}\n    d['d'] = d\n    return d\n",
    "bad-str-return": (
        "class X:\n    def __str__(self):\n        raise ValueError('no')\n\n"
        "def f(m):\n    return X()\n"
    ),
    "huge-return": "def f(m):\n    return 'ok' + 'a' * 3_000_000\n",
    "raises-exit": "def f(m):\n    raise SystemExit(0)\n",
    "async-raises-exit": "async def f(m):\n    raise SystemExit(0)\n",
    "bad-usage-response": (
        "from failproof.core import Response\n\n"
        "def f(m):\n    return Response(output='ok', prompt_tokens=-4, completion_tokens='x')\n"
    ),
    "import-raises": "raise RuntimeError('broken at import')\n",
}


def cli_attempts() -> list[Attempt]:
    attempts = []
    for name, code in PY_TARGETS.items():
        expected = {3} if name == "import-raises" else {1} if "exit" in name else {0, 1, 3}
        files = {f"t_{name.replace('-', '_')}.py": code}
        target = f"python:t_{name.replace('-', '_')}.py:f"
        attempts.append(
            cli_attempt(f"python-{name}", files, ["run", "{suite}", "-t", target, "-q"], expected)
        )
    for run_id in ("../../escape", "/tmp/failproof-corpus-escape", "..", "a/../../b", ""):
        files = {"evil.json": _evil_report(run_id)}
        attempts.append(
            cli_attempt(f"report-id-{run_id[:16]}", files, ["report", "evil.json"], {3})
        )
    for fmt in (",", "nosuch", "json,nosuch"):
        args = ["run", "{suite}", "-t", "mock", "-q", "-f", fmt]
        attempts.append(cli_attempt(f"format-{fmt}", {}, args, {3}))
    for url in ("notaurl", "http://[::1", "ftp://x/v1", "http://"):
        args = ["run", "{suite}", "-t", "openai:m", "--base-url", url, "-q"]
        attempts.append(cli_attempt(f"base-url-{url}", {}, args, {3}))
    exec_child = "exec:sh -c 'sleep 1000 & echo ok'"
    attempts.append(
        cli_attempt("exec-background-child", {}, ["run", "{suite}", "-t", exec_child, "-q"], {0})
    )
    return attempts


def _hung_run(folder: Path, *args: str) -> Any:
    import subprocess
    import sys

    (folder / "hung_bot.py").write_text(
        "import pathlib, threading\n\ndef f(m):\n    pathlib.Path('called').touch()\n"
        "    threading.Event().wait()\n",
        encoding="utf-8",
    )
    env = {**os.environ, "FAILPROOF_HOME": str(folder / "home")}
    command = [sys.executable, "-m", "failproof", "run", _suite_file(folder)]
    command += ["-t", "python:hung_bot.py:f", "-q", "-f", "json", *args]
    return subprocess.Popen(
        command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def _finished(process: Any, what: str) -> None:
    """Wait for ``process`` within the guard; one still running then is killed and mishandled."""
    import subprocess

    try:
        process.communicate(timeout=GUARD_S)
    except subprocess.TimeoutExpired:
        raise Mishandled(what) from None
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def hung_attempts() -> list[Attempt]:
    def timeouts(folder: Path) -> None:
        process = _hung_run(folder, "--timeout", "0.2", "--retries", "0")
        _finished(process, "a hung python: target kept failproof from exiting")
        check(process.returncode == 1, f"exit {process.returncode}")
        check(any(folder.glob("failproof-results/*/report.json")), "no report")

    def sigterm(folder: Path) -> None:
        import signal
        import time

        process = _hung_run(folder, "--timeout", "1000")
        deadline = time.monotonic() + GUARD_S
        while not (folder / "called").exists() and process.poll() is None:
            if time.monotonic() > deadline:  # the run never reached its hung call
                break
            time.sleep(0.02)
        process.send_signal(signal.SIGTERM)
        _finished(process, "SIGTERM did not stop a run stuck in a hung call")
        check(process.returncode in (130, 143), f"exit {process.returncode}")

    return [
        Attempt("target/python-hung-timeouts", timeouts),
        Attempt("target/python-hung-sigterm", sigterm),
    ]


def attempts() -> list[Attempt]:
    """The whole corpus."""
    found: list[Attempt] = []
    outputs = hostile_outputs()
    for name, output in outputs:
        found += [output_attempt(name, output, profile) for profile in PROFILES]
        found.append(rendered_attempt(name, output))
    found += [suite_attempt(row) for row in hostile_suites()]
    found += server_attempts()
    found += cli_attempts()
    found += hung_attempts()
    from tests.hostile.surfaces import surface_attempts

    found += surface_attempts()
    from tests.hostile.importer_corpus import importer_attempts  # it imports this module

    found += importer_attempts()
    return found
