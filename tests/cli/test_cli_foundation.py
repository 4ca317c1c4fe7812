"""The command line: help, suites commands, score, runs, and exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from failproof import Report, exit_code
from failproof.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_SUITE = ROOT / "examples" / "suites" / "support_bot.yaml"
EXAMPLE_RESPONSES = ROOT / "examples" / "support_bot_responses.jsonl"


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))


def test_help_lists_commands_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for word in ("score", "suites", "runs", "Exit codes"):
        assert word in out


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        pytest.param(["--help"], "failproof[mcp]", id="commands-list-names-the-mcp-extra"),
        pytest.param(["mcp", "--help"], "failproof[mcp]", id="mcp-help-names-its-extra"),
        pytest.param(["run", "--help"], "failproof[ray]", id="run-help-names-the-ray-extra"),
    ],
)
def test_help_shows_the_extra_to_install_in_brackets(
    args: list[str], extra: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 0
    words = capsys.readouterr().out.replace("│", " ").split()  # the help as one wrapped line
    assert f"pip install '{extra}'" in " ".join(words)


def test_validate_good_file_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["suites", "validate", str(EXAMPLE_SUITE)]) == 0
    assert "ok:" in capsys.readouterr().out


def test_validate_bad_file_exits_3_with_location(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("suite: x\ncases:\n  - id: a\n    severity: urgent\n    input: hi\n")
    assert main(["suites", "validate", str(EXAMPLE_SUITE), str(bad)]) == 3
    err = capsys.readouterr().err
    assert "bad.yaml:4: case 'a': severity:" in err


def test_schema_is_json_schema_of_suite_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["suites", "schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["$schema"].endswith("2020-12/schema")
    assert set(schema["required"]) == {"suite", "cases"}


def test_usage_error_exits_3_not_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score"]) == 3
    assert "Missing argument" in capsys.readouterr().err


def test_unknown_suite_exits_3_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["score", str(EXAMPLE_RESPONSES), "--suite", "no_such_suite_here"])
    err = capsys.readouterr().err
    assert code == 3
    assert err.count("\n") == 1 and "no suite file or built-in suite named" in err
    assert "Traceback" not in err


def test_verbose_shows_the_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    main(["score", str(EXAMPLE_RESPONSES), "--suite", "no_such_suite_here", "--verbose"])
    assert "Traceback" in capsys.readouterr().err


def test_score_writes_reports_says_where_and_exits_by_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code = main(
        ["score", str(EXAMPLE_RESPONSES), "-s", str(EXAMPLE_SUITE), "-f", "json", "-o", str(out)]
    )
    assert f"wrote {out}" in capsys.readouterr().err
    report = Report.model_validate_json(out.read_text())
    assert code == exit_code(report)
    assert report.summary.total_cases == 4


def test_one_format_without_output_goes_into_the_run_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["score", str(EXAMPLE_RESPONSES), "-s", str(EXAMPLE_SUITE), "-f", "json"])
    (written,) = (tmp_path / "failproof-results").glob("*/report.json")
    run_id = json.loads(written.read_text())["run"]["id"]
    assert written.parent.name == run_id
    assert f"wrote {written.relative_to(tmp_path)}" in capsys.readouterr().err


def test_fail_under_gate_decides_the_exit_code(tmp_path: Path) -> None:
    args = ["score", str(EXAMPLE_RESPONSES), "-s", str(EXAMPLE_SUITE), "-f", "json"]
    code_at_0 = main([*args, "-o", str(tmp_path / "a.json"), "--fail-under", "0"])
    score = Report.model_validate_json((tmp_path / "a.json").read_text()).summary.overall_run_score
    # no score at all (nothing classified) can never meet a gate
    assert code_at_0 == (0 if score is not None else 1)
    expected = 0 if score is not None and score >= 1.0 else 1
    assert main([*args, "-o", str(tmp_path / "b.json"), "--fail-under", "1"]) == expected


def test_runs_list_shows_the_scored_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(
        [
            "score",
            str(EXAMPLE_RESPONSES),
            "-s",
            str(EXAMPLE_SUITE),
            "-f",
            "json",
            "-o",
            str(tmp_path / "r.json"),
        ]
    )
    run_id = json.loads((tmp_path / "r.json").read_text())["run"]["id"]
    capsys.readouterr()
    assert main(["runs", "list"]) == 0
    assert run_id[:12] in capsys.readouterr().out
    assert main(["runs", "show", run_id]) == 0
    assert run_id in capsys.readouterr().out
    assert main(["runs", "show", "nope"]) == 3


def test_unknown_format_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["score", str(EXAMPLE_RESPONSES), "-s", str(EXAMPLE_SUITE), "-f", "pdf"])
    assert code == 3
    assert "unknown report format 'pdf'" in capsys.readouterr().err


def test_installed_entry_point_runs(tmp_path: Path) -> None:
    env = {**os.environ, "FAILPROOF_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", "failproof", "suites", "validate", str(EXAMPLE_SUITE)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def _raising(error: BaseException) -> object:
    def app(**_: object) -> object:
        raise error

    return app


def test_a_stop_wrapped_by_a_task_group_is_an_interruption(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import failproof.cli as cli

    inner = BaseExceptionGroup("tasks", [KeyboardInterrupt()])
    failing = _raising(BaseExceptionGroup("outer", [inner]))
    monkeypatch.setattr(cli._commands, "application", lambda args: failing)
    assert main(["run"]) == 130
    err = capsys.readouterr().err
    assert "interrupted" in err
    assert "Traceback" not in err


def test_another_failure_in_a_task_group_is_unexpected_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import failproof.cli as cli

    failing = _raising(ExceptionGroup("tasks", [ValueError("boom")]))
    monkeypatch.setattr(cli._commands, "application", lambda args: failing)
    assert main(["run"]) == 3
    err = capsys.readouterr().err
    assert "unexpected error" in err
    assert "Traceback" not in err
