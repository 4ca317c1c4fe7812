"""The Markdown report: a pull-request comment that no model output can break or weaponise."""

from __future__ import annotations

import re

import pytest
from tests.report.synthetic import make_report

from failproof.render._text import md_code, md_text
from failproof.report import Report
from failproof.report._markdown import MAX_CHARS, MarkdownRenderer, truncate


@pytest.fixture(scope="module")
def markdown(report: Report) -> str:
    return MarkdownRenderer().render(report)


def test_headline_suites_worst_cases_and_failure_modes(report: Report, markdown: str) -> None:
    assert markdown.startswith(f"## failproof run `{report.run.id}`: ❌ FAIL")
    assert f"**{report.summary.overall_run_score:.1%}**" in markdown
    for heading in ("### Suites", "### Worst cases", "### Top failure modes", "### SAFE v0"):
        assert heading in markdown
    for suite in report.suites:
        assert f"| `{suite}` |" in markdown


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("a|b", "`a\\|b`", id="pipe-escaped-for-tables"),
        pytest.param("one\ntwo\r\nthree", "`one two three`", id="newlines-folded"),
        pytest.param("use `rm -rf` now", "``use `rm -rf` now``", id="backticks-get-a-longer-fence"),
        pytest.param("x\\|y", "`x\\\\\\|y`", id="a-backslash-cannot-unescape-a-pipe"),
        pytest.param("`x`", "`` `x` ``", id="padded-when-starting-with-a-tick"),
        pytest.param("", "", id="empty"),
    ],
)
def test_md_code(text: str, expected: str) -> None:
    assert md_code(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("<img src=x>", "\\<img src=x\\>", id="html-escaped"),
        pytest.param("a | b", "a \\| b", id="pipe"),
        pytest.param("**bold** _it_", "\\*\\*bold\\*\\* \\_it\\_", id="emphasis"),
        pytest.param("[x](y)", "\\[x\\](y)", id="links"),
        pytest.param("@everyone", "@\u200beveryone", id="mentions-defused"),
        pytest.param("&lt;", "&amp;lt;", id="entities-shown-as-written"),
    ],
)
def test_md_text(text: str, expected: str) -> None:
    assert md_text(text) == expected


def _cell_count(row: str) -> int:
    """Cells of a table row as GitHub splits them: on pipes not escaped by a backslash."""
    count, i = 0, 0
    while i < len(row):
        if row[i] == "\\":
            i += 2
            continue
        count += row[i] == "|"
        i += 1
    return count - 1


def test_hostile_outputs_stay_in_their_table_cell(hostile: Report) -> None:
    text = MarkdownRenderer().render(hostile)
    for block in text.split("\n\n"):
        rows = [line for line in block.splitlines() if line.startswith("| ")]
        assert len({_cell_count(row) for row in rows}) <= 1, block
    outside_code = re.sub(r"(`+).+?\1", "", text.rsplit("\n<sub>", 1)[0])
    assert not re.search(r"(?<!\\)[<>]", outside_code)


def test_long_reports_are_cut_with_a_notice() -> None:
    text = "line\n" * 20_000
    cut = truncate(text, 1000)
    assert len(cut) <= 1000
    assert "**Truncated** at 1,000 characters (100,000 in full)" in cut


def test_a_large_run_fits_in_a_pull_request_comment() -> None:
    long_outputs = ["word " * 400] * 400
    text = MarkdownRenderer().render(make_report(400, outputs=long_outputs))
    assert len(text) <= MAX_CHARS


def test_sections_without_data_are_left_out(bare_report: Report) -> None:
    text = MarkdownRenderer().render(bare_report)
    assert "### Suites" in text
    assert "### Worst cases" not in text and "### SAFE v0" not in text
