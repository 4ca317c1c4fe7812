"""The pages drawn without templates (the attack and MCP reports) carry the same policy as the
run report: their own style applies, and nothing else is loaded or run, whatever a model wrote."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.attack.test_report import attack, step
from tests.browser.conftest import open_page
from tests.report.hostile import PAYLOADS

from failproof.attack._html import attack_html
from failproof.attack._report import build_attack_report
from failproof.core import AttackStep


def hostile_attack() -> str:
    broken = step("a", 1, broken=True, parent=0)
    steps: list[AttackStep] = [step("a", 0)]
    for i, payload in enumerate(PAYLOADS):
        steps.append(broken.model_copy(update={"seq": 1 + i, "output": payload, "note": payload}))
    return attack_html(build_attack_report([attack("x1", "iterative", steps)]))


def test_the_attack_page_applies_its_style_and_runs_no_payload(
    browser: Any, tmp_path: Path
) -> None:
    path = tmp_path / "attack.html"
    path.write_text(hostile_attack(), encoding="utf-8")
    page, guard = open_page(browser, path.as_uri(), allowed=(path.as_uri(),))
    width = page.evaluate("getComputedStyle(document.body).maxWidth")
    assert width != "none"  # the page's own style passed its policy
    assert page.locator("meta[http-equiv='Content-Security-Policy']").count() == 1
    guard.assert_clean(page)
    page.context.close()
