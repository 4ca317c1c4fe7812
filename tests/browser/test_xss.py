"""Hostile model output in the HTML report: shown as text, never run, never fetching anything."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import open_page, screenshot
from tests.report.hostile import PAYLOADS, hostile_report

from failproof.report import HtmlRenderer, Report

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def hostile() -> Report:
    return hostile_report()


@pytest.fixture
def loaded(browser: Any, hostile: Report, tmp_path: Path) -> Iterator[tuple[Any, Any]]:
    path = tmp_path / "report.html"
    path.write_text(HtmlRenderer().render(hostile), encoding="utf-8")
    page, guard = open_page(browser, path.as_uri(), allowed=(path.as_uri(),))
    yield page, guard
    page.context.close()


def test_the_guard_catches_what_it_must(browser: Any, tmp_path: Path) -> None:
    """The checks below can fail: a page that misbehaves is caught by each of them."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        '<img src="https://evil.example/p.gif"><script>window.__pwned = 1; alert(1); '
        "console.error('boom')</script>",
        encoding="utf-8",
    )
    page, guard = open_page(browser, bad.as_uri(), allowed=(bad.as_uri(),))
    with pytest.raises(AssertionError):
        guard.assert_clean(page)
    assert guard.dialogs == ["1"]
    assert guard.requests == ["https://evil.example/p.gif"]
    assert "boom" in guard.errors
    page.context.close()


def test_hostile_outputs_run_nothing_and_load_nothing(loaded: tuple[Any, Any]) -> None:
    page, guard = loaded
    page.fill("#q", "script")
    page.click("#reset")
    page.locator("#geometry").scroll_into_view_if_needed()
    for i in range(len(PAYLOADS)):
        page.hover(f"#scatter circle[data-i='{i}']")
    guard.assert_clean(page)
    assert page.evaluate("getComputedStyle(document.body).display") != "none"
    assert page.locator("iframe, img, link[rel=stylesheet], object, embed").count() == 0


def test_each_payload_is_shown_as_its_exact_text(loaded: tuple[Any, Any], hostile: Report) -> None:
    page, guard = loaded
    for i, payload in enumerate(PAYLOADS):
        page.evaluate(f"location.hash = 'case-{i}'")
        page.locator("#case-dialog").wait_for(state="visible")
        assert page.text_content("#case-title") == hostile.results[i].case_id
        outputs = page.locator("#case-body pre.text")
        assert outputs.first.text_content() == payload
        if i == 6:
            screenshot(page, "report-xss-case")
        page.click("#case-close")
    guard.assert_clean(page)


def test_hostile_text_in_the_table_and_header_is_text(loaded: tuple[Any, Any]) -> None:
    page, guard = loaded
    assert page.text_content("#run-id") == "20260115-103000-abc123"
    assert "<script>window.__pwned = 10</script>" in page.text_content(".meta")
    first_id = page.text_content("#case-rows tr[data-i='0'] td.id")
    assert "<img src=x onerror=window.__pwned=9>" in first_id
    page.locator("#cases").scroll_into_view_if_needed()
    screenshot(page, "report-xss-table")
    guard.assert_clean(page)
