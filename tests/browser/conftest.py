"""Headless Chromium through Playwright, and a guard that records what a page tries to do.

The browser is Debian's ``chromium`` (this project never downloads one): ``/usr/bin/chromium``,
or the path in ``FAILPROOF_CHROMIUM``. Without it, or without the ``playwright`` package, every
test here is skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from tests.view.conftest import runs, settings  # noqa: F401  (fixtures shared with the view tests)

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
VIEWPORT = {"width": 1280, "height": 800}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    wanted = os.environ.get("FAILPROOF_CHROMIUM", "/usr/bin/chromium")
    return wanted if Path(wanted).is_file() else shutil.which(wanted)


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    sync_api = pytest.importorskip(
        "playwright.sync_api",
        reason="playwright is not installed: pip install 'failproof[browser]'",
    )
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium: install Debian's chromium, or set FAILPROOF_CHROMIUM to its path")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@dataclass
class Guard:
    """Everything a page did that a report must never do."""

    allowed: tuple[str, ...]
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def on_route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith("data:") or url.startswith(self.allowed):
            route.continue_()
            return
        self.requests.append(url)
        route.abort()

    def on_dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def on_console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(message.text)

    def assert_clean(self, page: Any, *, expected: str | None = None) -> None:
        """No dialog, console error (but ``expected``), blocked request, or payload global."""
        assert self.dialogs == []
        assert [e for e in self.errors if expected is None or expected not in e] == []
        assert self.requests == []
        assert page.evaluate("typeof window.__pwned") == "undefined"


def open_page(browser: Any, url: str, *, allowed: tuple[str, ...]) -> tuple[Any, Guard]:
    """A 1280x800 page at ``url``; requests outside ``allowed`` (and data:) are blocked and kept."""
    context = browser.new_context(viewport=VIEWPORT, java_script_enabled=True)
    guard = Guard(allowed=allowed)
    context.route("**/*", guard.on_route)
    page = context.new_page()
    page.on("dialog", guard.on_dialog)
    page.on("console", guard.on_console)
    page.on("pageerror", lambda exc: guard.errors.append(str(exc)))
    page.goto(url)
    page.wait_for_load_state("load")
    return page, guard


def screenshot(page: Any, name: str, *, full_page: bool = False) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


def expect(locator: Any) -> Any:
    """Playwright's assertions that wait for the state (a page updates a task or more later)."""
    from playwright.sync_api import expect as waiting

    return waiting(locator)
