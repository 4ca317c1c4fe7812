"""The console summary: headline, suites, top failures; model output never drives a terminal."""

from __future__ import annotations

from tests.report.synthetic import make_report

from failproof.core import Classification
from failproof.render._console import plain
from failproof.report import Report
from failproof.report._console import ConsoleRenderer


def test_headline_suites_and_top_failures(report: Report) -> None:
    text = ConsoleRenderer(color=False).render(report)
    assert report.run.id in text
    assert f"{report.summary.overall_run_score:.1%}" in text
    assert "top failures" in text
    for suite in report.suites:
        assert suite in text


def test_no_escape_codes_without_colour(report: Report) -> None:
    assert "\x1b" not in ConsoleRenderer(color=False).render(report)


def test_colour_when_asked(report: Report) -> None:
    assert "\x1b[" in ConsoleRenderer(color=True).render(report)


def test_model_text_is_neither_markup_nor_terminal_control() -> None:
    report = make_report(3, outputs=["[b]fake[/b] \x1b]0;title\x07 \x1b[2J"] * 3)
    results = [
        r.model_copy(
            update={
                "case_id": "[red]x[/red]",
                "error": None,
                "classification": Classification(primary="fail"),
            }
        )
        for r in report.results
    ]
    text = ConsoleRenderer(color=True).render(report.model_copy(update={"results": results}))
    assert "[red]x[/red]" in text
    assert "[b]fake[/b] \\x1b]0;title\\x07 \\x1b[2J" in text
    assert "\x1b]" not in text and "\x1b[2J" not in text


def test_plain_shows_control_characters_as_escapes() -> None:
    assert plain("a\x1bb\u202ec\x00").plain == "a\\x1bb\\u202ec\\x00"
