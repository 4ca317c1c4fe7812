"""High 6: a secret failproof was given never reaches anything it writes or prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from aiohttp import web
from tests.hostile.conftest import every_file_text, read_report, write_suite
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


PARAM_KEY = "sk-param-secret-999888777"


def _store_text(folder: Path) -> str:
    import sqlite3

    texts = []
    for db in folder.rglob("*.db"):
        with sqlite3.connect(db) as con:
            tables = [
                t for (t,) in con.execute("select name from sqlite_master where type='table'")
            ]
            texts += [repr(row) for t in tables for row in con.execute(f"select * from {t}")]
    return "\n".join(texts)


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("${PARAM_KEY}", id="as-an-env-reference"),
        pytest.param(PARAM_KEY, id="as-the-shell-expanded-value"),
    ],
)
def test_a_secret_param_from_the_environment_is_in_no_record_report_or_output(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    monkeypatch.setenv("PARAM_KEY", PARAM_KEY)
    suite = write_suite(workdir, [{"id": "c", "input": "x", "expect": {"must_contain": ["zzqq"]}}])
    with HostileServer({"/v1/chat/completions": echo_everything}) as server:
        args = ["-t", "openai:m", "--base-url", server.base_url, "--param", f"api_key={value}"]
        code = main(["run", suite, *args, "-f", "all"])
        sent = json.loads(server.requests[0]["body"])
    assert code == 1
    assert sent["api_key"] == PARAM_KEY  # the target got the value
    report = read_report(workdir)
    assert report["run"]["config"]["target_options"]["params"] == {"api_key": "${PARAM_KEY}"}
    out = capsys.readouterr()
    assert PARAM_KEY not in every_file_text(workdir) + _store_text(workdir) + out.out + out.err


@pytest.mark.parametrize(
    "param",
    [
        pytest.param("api_key=sk-param-secret-999888777", id="api-key"),
        pytest.param("auth_token=tok-literal-112233", id="auth-token"),
        pytest.param("client_secret=literal-secret-445566", id="client-secret"),
    ],
)
def test_a_secret_param_given_literally_is_refused_before_anything_is_sent_or_stored(
    workdir: Path, capsys: pytest.CaptureFixture[str], param: str
) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x"}])
    with HostileServer({"/v1/chat/completions": echo_everything}) as server:
        args = ["-t", "litellm:openai/m", "--base-url", server.base_url, "--param", param]
        code = main(["run", suite, *args, "-f", "all"])
        assert server.requests == []
    err = capsys.readouterr().err
    assert code == 3
    assert "carries a literal value; secrets must come from the environment" in err
    literal = param.split("=", 1)[1]
    assert literal not in every_file_text(workdir) + _store_text(workdir) + err
