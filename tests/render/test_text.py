"""Outside text is made safe once per format, and every report uses that one function."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.attack.test_report import two_strategies
from tests.safe.factories import record_data, write_batch

from failproof.attack._html import attack_html
from failproof.attack._markdown import attack_markdown
from failproof.attack._report import build_attack_report
from failproof.config import SafeConfig
from failproof.render._console import plain
from failproof.render._text import excerpt, html_text, md_code, md_text, xml_text
from failproof.safe._api import score_concern
from failproof.safe._console import console_text
from failproof.safe._markdown import render_markdown

HOSTILE = "x|<b>*y*</b> @all \x1b[31m`tick`"


@pytest.mark.parametrize(
    ("text", "limit", "expected"),
    [
        pytest.param("a\n\n  b", 120, "a b", id="whitespace-collapsed"),
        pytest.param("\x1b[31mred", 120, "\\x1b[31mred", id="escape-shown"),
        pytest.param("abcdef", 4, "abc…", id="cut-with-ellipsis"),
        pytest.param("a" * 500, None, "a" * 500, id="never-cut"),
        pytest.param(None, 10, "", id="none-is-empty"),
    ],
)
def test_excerpt(text: object, limit: int | None, expected: str) -> None:
    assert excerpt(text, limit) == expected


@pytest.mark.parametrize(
    ("write", "expected"),
    [
        pytest.param(
            md_text,
            "x\\|\\<b\\>\\*y\\*\\</b\\> @\u200ball \\\\x1b\\[31m\\`tick\\`",
            id="markdown",
        ),
        pytest.param(md_code, "`` x\\|<b>*y*</b> @all \\x1b[31m`tick` ``", id="markdown-code"),
        pytest.param(
            html_text, "x|&lt;b&gt;*y*&lt;/b&gt; @all \\x1b[31m`tick`", id="html-character-data"
        ),
        pytest.param(xml_text, "x|<b>*y*</b> @all \\u001b[31m`tick`", id="xml-forbidden-chars"),
    ],
)
def test_each_format_has_one_escape(write: object, expected: str) -> None:
    assert callable(write)
    assert write(HOSTILE) == expected


def test_plain_is_never_markup_and_shows_controls() -> None:
    shown = plain("[bold]x[/bold]\x07", 80)
    assert shown.plain == "[bold]x[/bold]\\x07"
    assert not shown.spans


def test_attack_and_safe_reports_escape_as_the_run_report_does(tmp_path: Path) -> None:
    """The same outside text reads the same in every report's Markdown: one escaping."""
    write_batch(tmp_path / "C", "b.json", [record_data(test_id=HOSTILE)])
    safe = render_markdown(score_concern("C", "*", SafeConfig(), data_dir=tmp_path))
    assert md_text(HOSTILE, None) in safe
    attack = attack_markdown(build_attack_report(two_strategies()))
    assert "<script>" not in attack.replace(md_code("<script>alert(1)</script> | **x**", 200), "")
    assert "&lt;script&gt;" in attack_html(build_attack_report(two_strategies()))


def test_the_attack_page_holds_no_control_character(tmp_path: Path) -> None:
    """A terminal that prints the page runs none of the model's escape sequences."""
    said = "\x1b]0;owned\x07 \x9b2J"
    steps = [s.model_copy(update={"output": said}) for s in two_strategies()[1][1]]
    page = attack_html(build_attack_report([(two_strategies()[1][0], steps)]))
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", page)
    assert "\\x1b]0;owned\\x07 \\x9b2J" in page


def test_the_safe_scorecard_shows_control_characters_as_escapes(tmp_path: Path) -> None:
    write_batch(tmp_path / "C", "b.json", [record_data(test_id="id\x1b]0;owned\x07")])
    text = console_text(score_concern("C", "*", SafeConfig(), data_dir=tmp_path))
    assert "\x1b" not in text and "\x07" not in text
    assert "id\\x1b]0;owned\\x07" in text
