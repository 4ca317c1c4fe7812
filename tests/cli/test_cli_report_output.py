"""``--format`` and ``--output``: checked before any call, a folder or a file as DESIGN says, and
``-f console -o FILE`` writes the console report to the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.fakes.openai_server import FakeOpenAI
from tests.runner.helpers import numbered_cases, write_suite

from failproof.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_SUITE = ROOT / "examples" / "suites" / "support_bot.yaml"
EXAMPLE_RESPONSES = ROOT / "examples" / "support_bot_responses.jsonl"


def run_args(workdir: Path, fake: FakeOpenAI, *more: str) -> list[str]:
    suite = write_suite(workdir / "s.yaml", "s", numbered_cases(3))
    return ["run", str(suite), "--target", "openai:m", "--base-url", fake.base_url, "-q", *more]


@pytest.fixture
def existing(workdir: Path) -> Path:
    """An existing file ``taken.yaml`` and an existing folder ``outdir`` in the working folder."""
    (workdir / "taken.yaml").write_text("suite: x\n")
    (workdir / "outdir").mkdir()
    return workdir


@pytest.mark.parametrize(
    ("given", "message"),
    [
        pytest.param(["-f", "nonsense"], "unknown report format 'nonsense'", id="unknown-format"),
        pytest.param(
            ["-f", "json,html", "-o", "taken.yaml"],
            "--output taken.yaml is a file, and with 2 formats (json, html) it names a folder",
            id="several-formats-into-a-file",
        ),
        pytest.param(
            ["-f", "json", "-o", "taken.yaml/report.json"],
            "cannot write taken.yaml/report.json: taken.yaml is a file, not a folder",
            id="a-file-under-a-file",
        ),
        pytest.param(
            ["-f", "console", "-o", "outdir"],
            "--output outdir is a folder, and -f console writes one text file",
            id="console-into-a-folder",
        ),
        pytest.param(
            ["--strategy", "iterative", "--attacker", "mock", "-o", "taken.yaml"],
            "cannot write taken.yaml: taken.yaml is a file, not a folder",
            id="attack-report-folder-is-a-file",
        ),
    ],
)
def test_reports_that_cannot_be_written_stop_the_run_before_any_call(
    given: list[str],
    message: str,
    fake_openai: FakeOpenAI,
    existing: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(run_args(existing, fake_openai, *given)) == 3
    err = capsys.readouterr().err
    assert message in err
    assert ".tmp" not in err
    assert fake_openai.total == 0


def test_one_format_into_an_existing_folder_is_written_under_its_usual_name(
    fake_openai: FakeOpenAI, existing: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(run_args(existing, fake_openai, "-f", "json", "-o", "outdir")) == 0
    report = json.loads((existing / "outdir" / "report.json").read_text())
    assert report["summary"]["total_cases"] == 3
    assert "wrote outdir/report.json" in capsys.readouterr().err


def scored_run(workdir: Path) -> str:
    out = workdir / "scored.json"
    main(["score", str(EXAMPLE_RESPONSES), "-s", str(EXAMPLE_SUITE), "-f", "json", "-o", str(out)])
    run_id: str = json.loads(out.read_text())["run"]["id"]
    return run_id


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(["report", "RUN"], id="report"),
        pytest.param(["score", str(EXAMPLE_RESPONSES), "-s", str(EXAMPLE_SUITE)], id="score"),
    ],
)
def test_console_with_output_writes_its_plain_text_to_the_file(
    command: list[str], workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [scored_run(workdir) if a == "RUN" else a for a in command]
    capsys.readouterr()
    main([*args, "-f", "console", "-o", "console.txt"])
    captured = capsys.readouterr()
    text = (workdir / "console.txt").read_text()
    assert text.startswith("failproof ") and "\x1b" not in text
    assert "wrote console.txt" in captured.err
    assert captured.out == ""
