"""A report of more cases than one page: the page loads its cases one page file at a time."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser.conftest import expect, open_page
from tests.report.test_streamed import stored_run

from failproof.report import HtmlRenderer, build_report_streaming
from failproof.report._html_pages import PAGE_SIZE
from failproof.store import Store

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    folder = tmp_path_factory.mktemp("paged")
    db = stored_run(folder / "results.db", 2 * PAGE_SIZE + 300)
    with Store(db) as store:
        report = build_report_streaming(store, "r1")
        ids = [f"{r.case_id}" for r in store.results("r1")]
    HtmlRenderer().write(report, folder / "report.html")
    return folder / "report.html", ids


@pytest.fixture
def page(browser: Any, written: tuple[Path, list[str]]) -> Iterator[Any]:
    url = written[0].as_uri()
    page, guard = open_page(browser, url, allowed=(written[0].parent.as_uri(),))
    yield page
    guard.assert_clean(page)
    page.context.close()


def first_row_id(page: Any) -> Any:
    return page.locator("#case-rows tr[data-i] td.id").first


def test_the_first_page_is_shown_and_the_next_is_loaded_on_demand(
    page: Any, written: tuple
) -> None:
    ids = written[1]
    expect(page.locator("#page-no")).to_have_text("page 1 of 3")
    expect(first_row_id(page)).to_have_text(ids[0])
    assert page.locator("#case-rows tr[data-i]").count() == PAGE_SIZE
    page.click("#next")
    expect(page.locator("#page-no")).to_have_text("page 2 of 3")
    expect(first_row_id(page)).to_have_text(ids[PAGE_SIZE])
    expect(page.locator("#showing")).to_contain_text(f"{PAGE_SIZE + 1:,}–{2 * PAGE_SIZE:,} of")
    assert page.evaluate("document.querySelectorAll('script[src]').length") == 0


def test_a_case_on_another_page_opens_from_its_link(page: Any, written: tuple) -> None:
    ids = written[1]
    target = 2 * PAGE_SIZE + 17
    page.evaluate(f"location.hash = 'case-{target}'")
    expect(page.locator("#case-title")).to_have_text(ids[target])
    expect(page.locator("#page-no")).to_have_text("page 3 of 3")
    page.click("#case-prev")
    expect(page.locator("#case-title")).to_have_text(ids[target - 1])
