"""The HTML report: one self-contained, locked-down file that shows every section it has."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from tests.report.hostile import PAYLOADS
from tests.report.page import ParsedPage, element_text, parse, sha256_source
from tests.report.synthetic import make_report

from failproof.render._numbers import human_size
from failproof.report import HtmlRenderer, Report
from failproof.report._html_data import case_payload

# every tag the report template writes; a payload that became markup would add another
TEMPLATE_TAGS = {
    "html",
    "head",
    "meta",
    "title",
    "link",
    "style",
    "body",
    "header",
    "div",
    "span",
    "h1",
    "h2",
    "h3",
    "dl",
    "dt",
    "dd",
    "nav",
    "a",
    "main",
    "section",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "svg",
    "rect",
    "ul",
    "li",
    "b",
    "p",
    "article",
    "label",
    "select",
    "option",
    "input",
    "button",
    "colgroup",
    "col",
    "noscript",
    "footer",
    "dialog",
    "script",
}


@pytest.fixture(scope="module")
def page_html(report: Report) -> str:
    return HtmlRenderer().render(report)


@pytest.fixture(scope="module")
def hostile_html(hostile: Report) -> str:
    return HtmlRenderer().render(hostile)


def test_the_policy_allows_only_the_page_own_hashed_script_and_style(page_html: str) -> None:
    page = parse(page_html)
    csp = page.csp
    assert "default-src 'none'" in csp
    assert "img-src data:" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    code = [text for attrs, text in page.scripts if attrs.get("type") != "application/json"]
    assert len(code) == 1
    assert f"script-src {sha256_source(code[0])};" in csp
    assert page.styles and all(sha256_source(s) in csp for s in page.styles)


@pytest.mark.parametrize("which", ["page_html", "hostile_html"])
def test_no_markup_comes_from_data(which: str, request: pytest.FixtureRequest) -> None:
    page: ParsedPage = parse(request.getfixturevalue(which))
    assert {tag for tag, _ in page.tags} <= TEMPLATE_TAGS
    for _tag, attrs in page.tags:
        assert not any(name.startswith("on") or name == "style" for name in attrs)
        for name in ("src", "href", "action"):
            value = attrs.get(name) or ""
            assert not re.match(r"\s*(https?:|//|javascript:)", value, re.I), (name, value)
    assert [a.get("href") for t, a in page.tags if t == "link"] == ["data:,"]


def test_hostile_data_cannot_close_its_script_element(hostile_html: str) -> None:
    data_text = next(t for a, t in parse(hostile_html).scripts if a.get("type"))
    assert "<" not in data_text and ">" not in data_text and "&" not in data_text
    assert "\u2028" not in data_text and "\u2029" not in data_text


def test_hostile_outputs_survive_intact_as_data(hostile: Report, hostile_html: str) -> None:
    strings = parse(hostile_html).data()["strings"]
    for payload in PAYLOADS:
        assert payload in strings


def test_server_rendered_hostile_text_is_escaped(hostile_html: str) -> None:
    assert "<script>window.__pwned = 10</script>" not in hostile_html
    assert html_lib.escape("<script>window.__pwned = 10</script>", quote=False) in hostile_html
    assert "<img src=x onerror" not in hostile_html


def test_embedded_data_is_the_case_payload(report: Report, page_html: str) -> None:
    assert parse(page_html).data() == case_payload(report)


def test_the_page_states_its_own_size(page_html: str) -> None:
    assert element_text(page_html, "file-size") == human_size(len(page_html.encode("utf-8")))


def test_every_section_with_data_is_shown(page_html: str) -> None:
    ids = {a.get("id") for _, a in parse(page_html).tags}
    for section in (
        "overview",
        "suites",
        "risk",
        "worst",
        "geometry",
        "safe",
        "ext-robustness",
        "cases",
        "case-dialog",
        "scatter",
    ):
        assert section in ids, section


def test_absent_sections_are_left_out(bare_report: Report) -> None:
    ids = {a.get("id") for _, a in parse(HtmlRenderer().render(bare_report)).tags}
    assert {"overview", "suites", "cases"} <= ids
    assert not ids & {"risk", "worst", "geometry", "safe", "ext-robustness"}


def test_headline_cards_carry_the_report_numbers(report: Report, page_html: str) -> None:
    cards = {
        a["data-key"]: a["data-value"]
        for t, a in parse(page_html).tags
        if t == "div" and a.get("data-key")
    }
    assert float(cards["overall_run_score"]) == report.summary.overall_run_score
    assert float(cards["weighted_run_score"]) == report.summary.weighted_run_score
    assert int(cards["total_cases"]) == len(report.results)


def test_links_are_drawn_in_the_header(report: Report) -> None:
    page = parse(HtmlRenderer(links=[("All runs", "/")]).render(report))
    assert ("a", {"class": "nav-link", "href": "/"}) in page.tags


def test_lone_surrogates_and_control_characters_still_give_valid_utf8() -> None:
    report = make_report(6, outputs=["bad \ud800 half", "\x00\x1b[2J"])
    text = HtmlRenderer().render(report)
    text.encode("utf-8")  # raises on a lone surrogate
    assert "bad \ud800 half" in parse(text).data()["strings"]


def test_rendering_is_deterministic(report: Report) -> None:
    assert HtmlRenderer().render(report) == HtmlRenderer().render(report)


@pytest.mark.slow
def test_ten_thousand_cases_stay_one_paginated_file() -> None:
    big = make_report(10_000)
    text = HtmlRenderer().render(big)
    size = len(text.encode("utf-8"))
    assert element_text(text, "file-size") == human_size(size)
    assert size < 8_000_000
    assert "<tr data-i" not in text  # rows are drawn a page at a time in the browser
    assert len(parse(text).data()["cases"]) == 10_000
