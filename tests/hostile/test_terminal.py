"""Medium 7: nothing from outside reaches the terminal (or report.md) as markup or escapes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.hostile.conftest import write_responses, write_suite
from tests.hostile.servers import HostileServer, raw

from failproof.cli import main

#: Retitles the terminal, clears it, plants a link, and would style text if read as markup.
PAYLOAD = (
    "\x1b]0;pwned\x07\x1b[2J\x1b]8;;http://evil.test\x07click\x1b]8;;\x07"
    " [link=http://evil.test]x[/link] [bold red]loud[/]\r\x9b"
)
RAW_CONTROLS = ("\x1b", "\x07", "\r", "\x9b")


def assert_inert(text: str) -> None:
    for control in RAW_CONTROLS:
        assert control not in text
    assert "[link=http://evil.test]x[/link]" in text  # shown as typed, not read as markup


def test_a_server_error_printed_when_a_run_aborts_is_inert(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x"}])
    body = json.dumps({"error": {"message": PAYLOAD}})
    with HostileServer({"/v1/chat/completions": raw(401, body)}) as server:
        args = ["-t", "openai:m", "--base-url", server.base_url, "--max-consecutive-failures", "1"]
        assert main(["run", suite, *args, "-q"]) == 3
    assert_inert(capsys.readouterr().err)


def test_suites_show_prints_case_text_inert(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": PAYLOAD}])
    assert main(["suites", "show", suite]) == 0
    out = capsys.readouterr().out
    for control in RAW_CONTROLS:
        assert control not in out
    assert "[link=http://evil.test]" in out


def test_a_validation_error_quoting_the_file_is_inert(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = workdir / "evil.yaml"
    path.write_text(
        "suite: s\ncases:\n  - id: c\n    input: x\n"
        '    "[link=http://evil.test]x[/link]\\e]0;t\\a": 1\n',
        encoding="utf-8",
    )
    assert main(["suites", "validate", str(path)]) == 3
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\x07" not in err
    assert "[link=http://evil.test]x[/link]" in err


def test_report_md_shows_control_characters_escaped(workdir: Path) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x", "expect": {"must_contain": ["y"]}}])
    recorded = write_responses(workdir, [{"case_id": "c", "output": PAYLOAD}])
    assert main(["run", suite, "-t", f"replay:{recorded}", "-q", "-f", "markdown,console"]) == 1
    (markdown,) = workdir.glob("failproof-results/*/report.md")
    text = markdown.read_text(encoding="utf-8")
    for control in RAW_CONTROLS:
        assert control not in text
    assert "\\x1b" in text
