"""``failproof report``: a stored run or a JSON report, rendered again in any format."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from failproof.cli import main
from failproof.report import Report
from failproof.report._json import JsonRenderer
from failproof.store import Store


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))


@pytest.fixture
def report_file(tmp_path: Path, report: Report) -> Path:
    path = tmp_path / "report.json"
    path.write_text(JsonRenderer().render(report), encoding="utf-8")
    return path


@pytest.fixture
def stored_run(tmp_path: Path, report: Report) -> str:
    with Store(tmp_path / "home" / "failproof.db") as store:
        store.create_run(report.run)
        for result in report.results:
            store.add_result(report.run.id, result)
    return report.run.id


@pytest.mark.parametrize(
    ("fmt", "check"),
    [
        pytest.param("html", lambda text: text.startswith("<!doctype html>"), id="html"),
        pytest.param("markdown", lambda text: text.startswith("## failproof run"), id="markdown"),
        pytest.param("junit", lambda text: ET.fromstring(text).tag == "testsuites", id="junit"),
        pytest.param(
            "json", lambda text: json.loads(text)["report_type"] == "failproof_run", id="json"
        ),
    ],
)
def test_a_json_report_in_each_format(report_file: Path, tmp_path: Path, fmt: str, check) -> None:
    out = tmp_path / f"out.{fmt}"
    assert main(["report", str(report_file), "--format", fmt, "-o", str(out)]) == 0
    assert check(out.read_text(encoding="utf-8"))


def test_a_stored_run_by_id(
    stored_run: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", stored_run, "--format", "html"]) == 0
    expected = tmp_path / "failproof-results" / stored_run / "report.html"
    assert expected.is_file()
    assert str(expected.relative_to(tmp_path)) in capsys.readouterr().err


def test_console_format_prints_the_summary(
    report_file: Path, report: Report, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(report_file), "--format", "console"]) == 0
    assert report.run.id in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        pytest.param("missing.json", "missing.json: no such report file", id="missing-file"),
        pytest.param("no-such-run", "no run 'no-such-run'", id="unknown-run"),
    ],
)
def test_bad_sources_exit_3_with_one_line(
    argument: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", argument, "--format", "html"]) == 3
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_json_file_that_is_not_a_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "other.json"
    bad.write_text('{"hello": 1}')
    assert main(["report", str(bad), "--format", "html"]) == 3
    assert "not a failproof JSON run report" in capsys.readouterr().err
