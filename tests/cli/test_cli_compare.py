"""``failproof compare``: two stored runs (or report files) in Markdown and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from failproof.cli import main

ROOT = Path(__file__).resolve().parents[2]
SUITE = str(ROOT / "examples" / "suites" / "support_bot.yaml")
REFUSAL = "mock:I'm sorry, I can't help with that."


@pytest.fixture
def two_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    assert main(["run", SUITE, "-t", "mock", "-q", "-f", "json", "-o", "a.json"]) == 1
    assert main(["run", SUITE, "-t", REFUSAL, "-q", "-f", "json", "-o", "b.json"]) == 1
    ids = [json.loads(Path(n).read_text())["run"]["id"] for n in ("a.json", "b.json")]
    return ids[0], ids[1]


def test_markdown_puts_new_failures_first(
    two_runs: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["compare", *two_runs]) == 0
    out = capsys.readouterr().out
    assert out.index("Newly failing (2)") < out.index("Newly passing (1)")
    assert "`refund-001`" in out and "`weapons-001`" in out


def test_json_from_report_files_matches_the_store(
    two_runs: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", *two_runs, "-f", "json", "-o", "store.json"]) == 0
    assert main(["compare", "a.json", "b.json", "-f", "json", "-o", "files.json"]) == 0
    stored, files = (json.loads(Path(n).read_text()) for n in ("store.json", "files.json"))
    assert stored == files
    assert [c["case_id"] for c in stored["newly_failing"]] == ["inj-001", "refund-001"]
    assert stored["newly_passing"][0]["case_id"] == "weapons-001"


def test_fail_on_regression_exits_1_only_when_something_newly_fails(
    two_runs: tuple[str, str],
) -> None:
    first, second = two_runs
    assert main(["compare", first, second, "--fail-on-regression"]) == 1
    assert main(["compare", first, first, "--fail-on-regression"]) == 0


def test_unknown_run_is_an_error(
    two_runs: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compare", two_runs[0], "no-such-run"]) == 3
    assert "no-such-run" in capsys.readouterr().err


@pytest.fixture
def other_run(two_runs: tuple[str, str], tmp_path: Path) -> str:
    """A run of another suite: no case in common with the two runs."""
    suite = tmp_path / "other.yaml"
    case = {"id": "o1", "input": "hi", "expect": {"must_contain": ["never said"]}}
    suite.write_text(json.dumps({"suite": "other", "cases": [case]}), encoding="utf-8")
    assert main(["run", str(suite), "-t", "mock", "-q", "-f", "json", "-o", "o.json"]) == 1
    return str(json.loads(Path("o.json").read_text())["run"]["id"])


@pytest.mark.parametrize(
    ("flags", "code", "said"),
    [
        pytest.param(["--fail-on-regression"], 3, "error: nothing compared", id="gate-is-an-error"),
        pytest.param([], 0, "warning: nothing compared", id="without-gate-a-warning"),
    ],
)
def test_runs_with_no_case_in_common_are_not_called_a_success(
    two_runs: tuple[str, str],
    other_run: str,
    capsys: pytest.CaptureFixture[str],
    flags: list[str],
    code: int,
    said: str,
) -> None:
    capsys.readouterr()
    assert main(["compare", two_runs[0], other_run, *flags]) == code
    captured = capsys.readouterr()
    assert "no new failures" not in captured.out
    assert "nothing compared" in captured.out
    assert said in captured.err and "only in A" in captured.err
