"""The scan's rules, read once from ``data/rules.yaml``: ids, severities, taxonomy, patterns."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import re2
import yaml
from pydantic import BaseModel, ConfigDict, Field

from failproof.core import Severity

__all__ = ["Match", "Rule", "RuleBook", "rulebook"]


class Rule(BaseModel):
    """One rule: what it finds, how bad, its OWASP ids, and its RE2 patterns (if any)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    title: str
    severity: Severity
    taxonomy: list[str]
    explain: str
    patterns: list[str] = Field(default_factory=list)


class Match(BaseModel):
    """Where a rule's pattern matched a text: the span's start and end."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    start: int
    end: int


class RuleBook(BaseModel):
    """Every rule, the confusable letters, and the taxonomy's names."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rules: list[Rule]
    confusables: dict[str, str]
    taxonomy: dict[str, str]

    def rule(self, rule_id: str) -> Rule:
        """The rule with this id."""
        return next(r for r in self.rules if r.id == rule_id)

    def search(self, rule_id: str, text: str) -> Match | None:
        """The first match of any of the rule's patterns in ``text`` (earliest start)."""
        found = [m for m in (p.search(text) for p in _compiled(self, rule_id)) if m is not None]
        if not found:
            return None
        first = min(found, key=lambda m: m.start())
        return Match(start=first.start(), end=first.end())


@cache
def _patterns(patterns: tuple[str, ...]) -> list[Any]:
    options = re2.Options()
    options.case_sensitive = False
    return [re2.compile(p, options) for p in patterns]


def _compiled(book: RuleBook, rule_id: str) -> list[Any]:
    return _patterns(tuple(book.rule(rule_id).patterns))


@cache
def rulebook() -> RuleBook:
    """The shipped rules (read and checked once per process)."""
    text = resources.files("failproof.mcp").joinpath("data/rules.yaml").read_text("utf-8")
    return RuleBook.model_validate(yaml.safe_load(text))
