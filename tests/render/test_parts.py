"""The shared parts: interval notations, the table writers, a path to a break."""

from __future__ import annotations

import pytest

from failproof.render._numbers import Notation, Value, interval_text
from failproof.render._path import PathStep, ToolStep, path_html, path_markdown
from failproof.render._table import html_table, md_table


@pytest.mark.parametrize(
    ("notation", "expected"),
    [
        pytest.param(Notation(".1f", after="%", scale=100), "78.1–91.2%", id="run-report-rate"),
        pytest.param(Notation(".2f", ", ", " [", "]"), " [0.78, 0.91]", id="attack"),
        pytest.param(Notation(".0%", " - ", missing="-"), "78% - 91%", id="safe-markdown"),
        pytest.param(Notation("+.3f", ", ", "[", "]"), "[+0.781, +0.912]", id="safe-compare"),
    ],
)
def test_each_report_writes_bounds_in_its_notation(notation: Notation, expected: str) -> None:
    assert notation.text(0.7812, 0.9123) == expected


def test_missing_bounds_read_as_the_notation_says() -> None:
    assert Notation(missing="-").text(None, 0.5) == "-"
    assert interval_text(Value(0.5), "pct") == ""
    assert interval_text(Value(0.5, 0.4, 0.6), "pct") == "40.0–60.0%"


def test_markdown_table_aligns_numbers_right() -> None:
    lines = md_table(["name", "n"], [["a", "1"]], [False, True])
    assert lines == ["| name | n |", "| --- | ---: |", "| a | 1 |"]


def test_html_table_escapes_every_cell() -> None:
    page = html_table(["<h>"], [["<script>x</script>"], [3]], [True])
    assert "<script>" not in page and "&lt;h&gt;" in page
    assert "<td class='num'>3</td>" in page


STEPS = [
    PathStep(round=0, attacker=False, output="no", note="plain", messages=(("user", "hi"),)),
    PathStep(round=1, attacker=True, output="<b>try</b>"),
    PathStep(
        round=1,
        attacker=False,
        output="`ok` <img src=x>",
        note="rephrased",
        messages=(("system", "sys"), ("user", "a"), ("assistant", "b"), ("user", "<i>c</i>")),
        tools=(ToolStep(0, "lookup", '{"q": "<x>"}', "found"),),
        broke=True,
    ),
]


def test_a_path_in_markdown_is_one_item_per_step_with_outside_text_in_code() -> None:
    lines = path_markdown(STEPS)
    assert len(lines) == 3
    assert lines[1] == "- round 1, attacker wrote: `<b>try</b>`"
    assert "(turn 2 of the conversation)" in lines[2] and lines[2].endswith("verdict **broke**")
    assert "sent `<i>c</i>`" in lines[2]


def test_a_path_in_html_escapes_the_conversation_and_skips_the_system_prompt() -> None:
    page = path_html(STEPS)
    assert "<img" not in page and "<i>" not in page and "&lt;b&gt;try" in page
    assert "sys" not in page
    assert "tool call · step 1" in page and "lookup({&quot;q&quot;: &quot;&lt;x&gt;&quot;})" in page
    assert page.count("class='step broke'") == 1
