"""Every registered renderer: documented, named, deterministic, and never crashing on a report."""

from __future__ import annotations

import pytest

from failproof.report import Renderer, Report, renderers

NAMES = renderers.names()


@pytest.mark.parametrize("name", NAMES)
def test_renderer_is_documented_and_named(name: str) -> None:
    renderer = renderers.get(name)
    assert issubclass(renderer, Renderer)
    assert (renderer.__doc__ or "").strip()
    assert renderer.format == name
    assert renderer.filename == "" or "." in renderer.filename


@pytest.mark.parametrize("name", NAMES)
def test_renderer_is_deterministic(name: str, report: Report) -> None:
    make = renderers.get(name)
    assert make().render(report) == make().render(report)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("which", ["report", "bare_report", "hostile", "repeated_report"])
def test_renderer_renders_every_kind_of_report(
    name: str, which: str, request: pytest.FixtureRequest
) -> None:
    text = renderers.get(name)().render(request.getfixturevalue(which))
    assert isinstance(text, str) and text
    text.encode("utf-8")


def test_run_and_score_write_the_default_files() -> None:
    files = {renderers.get(n).filename for n in ("html", "markdown", "junit", "json")}
    assert files == {"report.html", "report.md", "junit.xml", "report.json"}
