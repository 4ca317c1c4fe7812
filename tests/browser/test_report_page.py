"""The HTML report in a real browser: headline numbers, search, filters, sorting, the scatter."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import expect, open_page, screenshot
from tests.report.synthetic import make_report

from failproof.report import HtmlRenderer, Report
from failproof.report._json import JsonRenderer

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    report = make_report(120)
    folder = tmp_path_factory.mktemp("report")
    (folder / "report.html").write_text(HtmlRenderer().render(report), encoding="utf-8")
    (folder / "report.json").write_text(JsonRenderer().render(report), encoding="utf-8")
    return folder / "report.html", json.loads((folder / "report.json").read_text())


@pytest.fixture
def page(browser: Any, written: tuple[Path, dict[str, Any]]) -> Iterator[Any]:
    url = written[0].as_uri()
    page, guard = open_page(browser, url, allowed=(url,))
    yield page
    guard.assert_clean(page)
    page.context.close()


def _rows(page: Any) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#case-rows tr[data-i]", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )


def test_headline_numbers_equal_the_json_report(page: Any, written: tuple) -> None:
    data = written[1]
    shown = page.eval_on_selector_all(
        ".stat[data-key]",
        "cards => Object.fromEntries(cards.map(c => [c.dataset.key, "
        "[c.dataset.value, c.querySelector('.stat-value').textContent]]))",
    )
    summary, composite = data["summary"], data["aggregate_metrics"]["composite"]
    for key in ("overall_run_score", "weighted_run_score"):
        assert float(shown[key][0]) == summary[key]
        assert shown[key][1] == f"{summary[key]:.1%}"
    assert float(shown["pass_rate"][0]) == summary["pass_rate"]
    risk_gate = float(shown["risk_gate_pass_rate"][0])
    assert risk_gate == data["aggregate_metrics"]["overall"]["pass_rate"]
    assert shown["resilience_index"][1] == f"{composite['resilience_index']:.2f}"
    assert shown["total_cases"][1] == f"{len(data['results']):,}"
    screenshot(page, "report-overview")


def test_search_and_filters_change_the_table(page: Any, written: tuple) -> None:
    results = written[1]["results"]
    assert page.text_content("#showing") == f"1–50 of {len(results)}"
    target = results[17]["case_id"]
    page.fill("#q", target)
    ids = [row[0] for row in _rows(page)]
    assert ids[0] == target
    assert all(i == target or i.endswith("variant") for i in ids)  # its generated variants
    page.click("#reset")
    page.select_option("#f-cls", "fail")
    fails = [r for r in results if r["classification"]["primary"] == "fail"]
    assert page.text_content("#showing").endswith(f"of {len(fails)} (filtered from {len(results)})")
    assert {row[4] for row in _rows(page)} == {"fail"}
    page.select_option("#f-suite", "injection")
    expected = sum(r["suite"] == "injection" for r in fails)
    assert len(_rows(page)) == expected
    page.locator("#cases").scroll_into_view_if_needed()
    screenshot(page, "report-cases-filtered")
    page.click("#reset")
    assert page.text_content("#showing") == f"1–50 of {len(results)}"


def test_sorting_and_paging(page: Any, written: tuple) -> None:
    results = written[1]["results"]
    page.click("#case-table th[data-sort=risk]")
    top = max(r["case_score"]["risk_score"] for r in results)
    assert float(_rows(page)[0][5]) == pytest.approx(top, abs=0.005)
    page.select_option("#page-size", "25")
    page.click("#next")
    assert page.text_content("#showing") == f"26–50 of {len(results)}"


def test_hovering_a_point_shows_its_case_and_a_click_opens_it(page: Any, written: tuple) -> None:
    results = written[1]["results"]
    page.locator("#geometry").scroll_into_view_if_needed()
    point = page.locator("#scatter circle[data-i='7']")
    point.hover()
    tip = page.locator("#tip")
    expect(tip).to_be_visible()
    assert results[7]["case_id"] in tip.text_content()
    assert results[7]["category"] in tip.text_content()
    screenshot(page, "report-geometry-hover")
    point.click()
    expect(page.locator("#case-dialog")).to_be_visible()  # opened through the hash: a task later
    expect(page.locator("#case-title")).to_have_text(results[7]["case_id"])
    assert page.locator("#case-body pre.text").first.text_content() == results[7]["output"]


def test_colour_by_switches_the_legend(page: Any, written: tuple) -> None:
    page.select_option("#color-by", "cls")
    legend = page.text_content("#scatter-legend")
    assert "pass" in legend and "cluster" not in legend


def test_the_case_view_shows_what_was_sent_and_why(page: Any, written: tuple) -> None:
    results = written[1]["results"]
    index = next(
        i for i, r in enumerate(results) if r["safe_v0"] and r["classification"]["reasons"]
    )
    page.goto(page.url.split("#")[0] + f"#case-{index}")
    body = page.locator("#case-body")
    body.wait_for()
    text = body.text_content()
    assert results[index]["classification"]["reasons"][0]["rule"] in text
    assert results[index]["messages"][0]["content"] in text
    assert "SAFE v0" in text
    screenshot(page, "report-case")
    page.click("#case-next")
    expect(page.locator("#case-title")).not_to_have_text(results[index]["case_id"])
    page.keyboard.press("Escape")
    expect(page.locator("#case-dialog")).to_be_hidden()


@pytest.mark.slow
def test_ten_thousand_cases_stay_usable(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "big.html"
    path.write_text(HtmlRenderer().render(make_report(10_000)), encoding="utf-8")
    page, guard = open_page(browser, path.as_uri(), allowed=(path.as_uri(),))
    assert page.text_content("#showing") == "1–50 of 10,000"
    assert len(_rows(page)) == 50
    page.fill("#q", "inj-0042")
    assert len(_rows(page)) >= 1
    guard.assert_clean(page)
    page.context.close()


def test_the_page_prints(page: Any, tmp_path: Path) -> None:
    page.emulate_media(media="print")
    assert not page.locator("#q").is_visible()
    assert page.locator("#headline").is_visible()
    page.emulate_media(media="screen")


def test_a_report_without_optional_sections(browser: Any, tmp_path: Path) -> None:
    full = make_report(8)
    bare = Report(run=full.run, summary=full.summary, suites=full.suites, results=full.results)
    path = tmp_path / "bare.html"
    path.write_text(HtmlRenderer().render(bare), encoding="utf-8")
    page, guard = open_page(browser, path.as_uri(), allowed=(path.as_uri(),))
    assert page.text_content("#showing") == "1–8 of 8"
    assert page.locator("#geometry").count() == 0
    guard.assert_clean(page)
    page.context.close()


def test_the_case_view_shows_the_request_body_a_target_built(browser: Any, tmp_path: Path) -> None:
    report = make_report(3)
    body = '{"question": "only the input went out"}'
    first = report.results[0].model_copy(update={"request_body": body, "messages": []})
    report = report.model_copy(update={"results": [first, *report.results[1:]]})
    path = tmp_path / "sent.html"
    path.write_text(HtmlRenderer().render(report), encoding="utf-8")
    page, guard = open_page(browser, path.as_uri() + "#case-0", allowed=(path.as_uri(),))
    page.locator("#case-body").wait_for()
    text = page.text_content("#case-body")
    assert "Request body sent" in text and body in text
    assert "Messages sent" not in text
    guard.assert_clean(page)
    page.context.close()


def test_the_case_view_says_who_decided_and_why(browser: Any, tmp_path: Path) -> None:
    report = make_report(3)
    first = report.results[0]
    assert first.classification is not None
    decided = first.classification.model_copy(
        update={"decided_by": "judge", "decided_why": "the judge settles the meaning: a rebuttal"}
    )
    report = report.model_copy(
        update={
            "results": [first.model_copy(update={"classification": decided}), *report.results[1:]]
        }
    )
    path = tmp_path / "decided.html"
    path.write_text(HtmlRenderer().render(report), encoding="utf-8")
    page, guard = open_page(browser, path.as_uri() + "#case-0", allowed=(path.as_uri(),))
    page.locator("#case-body").wait_for()
    assert "decided by" in page.text_content("#case-chips")
    assert "judge" in page.text_content("#case-chips")
    text = page.text_content("#case-body")
    assert "Decided by judge" in text and "the judge settles the meaning: a rebuttal" in text
    guard.assert_clean(page)
    page.context.close()
