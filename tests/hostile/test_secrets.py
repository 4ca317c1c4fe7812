"""High 6: a secret failproof was given never reaches anything it writes or prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from aiohttp import web
from tests.hostile.conftest import every_file_text, write_suite
from tests.hostile.servers import HostileServer

from failproof.cli import main
from failproof.guard import add_secret, redact
from failproof.guard._secrets import redact_data

KEY = "sk-hostile-0123456789abcdef"
HEADER_TOKEN = "tok-header-fedcba9876"
QUERY_TOKEN = "qs-token-5566778899"


async def echo_everything(request: web.Request) -> web.StreamResponse:
    """A 200 whose body repeats every secret the request carried, in the error and the answer."""
    seen = json.dumps({"headers": dict(request.headers), "url": str(request.url)})
    body = {
        "error": {"message": f"echo {seen}"},
        "data": {"answer": f"here: {seen}"},
        "choices": [],
    }
    return web.json_response(body)


def test_the_key_echoed_in_a_200_error_is_in_no_file_and_no_output(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOSTILE_KEY", KEY)
    suite = write_suite(workdir, [{"id": "c", "input": "x", "expect": {"must_contain": ["zzqq"]}}])
    with HostileServer({"/v1/chat/completions": echo_everything}) as server:
        args = ["-t", "openai:m", "--base-url", server.base_url, "--api-key-env", "HOSTILE_KEY"]
        code = main(["run", suite, *args, "-f", "all", "-v"])
    assert code == 1
    out = capsys.readouterr()
    written = every_file_text(workdir)
    assert "[redacted]" in written
    assert KEY not in written + out.out + out.err


def test_header_and_query_secrets_are_in_no_file_and_no_output(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("HOSTILE_TOKEN", HEADER_TOKEN)
    suite = write_suite(workdir, [{"id": "c", "input": "x", "expect": {"must_contain": ["zzqq"]}}])
    with HostileServer({"/app": echo_everything}) as server:
        url = server.url(f"/app?token={QUERY_TOKEN}")
        args = ["-t", f"http:{url}", "-H", "Authorization=Bearer ${HOSTILE_TOKEN}"]
        code = main(["run", suite, *args, "--json-path", "data.answer", "-f", "all"])
    assert code == 1
    out = capsys.readouterr()
    everything = every_file_text(workdir) + out.out + out.err
    assert HEADER_TOKEN not in everything
    assert QUERY_TOKEN not in everything


@pytest.mark.parametrize(
    "form",
    [
        pytest.param('sk-a+b/c=d&e<f>"g', id="raw"),
        pytest.param(json.dumps('sk-a+b/c=d&e<f>"g')[1:-1], id="json-escaped"),
        pytest.param("sk-a%2Bb%2Fc%3Dd%26e%3Cf%3E%22g", id="url-encoded"),
        pytest.param("sk-a+b/c=d&amp;e&lt;f&gt;&quot;g", id="html-escaped"),
    ],
)
def test_a_secret_is_redacted_in_every_form_it_is_written_in(form: str) -> None:
    add_secret('sk-a+b/c=d&e<f>"g')
    assert redact(f"before {form} after") == "before [redacted] after"
    assert redact_data({form: [form]}) == {"[redacted]": ["[redacted]"]}


def test_short_values_are_not_secrets() -> None:
    add_secret("abc")
    assert redact("abc abc") == "abc abc"
