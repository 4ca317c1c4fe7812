"""The scan's rules, read once from ``data/rules.yaml``: ids, severities, taxonomy, patterns."""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any

import re2
from pydantic import BaseModel, ConfigDict, Field

from failproof.core import Severity
from failproof.guard import load_yaml

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

    rules: tuple[Rule, ...]
    confusables: dict[str, str]
    taxonomy: dict[str, str]

    def __hash__(self) -> int:  # one book per process: the caches key on it
        return id(self)

    def rule(self, rule_id: str) -> Rule:
        """The rule with this id."""
        return _by_id(self)[rule_id]

    def search(self, rule_id: str, text: str) -> Match | None:
        """The leftmost match of any of the rule's patterns in ``text``."""
        found = _compiled(self, (rule_id,)).search(text)
        return None if found is None else Match(start=found.start(), end=found.end())

    def any_match(self, rule_ids: tuple[str, ...], text: str) -> bool:
        """Whether any pattern of any of ``rule_ids`` matches ``text`` (one pass)."""
        return _compiled(self, rule_ids).search(text) is not None


@cache
def _by_id(book: RuleBook) -> dict[str, Rule]:
    return {r.id: r for r in book.rules}


@cache
def _compiled(book: RuleBook, rule_ids: tuple[str, ...]) -> Any:
    """One RE2 alternation of every pattern of ``rule_ids`` (leftmost match first)."""
    options = re2.Options()
    options.case_sensitive = False
    patterns = [p for rule_id in rule_ids for p in _by_id(book)[rule_id].patterns]
    return re2.compile("|".join(f"(?:{p})" for p in patterns) or r"\b\B", options)


@cache
def rulebook() -> RuleBook:
    """The shipped rules (read and checked once per process)."""
    text = resources.files("failproof.mcp").joinpath("data/rules.yaml").read_text("utf-8")
    return RuleBook.model_validate(load_yaml(text, source="rules.yaml"))
