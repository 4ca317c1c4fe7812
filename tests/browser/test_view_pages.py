"""``failproof view`` in a real browser, served in-process: the same checks as the report."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.browser.conftest import open_page, screenshot
from tests.view.conftest import RUN_A, RUN_B, RUN_HOSTILE

from failproof.config import Settings
from failproof.view import ViewServer, make_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(settings: Settings) -> Iterator[ViewServer]:
    with make_server(settings, port=0, quiet=True).start() as running:
        yield running


def _open(browser: Any, server: ViewServer, path: str) -> tuple[Any, Any]:
    return open_page(browser, server.url.rstrip("/") + path, allowed=(server.url,))


def test_the_run_list_links_to_reports_and_comparisons(browser: Any, server: ViewServer) -> None:
    page, guard = _open(browser, server, "/")
    rows = page.locator("#runs tbody tr")
    assert rows.count() == 3
    screenshot(page, "view-runs")
    page.click(f"a[href='/runs/{RUN_A}']")
    page.wait_for_load_state("load")
    assert page.text_content("#run-id") == RUN_A
    assert page.locator("#case-rows tr").count() > 0
    page.go_back()
    page.select_option("#a", RUN_A)
    page.select_option("#b", RUN_B)
    page.click(".compare-form button")
    page.wait_for_load_state("load")
    assert page.locator("#suite-deltas tbody tr").count() == 3
    screenshot(page, "view-compare", full_page=True)
    guard.assert_clean(page)
    page.context.close()


def test_a_flipped_case_opens_in_its_run(browser: Any, server: ViewServer) -> None:
    page, guard = _open(browser, server, f"/compare?a={RUN_A}&b={RUN_B}")
    link = page.locator("#regressions a.case-link, #fixes a.case-link").first
    case_id = link.text_content()
    link.click()
    page.locator("#case-dialog").wait_for(state="visible")
    assert page.text_content("#case-title") == case_id
    guard.assert_clean(page)
    page.context.close()


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("/", id="run-list"),
        pytest.param(f"/runs/{RUN_HOSTILE}", id="report"),
        pytest.param(f"/compare?a={RUN_A}&b={RUN_HOSTILE}", id="comparison"),
        pytest.param("/runs/<script>alert(1)</script>", id="error-page"),
    ],
)
def test_hostile_runs_stay_inert_in_every_page(browser: Any, server: ViewServer, path: str) -> None:
    page, guard = _open(browser, server, path)
    if path.startswith("/runs/2"):
        page.fill("#q", "script")
        page.evaluate("location.hash = 'case-1'")
        page.locator("#case-dialog").wait_for(state="visible")
        screenshot(page, "view-hostile-report")
    # the error page is itself a 404, which the browser logs
    guard.assert_clean(page, expected="status of 404" if "alert" in path else None)
    assert page.locator("iframe, img, object, embed").count() == 0
    page.context.close()
