"""What ``failproof view`` answers: the run list, reports, downloads, comparisons, errors."""

from __future__ import annotations

import json

import pytest
from tests.report.page import parse
from tests.view.conftest import RUN_A, RUN_B, RUN_HOSTILE

from failproof.config import Settings
from failproof.report import Report
from failproof.view._app import ViewApp
from failproof.view._reader import ReadOnlyStore


@pytest.fixture(scope="module")
def app(settings: Settings) -> ViewApp:
    return ViewApp(ReadOnlyStore(settings.db_path), settings)


def test_the_run_list_links_every_run_with_its_score(app: ViewApp, runs: dict[str, Report]) -> None:
    reply = app.handle("/")
    assert reply.status == 200 and reply.content_type.startswith("text/html")
    page = parse(reply.body.decode())
    hrefs = {a.get("href") for t, a in page.tags if t == "a"}
    assert {f"/runs/{run_id}" for run_id in runs} <= hrefs
    assert f"/compare?a={RUN_A}&b={RUN_B}" in hrefs
    score = f"{runs[RUN_A].summary.overall_run_score:.1%}"
    assert score in reply.body.decode()


def test_a_run_page_is_its_html_report(app: ViewApp) -> None:
    reply = app.handle(f"/runs/{RUN_A}")
    page = parse(reply.body.decode())
    assert reply.status == 200
    assert page.data()["cases"]
    assert ("a", {"class": "nav-link", "href": "/"}) in page.tags
    assert reply.headers["Content-Security-Policy"].startswith(page.csp)
    assert reply.headers["Content-Security-Policy"].endswith("frame-ancestors 'none'")


@pytest.mark.parametrize(
    ("name", "check"),
    [
        pytest.param("report.json", lambda t: json.loads(t)["run"]["id"] == RUN_A, id="json"),
        pytest.param("report.md", lambda t: t.startswith("## failproof run"), id="markdown"),
        pytest.param("junit.xml", lambda t: "<testsuites" in t, id="junit"),
    ],
)
def test_downloads_are_plain_text_in_a_sandbox(app: ViewApp, name: str, check) -> None:
    reply = app.handle(f"/runs/{RUN_A}/{name}")
    assert reply.content_type == "text/plain; charset=utf-8"
    assert "sandbox" in reply.headers["Content-Security-Policy"]
    assert check(reply.body.decode())


def test_the_comparison_page(app: ViewApp) -> None:
    reply = app.handle(f"/compare?a={RUN_A}&b={RUN_B}")
    text = reply.body.decode()
    assert reply.status == 200
    ids = {a.get("id") for _, a in parse(text).tags}
    assert {"deltas", "suite-deltas", "regressions", "fixes", "changed"} <= ids
    assert f'href="/runs/{RUN_B}#case-' in text


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("/runs/unknown-run", id="unknown-run"),
        pytest.param("/runs/..%2F..%2Fetc", id="path-tricks"),
        pytest.param(f"/runs/{RUN_A}/secrets.txt", id="unknown-download"),
        pytest.param("/compare?a=nope&b=" + RUN_A, id="compare-unknown"),
        pytest.param("/favicon.ico", id="unknown-page"),
    ],
)
def test_unknown_things_are_404(app: ViewApp, path: str) -> None:
    reply = app.handle(path)
    assert reply.status == 404
    assert "<script" not in reply.body.decode()


def test_error_pages_escape_what_they_repeat(app: ViewApp) -> None:
    reply = app.handle("/runs/<script>alert(1)</script>")
    assert reply.status == 404 and b"<script>alert" not in reply.body


def test_hostile_run_pages_stay_inert(app: ViewApp) -> None:
    for path in ("/", f"/runs/{RUN_HOSTILE}", f"/compare?a={RUN_A}&b={RUN_HOSTILE}"):
        text = app.handle(path).body.decode()
        assert "<script>window.__pwned" not in text
        assert "<img src=x onerror" not in text


def test_reports_are_built_once_while_the_run_is_unchanged(app: ViewApp) -> None:
    assert app.report(RUN_A) is app.report(RUN_A)
