"""Scans over 127.0.0.1 HTTP: streamable HTTP and SSE, with headers from the environment."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from failproof.cli import main
from failproof.mcp import McpScan


@pytest.mark.parametrize(
    "transport",
    [pytest.param("streamable-http", id="streamable-http"), pytest.param("sse", id="sse")],
)
def test_an_http_server_is_scanned_like_a_stdio_one(
    workdir: Path,
    http_notes: Callable[[str], str],
    monkeypatch: pytest.MonkeyPatch,
    transport: str,
) -> None:
    url = http_notes(transport)
    monkeypatch.setenv("NOTES_TOKEN", "s3cret-notes-token-value")
    args = ["mcp", "scan", url, "--header", "Authorization=Bearer ${NOTES_TOKEN}", "-f", "json"]
    code = main([*args, "-o", str(workdir / "r.json")])
    text = (workdir / "r.json").read_text("utf-8")
    result = McpScan.model_validate_json(text)
    assert code == 1
    assert result.servers[0].transport == ("sse" if transport == "sse" else "http")
    assert {f.item for f in result.findings} == {"add_note"}
    assert "s3cret-notes-token-value" not in text


def test_a_missing_header_variable_is_a_configuration_error(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["mcp", "scan", "http://127.0.0.1:9/mcp", "--header", "X-Key=${NOT_SET_ANYWHERE}"]
    assert main(args) == 3
    assert "NOT_SET_ANYWHERE is not set" in capsys.readouterr().err


def test_a_url_with_a_password_is_refused(workdir: Path) -> None:
    assert main(["mcp", "scan", "http://user:pw@127.0.0.1:9/mcp"]) == 3
