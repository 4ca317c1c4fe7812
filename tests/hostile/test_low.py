"""The Low items: each a small hole, each closed for its whole class."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from tests.hostile.conftest import read_report, write_responses, write_suite

from failproof.cli import main
from failproof.core import Case, Response
from failproof.core._response import MAX_OUTPUT_CHARS
from failproof.errors import ConfigError, SuiteError
from failproof.guard import _files as files
from failproof.guard import atomic_write_text
from failproof.safe import load_safe_config
from failproof.suites import parse_suite


@pytest.mark.parametrize(
    ("source", "value"),
    [
        pytest.param("file", "Infinity", id="file-Infinity"),
        pytest.param("file", "NaN", id="file-NaN"),
        pytest.param("file", "1e999", id="file-1e999"),
        pytest.param("env", "inf", id="env-inf"),
    ],
)
def test_a_safe_weight_that_is_not_finite_is_refused(
    tmp_path: Path, source: str, value: str
) -> None:
    path = tmp_path / "safe.config.json"
    path.write_text('{"weights": {"CR": %s}}' % (value if source == "file" else "1"))
    environ = {"SAFE_V0_CR_WEIGHT": value} if source == "env" else {}
    with pytest.raises(ConfigError):
        load_safe_config(config_file=path, environ=environ, cwd=tmp_path)


def test_duplicate_keys_in_safe_config_are_refused_naming_the_key(tmp_path: Path) -> None:
    path = tmp_path / "safe.config.json"
    path.write_text('{"weights": {"CR": 1, "CR": 0}}')
    with pytest.raises(ConfigError, match="'CR' appears twice"):
        load_safe_config(config_file=path, environ={}, cwd=tmp_path)


@pytest.mark.parametrize(
    "phrase",
    [
        pytest.param("", id="empty"),
        pytest.param("   ", id="spaces"),
        pytest.param("\u200b\u200d", id="zero-width"),
        pytest.param("\n\t", id="newline-tab"),
        pytest.param("\x0b\x0c\x1c\x1d\x1e\x1f\r", id="every-other-ascii-space"),
        pytest.param(" \u00ad\u3000", id="soft-hyphen-ideographic-space"),
    ],
)
@pytest.mark.parametrize("rule", ["must_contain", "must_contain_any", "must_not_contain"])
def test_a_blank_phrase_is_refused_where_it_is_written(phrase: str, rule: str) -> None:
    text = json.dumps(
        {"suite": "s", "cases": [{"id": "c", "input": "x", "expect": {rule: [phrase]}}]}
    )
    with pytest.raises(SuiteError, match=f"expect.{rule}.*is blank"):
        parse_suite(text, path="s.json")


@pytest.mark.parametrize("formats", [",", " ", "json,nosuch", "htm"])
def test_a_format_that_names_nothing_is_an_error(
    workdir: Path, formats: str, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x"}])
    recorded = write_responses(workdir, [{"case_id": "c", "output": "y"}])
    assert main(["run", suite, "-t", f"replay:{recorded}", "-q", "-f", formats]) == 3
    assert "report format" in capsys.readouterr().err


def test_an_unknown_format_in_the_settings_is_an_error(
    workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAILPROOF_REPORT__FORMATS", '["nosuch"]')
    suite = write_suite(workdir, [{"id": "c", "input": "x"}])
    recorded = write_responses(workdir, [{"case_id": "c", "output": "y"}])
    assert main(["run", suite, "-t", f"replay:{recorded}", "-q"]) == 3


def test_an_output_past_the_cap_is_cut_keeping_its_size() -> None:
    response = Response.from_output("a" * (MAX_OUTPUT_CHARS + 5))
    assert len(response.output) == MAX_OUTPUT_CHARS
    assert response.repairs is not None
    assert response.repairs.original_chars == MAX_OUTPUT_CHARS + 5


def test_a_huge_output_is_stored_cut_with_its_size(workdir: Path) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x", "expect": {"must_contain": ["b"]}}])
    recorded = write_responses(workdir, [{"case_id": "c", "output": "b" * (MAX_OUTPUT_CHARS + 9)}])
    assert main(["run", suite, "-t", f"replay:{recorded}", "-q", "-f", "json"]) == 1
    (result,) = read_report(workdir)["results"]
    assert len(result["output"]) == MAX_OUTPUT_CHARS
    assert result["repairs"]["original_chars"] == MAX_OUTPUT_CHARS + 9
    assert result["classification"]["primary"] == "error"  # checked only in part: never a pass


@pytest.mark.parametrize(
    ("args", "named"),
    [
        pytest.param(["-f", "json,html", "-o", "taken"], "taken", id="output-is-a-file"),
        pytest.param(["-t", "python:boom_mod.py:f"], "boom_mod.py", id="module-raises"),
    ],
)
def test_errors_name_the_file_they_are_about(
    workdir: Path, capsys: pytest.CaptureFixture[str], args: list[str], named: str
) -> None:
    (workdir / "taken").write_text("a file where a folder should go")
    (workdir / "boom_mod.py").write_text("raise RuntimeError('broken module')\n")
    suite = write_suite(workdir, [{"id": "c", "input": "x"}])
    recorded = write_responses(workdir, [{"case_id": "c", "output": "y"}])
    target = [] if "-t" in args else ["-t", f"replay:{recorded}"]
    assert main(["run", suite, *target, "-q", *args]) == 3
    err = capsys.readouterr().err
    assert named in err
    assert "unexpected error" not in err


def test_a_report_write_that_dies_midway_leaves_the_previous_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "report.json"
    atomic_write_text(path, '{"good": true}')

    def killed(fd: int) -> None:
        raise KeyboardInterrupt  # the process dies after writing part of the new file

    monkeypatch.setattr(files.os, "fsync", killed)
    with pytest.raises(KeyboardInterrupt):
        atomic_write_text(path, '{"new": "half of it')
    assert path.read_text() == '{"good": true}'
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary file left


def test_reports_keep_the_permissions_of_an_ordinary_file(tmp_path: Path) -> None:
    path = tmp_path / "report.md"
    atomic_write_text(path, "x")
    assert os.stat(path).st_mode & 0o777 == 0o644


def test_case_phrases_that_are_words_still_load() -> None:
    case = Case.model_validate(
        {"id": "c", "suite": "s", "input": "x", "expect": {"must_contain": [" ok "]}}
    )
    assert case.expect is not None and case.expect.must_contain == [" ok "]
