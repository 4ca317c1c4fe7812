"""docs/configuration.md lists every setting exactly as the settings models define them."""

from __future__ import annotations

from pathlib import Path

from failproof.config._reference import settings_reference

DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


def test_configuration_page_holds_the_generated_reference() -> None:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("<!-- settings-reference:start -->\n") + len(
        "<!-- settings-reference:start -->\n"
    )
    end = text.index("<!-- settings-reference:end -->")
    assert text[start:end] == settings_reference(), (
        "docs/configuration.md is out of date: paste the output of 'failproof config reference'"
    )


def test_reference_names_each_environment_variable() -> None:
    reference = settings_reference()
    assert "`FAILPROOF_RUN__CONCURRENCY`" in reference
    assert "`FAILPROOF_HOME`" in reference
