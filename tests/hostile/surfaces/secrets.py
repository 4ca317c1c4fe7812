"""Secrets in other clothes: every form of every key, alone and end to end through each role."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from aiohttp import web
from tests.hostile.replay import Attempt, check, guarded, workdir
from tests.hostile.servers import HostileServer, completion_body
from tests.hostile.surfaces._clothes import CLOTHES, dressed, leaked

from failproof.cli import main
from failproof.guard import add_secret, forget_secrets, redact

#: Keys of the shapes providers hand out (none is real).
KEYS = {
    "openai-project": "sk-proj-Zq7vN1xK0pLm3R8sT2uW9yB4cD6eF5gH1jK0lM7nP3qR",
    "punctuated": "tok_8f+3/Qz=&x<y>'1\"",
    "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjb3JwdXMifQ.c2lnbmF0dXJlLWNvcnB1cy0xMjM0",
    "short-hex": "9f86d081884c7d65",
}


def form_attempt(key_name: str, form_name: str) -> Attempt:
    def run(folder: Path) -> None:
        key = KEYS[key_name]
        forget_secrets()
        add_secret(key)
        try:
            form = CLOTHES[form_name](key)
            text = guarded(lambda: redact(f"leak <{form}> here"))
        finally:
            forget_secrets()
        check(leaked(key, text) == [], f"still carries {leaked(key, text)}: {text[:120]!r}")

    return Attempt(f"secret/form/{key_name}/{form_name}", run)


def _echo(request: web.Request, key: str, name: str) -> str:
    return CLOTHES[name](key) if any(key in v for v in request.headers.values()) else "no key"


def _server(role: str, key: str, name: str) -> Any:
    async def handler(request: web.Request) -> web.StreamResponse:
        said = f"here it is: {_echo(request, key, name)}"
        if role == "http-header":
            return web.json_response({"data": {"answer": said}})
        if role == "target-401":
            return web.json_response({"error": {"message": said}}, status=401)
        return web.Response(body=completion_body(said), content_type="application/json")

    return handler


def _argv(role: str, suite: str, url: str) -> list[str]:
    if role == "http-header":
        return ["run", suite, "-t", f"http:{url}/app", "-H", "X-Key=${CORPUS_KEY}",
                "--json-path", "data.answer"]  # fmt: skip
    if role == "judge":
        return ["run", suite, "-t", "mock", "--judge", "openai:j", "--judge-base-url",
                f"{url}/v1", "--judge-api-key-env", "CORPUS_KEY"]  # fmt: skip
    return ["run", suite, "-t", "openai:m", "--base-url", f"{url}/v1", "--api-key-env",
            "CORPUS_KEY", "--retries", "0"]  # fmt: skip


def role_attempt(role: str, key_name: str, form_name: str) -> Attempt:
    def run(folder: Path) -> None:
        key = KEYS[key_name]
        out, err = io.StringIO(), io.StringIO()
        routes = {"/v1/chat/completions": _server(role, key, form_name)}
        routes["/app"] = _server(role, key, form_name)
        with workdir(folder, CORPUS_KEY=key), HostileServer(routes) as server:
            suite = folder / "s.json"
            case = {"id": "c", "input": "x", "expect": {"must_contain": ["zz"]}}
            suite.write_text(json.dumps({"suite": "s", "cases": [case]}), encoding="utf-8")
            argv = [*_argv(role, str(suite), server.url()), "-f", "all", "-v"]
            with redirect_stdout(out), redirect_stderr(err):
                guarded(lambda: main(argv))
            check(bool(server.requests), "the server was never called")
        written = "\n".join(
            p.read_bytes().decode("utf-8", "replace") for p in folder.rglob("*") if p.is_file()
        )
        found = leaked(key, written + out.getvalue() + err.getvalue())
        check(found == [], f"{role} leaked the key as {found}")

    return Attempt(f"secret/{role}/{key_name}/{form_name}", run)


def attempts() -> list[Attempt]:
    found = [form_attempt(k, f) for k in KEYS for f in CLOTHES]
    roles = ("target-answer", "target-401", "http-header", "judge")
    picks = ("base64-bearer", "hex-upper", "reversed", "split-lines", "json-u-escapes",
             "fullwidth", "minus-last", "percent-each")  # fmt: skip
    for index, form in enumerate(picks):
        for offset, role in enumerate(roles):
            key_name = list(KEYS)[(index + offset) % len(KEYS)]
            found.append(role_attempt(role, key_name, form))
    return found


def everything(key: str) -> dict[str, str]:
    """Every form of ``key`` (for a reader of this corpus)."""
    return dressed(key)
