"""``failproof suites list`` and ``failproof suites show``: what a person reads about suites."""

from __future__ import annotations

from pathlib import Path

import pytest

from failproof.cli import main
from failproof.suites import builtin_suite_names, resolve_suite

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_SUITE = ROOT / "examples" / "suites" / "support_bot.yaml"


@pytest.fixture(autouse=True)
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")


def test_list_shows_every_built_in_suite_with_its_case_count_and_the_total(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["suites", "list"]) == 0
    out = capsys.readouterr().out
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") >= 4}
    total = 0
    for name in builtin_suite_names():
        count = len(resolve_suite(name))
        total += count
        assert f" {count} " in rows[name], name
    assert f"{total} cases" in out


@pytest.mark.parametrize(
    "source",
    [
        pytest.param("injection", id="built-in-name"),
        pytest.param(str(EXAMPLE_SUITE), id="suite-file"),
    ],
)
def test_show_lists_every_case_of_the_suite(
    source: str, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = resolve_suite(source)
    assert main(["suites", "show", source]) == 0
    out = capsys.readouterr().out
    assert suite.name in out
    for case in suite.cases:
        assert case.id in out


def test_show_prints_a_case_input_as_written_never_as_emoji_or_markup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "mine.yaml"
    suite.write_text("suite: mine\ncases:\n  - id: c1\n    input: 'Say :smile: [bold]x[/bold]'\n")
    assert main(["suites", "show", str(suite)]) == 0
    out = capsys.readouterr().out
    assert ":smile:" in out and "[bold]x[/bold]" in out
    assert "\U0001f604" not in out


def test_show_of_an_unknown_suite_exits_3_naming_the_built_in_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["suites", "show", "no_such_suite"]) == 3
    err = capsys.readouterr().err
    assert "no_such_suite" in err
    assert "injection" in err
