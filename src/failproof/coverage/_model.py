"""The coverage table: per framework and category, what tests it and, after a run, what failed."""

from __future__ import annotations

from pydantic import Field

from failproof.core._closed import Closed

__all__ = ["Coverage", "CoverageCategory", "CoverageFramework"]


class CoverageCategory(Closed):
    """One category: how many cases test it, in which suites, and (after a run) how many failed."""

    id: str = Field(description="The taxonomy id, e.g. owasp-llm:LLM07.")
    code: str = Field(description="The id without its framework, e.g. LLM07.")
    name: str = Field(description="The category's name ('' when the catalogue does not list it).")
    cases: int = Field(description="Cases labelled with it (answers, in a run report).")
    suites: list[str] = Field(default_factory=list, description="Suites those cases come from.")
    case_ids: list[str] = Field(
        default_factory=list,
        description="suite/id of the cases (suite coverage), or of the first failures (a run).",
    )
    failed: int | None = Field(default=None, description="Answers that did not pass (a run).")
    errors: int | None = Field(default=None, description="Answers the target never gave (a run).")
    needs: str | None = Field(
        default=None, description="What a user needs to test it, for a category no case tests."
    )

    @property
    def tested(self) -> bool:
        """Whether any case tests it."""
        return self.cases > 0


class CoverageFramework(Closed):
    """A framework's categories in its own order, tested or not."""

    key: str = Field(description="The id prefix: owasp-llm, atlas, failproof.")
    title: str
    categories: list[CoverageCategory]

    @property
    def untested(self) -> list[CoverageCategory]:
        """The categories no case tests."""
        return [c for c in self.categories if not c.tested]


class Coverage(Closed):
    """What a set of cases (or a run) covers, framework by framework."""

    cases: int = Field(description="Cases (answers, in a run report) looked at.")
    unlabelled: int = Field(description="Of them, those that carry no taxonomy id.")
    suites: list[str] = Field(default_factory=list, description="The suites looked at.")
    frameworks: list[CoverageFramework]

    def framework(self, key: str) -> CoverageFramework | None:
        """The framework ``key`` (owasp-llm, atlas, failproof)."""
        return next((f for f in self.frameworks if f.key == key), None)
