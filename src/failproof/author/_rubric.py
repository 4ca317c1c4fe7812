"""A generated case's rubric: kept only for a plugin whose outcome needs meaning, and only when
it is a short statement of what a good answer does; otherwise dropped, with the reason."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import NamedTuple

from failproof.author._plugins import Plugin
from failproof.core._case import RubricExpect

__all__ = ["MAX_RUBRIC", "CheckedRubric", "check_rubric"]

#: Longest rubric kept, in characters (a judge grades one claim, not an essay).
MAX_RUBRIC = 600
#: Fewest words a rubric holds beyond its subject.
_MIN_WORDS = 4
_STATEMENT = re.compile(
    r"(?:a|an|the)\s+(?:good\s+|correct\s+|safe\s+|helpful\s+)?(?:answer|response|reply|assistant)\b",
    re.IGNORECASE,
)


class CheckedRubric(NamedTuple):
    """The rubric kept (``rubric``), or why the one given was dropped (``dropped``)."""

    rubric: RubricExpect | None
    dropped: str | None


def _criteria(raw: object) -> str | None:
    if isinstance(raw, Mapping):
        raw = raw.get("criteria")
    return " ".join(raw.split()) if isinstance(raw, str) else None


def _problem(text: str | None) -> str | None:
    if not text:
        return "empty (or not text)"
    if len(text) > MAX_RUBRIC:
        return f"longer than {MAX_RUBRIC} characters"
    head = _STATEMENT.match(text)
    if head is None or text.endswith("?") or len(text[head.end() :].split()) < _MIN_WORDS:
        return "not a statement of what a good answer does ('A good answer ...')"
    return None


def check_rubric(raw: object, plugin: Plugin) -> CheckedRubric:
    """The rubric of a generated case of ``plugin`` (``raw`` is what the generator wrote, None
    when it wrote none): graded by a judge at the default threshold, named after the plugin."""
    if raw is None:
        return CheckedRubric(None, None)
    if plugin.rubric is None:
        return CheckedRubric(None, f"{plugin.name} cases are decided by rules")
    text = _criteria(raw)
    problem = _problem(text)
    if problem is not None or text is None:
        return CheckedRubric(None, problem)
    return CheckedRubric(RubricExpect(criteria=text, name=plugin.name), None)
