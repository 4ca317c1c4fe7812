"""The taxonomy a case is labelled with: OWASP LLM Top 10 2025, MITRE ATLAS and failproof's own.

An id is ``FRAMEWORK:CODE`` (``owasp-llm:LLM01``, ``atlas:AML.T0051.001``, ``failproof:cyber``).
The catalogue (``core/data/taxonomy.json``, JSON since every run report reads it) lists every
framework; a closed framework accepts only its listed codes, an open one (ATLAS, which adds
techniques often) any code of its form, and a listed ATLAS code shows its name. A category no test
from outside can reach says what testing it ``needs``.
"""

from __future__ import annotations

import difflib
import re
from functools import cache, lru_cache
from importlib import resources
from typing import Annotated

from pydantic import AfterValidator, Field

from failproof.core._closed import Closed

__all__ = [
    "TaxonomyCatalogue",
    "TaxonomyCategory",
    "TaxonomyFramework",
    "TaxonomyId",
    "check_taxonomy_id",
    "taxonomy_catalogue",
]


class TaxonomyCategory(Closed):
    """One category of a framework, and for one no outside test reaches, what testing it needs."""

    code: str
    name: str
    needs: str | None = Field(
        default=None, description="What a user would need to test it (not testable from outside)."
    )


class TaxonomyFramework(Closed):
    """A framework: its key (the id prefix), title, and categories in their own order."""

    key: str
    title: str
    closed: bool = Field(description="Only the listed codes are valid.")
    pattern: str | None = Field(default=None, description="The form of a code (open frameworks).")
    categories: tuple[TaxonomyCategory, ...]

    def category(self, code: str) -> TaxonomyCategory | None:
        """The listed category of ``code``, if any."""
        return next((c for c in self.categories if c.code == code), None)


class TaxonomyCatalogue(Closed):
    """Every framework failproof knows, in the order reports show them."""

    frameworks: tuple[TaxonomyFramework, ...]

    def framework(self, key: str) -> TaxonomyFramework | None:
        """The framework whose ids start with ``key:``."""
        return next((f for f in self.frameworks if f.key == key), None)


@cache
def taxonomy_catalogue() -> TaxonomyCatalogue:
    """The shipped catalogue, read once per process."""
    text = resources.files("failproof.core").joinpath("data/taxonomy.json").read_text("utf-8")
    return TaxonomyCatalogue.model_validate_json(text)


def _normal_code(framework: TaxonomyFramework, code: str) -> str:
    listed = {c.code.lower(): c.code for c in framework.categories}
    return listed.get(code.lower(), code)


@lru_cache(maxsize=1024)
def check_taxonomy_id(value: str) -> str:
    """``value`` as a valid taxonomy id (a listed code in its catalogue spelling), or
    `ValueError` saying what is wrong and what would be right."""
    catalogue = taxonomy_catalogue()
    prefix, sep, code = value.strip().partition(":")
    framework = catalogue.framework(prefix.lower())
    if not sep or framework is None:
        keys = ", ".join(f"{f.key}:" for f in catalogue.frameworks)
        raise ValueError(f"taxonomy id {value!r} must start with one of {keys}")
    code = _normal_code(framework, code.strip())
    if framework.category(code) is None:
        if framework.closed:
            codes = [c.code for c in framework.categories]
            close = difflib.get_close_matches(code, codes, n=1)
            hint = f"did you mean {framework.key}:{close[0]}?" if close else ", ".join(codes)
            raise ValueError(f"{value!r} is not in {framework.title} ({hint})")
        if framework.pattern and not re.fullmatch(framework.pattern, code):
            raise ValueError(f"{value!r} is not a {framework.title} id (like AML.T0051.001)")
    return f"{framework.key}:{code}"


#: A validated taxonomy id, in its catalogue spelling.
TaxonomyId = Annotated[str, AfterValidator(check_taxonomy_id)]
