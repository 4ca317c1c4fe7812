"""Shared pieces of the mutators: their data file, protected phrases, and user-text rewriting.

Mutators rewrite what the user sends (``input``, or every user message of a conversation); the
``task`` and ``system`` prompt are the application's and stay as written. Phrases the case's
expectations name (``must_contain``, ``must_not_contain``, SAFE phrases, ...) are protected:
character-level mutators leave their occurrences in the input untouched, so that an expectation
such as "repeat the code A-1009" stays achievable.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from importlib.resources import files
from random import Random
from typing import Any

from failproof.core import Case, Message
from failproof.guard import load_yaml

__all__ = [
    "data",
    "editable_mask",
    "pick",
    "protected_phrases",
    "rewrite_user_text",
]


@lru_cache(maxsize=1)
def data() -> dict[str, Any]:
    """The mutators' data file (``generate/data/mutations.yaml``), read once."""
    text = files("failproof.generate").joinpath("data", "mutations.yaml").read_text("utf-8")
    loaded: dict[str, Any] = load_yaml(text, source="mutations.yaml")
    return loaded


def protected_phrases(case: Case) -> list[str]:
    """Every phrase the case's expectations name (FailProof and SAFE v0)."""
    phrases: list[str] = []
    if case.expect is not None:
        expect = case.expect
        phrases += [*expect.must_contain, *expect.must_contain_any, *expect.must_not_contain]
    if case.expectations is not None:
        phrases += [*case.expectations.must_contain_phrases, *case.expectations.forbidden_terms]
    return [p for p in phrases if p.strip()]


def editable_mask(text: str, phrases: Sequence[str]) -> list[bool]:
    """Per character of ``text``: False inside an occurrence of a protected phrase (any case)."""
    mask = [True] * len(text)
    for phrase in phrases:
        for match in re.finditer(re.escape(phrase), text, re.IGNORECASE):
            mask[match.start() : match.end()] = [False] * (match.end() - match.start())
    return mask


def pick(rng: Random, candidates: Sequence[int], rate: float) -> list[int]:
    """Each candidate with probability ``rate``; at least one when there is any."""
    chosen = [c for c in candidates if rng.random() < rate]
    if not chosen and candidates:
        chosen = [rng.choice(list(candidates))]
    return chosen


def rewrite_user_text(
    case: Case, rewrite: Callable[[str], str], *, last_only: bool = False
) -> str | list[Message]:
    """The case's input with ``rewrite`` applied to the user's text (every user turn, or last)."""
    if isinstance(case.input, str):
        return rewrite(case.input)
    users = [i for i, m in enumerate(case.input) if m.role == "user"]
    chosen = set(users[-1:] if last_only else users)
    return [
        Message(role=m.role, content=rewrite(m.content)) if i in chosen else m
        for i, m in enumerate(case.input)
    ]
