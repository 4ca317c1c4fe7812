"""High 5: a key failproof was given is redacted in every form a leak takes, on every write and
print, whoever it was given for (target, header template, attacker, judge)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from tests.attack.scripted import REFUSE
from tests.attack.scripted import write_suite as scripted_suite
from tests.hostile.conftest import every_file_text, write_suite
from tests.hostile.servers import HostileServer, completion_body
from tests.hostile.surfaces._clothes import CLOTHES, dressed, leaked

from failproof.cli import main
from failproof.guard import add_secret, redact

TARGET_KEY = "sk-target-Key-0123456789abcdef"
HEADER_KEY = "app-Header-Token-fedcba98765"
ATTACKER_KEY = "sk-attacker-Key-5566778899aa"
JUDGE_KEY = "sk-judge-Key-aabbccddeeff0011"
KEYS = (TARGET_KEY, HEADER_KEY, ATTACKER_KEY, JUDGE_KEY)


@pytest.mark.parametrize("name", list(CLOTHES), ids=list(CLOTHES))
def test_every_form_of_a_key_is_redacted(name: str) -> None:
    add_secret(TARGET_KEY)
    form = CLOTHES[name](TARGET_KEY)
    text = redact(f"said: {form} (end)")
    assert leaked(TARGET_KEY, text) == []
    assert "[redacted]" in text


def test_ordinary_text_is_left_alone() -> None:
    add_secret(TARGET_KEY)
    text = "sk-target keys, 0123456789 and abcdef; the target KEY is secret"
    assert redact(text) == text


def _every_form(request: web.Request) -> str:
    """Every form of every key the request carried, one per line."""
    carried = [k for k in KEYS if any(k in v for v in request.headers.values())]
    return "\n".join(f"{name}: {form}" for k in carried for name, form in dressed(k).items())


async def echo_forms(request: web.Request) -> web.StreamResponse:
    body = json.loads(await request.read() or b"{}")
    text = _every_form(request)
    if body.get("model") == "attacker":
        text = f"<prompt>Please. {text}</prompt>"
    elif body.get("model") == "target":  # refuses, so that the attacker is asked
        text = REFUSE
    return web.Response(body=completion_body(text), content_type="application/json")


async def app_forms(request: web.Request) -> web.StreamResponse:
    return web.json_response({"data": {"answer": _every_form(request)}})


async def refuse_forms(request: web.Request) -> web.StreamResponse:
    auth = request.headers.get("Authorization", "").encode()
    body = {"error": {"message": f"bad credentials {base64.b64encode(auth).decode()}"}}
    body["error"]["detail"] = _every_form(request)
    return web.json_response(body, status=401)


def _nothing_leaked(folder: Path, printed: str) -> None:
    everything = every_file_text(folder) + printed
    found = {key: leaked(key, everything) for key in KEYS}
    assert found == {key: [] for key in KEYS}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out + out.err


def _suite(folder: Path) -> str:
    return write_suite(folder, [{"id": "c", "input": "x", "expect": {"must_contain": ["zz"]}}])


@pytest.mark.parametrize("handler", [echo_forms, refuse_forms], ids=["answer", "401-body"])
def test_the_target_key_in_any_form_is_in_no_file_and_no_output(
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    handler: Any,
) -> None:
    monkeypatch.setenv("TARGET_KEY", TARGET_KEY)
    with HostileServer({"/v1/chat/completions": handler}) as server:
        argv = ["run", _suite(workdir), "-t", "openai:m", "--base-url", server.base_url]
        argv += ["--api-key-env", "TARGET_KEY", "-f", "all", "-v", "--retries", "0"]
        code, printed = _run(argv, capsys)
    assert code in (1, 3)
    _nothing_leaked(workdir, printed)


def test_a_header_template_key_in_any_form_is_in_no_file_and_no_output(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("APP_KEY", HEADER_KEY)
    with HostileServer({"/app": app_forms}) as server:
        argv = ["run", _suite(workdir), "-t", f"http:{server.url('/app')}"]
        argv += ["-H", "X-App-Key=${APP_KEY}", "--json-path", "data.answer", "-f", "all", "-v"]
        code, printed = _run(argv, capsys)
    assert code == 1
    assert "[redacted]" in printed + every_file_text(workdir)
    _nothing_leaked(workdir, printed)


def test_the_attacker_and_target_keys_in_any_form_are_in_no_file_and_no_output(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TARGET_KEY", TARGET_KEY)
    monkeypatch.setenv("ATTACKER_KEY", ATTACKER_KEY)
    suite = str(scripted_suite(workdir))
    with HostileServer({"/v1/chat/completions": echo_forms}) as server:
        argv = ["attack", suite, "-t", "openai:target", "-a", "openai:attacker"]
        argv += ["--base-url", server.base_url, "--attacker-base-url", server.base_url]
        argv += ["--api-key-env", "TARGET_KEY", "--attacker-api-key-env", "ATTACKER_KEY"]
        argv += ["--strategy", "iterative", "-o", str(workdir / "out")]
        _code, printed = _run(argv, capsys)
    assert any(ATTACKER_KEY in json.dumps(r["headers"]) for r in server.requests)
    _nothing_leaked(workdir, printed)


def test_the_judge_key_in_any_form_is_in_no_file_and_no_output(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("JUDGE_KEY", JUDGE_KEY)
    with HostileServer({"/v1/chat/completions": echo_forms}) as server:
        argv = ["run", _suite(workdir), "-t", "mock", "--judge", "openai:judge"]
        argv += ["--judge-base-url", server.base_url, "--judge-api-key-env", "JUDGE_KEY"]
        argv += ["-f", "all", "-v"]
        _code, printed = _run(argv, capsys)
    assert any(JUDGE_KEY in json.dumps(r["headers"]) for r in server.requests)
    _nothing_leaked(workdir, printed)
