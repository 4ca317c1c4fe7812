"""promptfoo's model-graded assertions as rubric expectations (``expect.rubric``).

A promptfoo check that asks a grading model (``llm-rubric``, ``model-graded-closedqa``,
``g-eval``, ``factuality``, ``answer-relevance``, ``context-recall``, ``pi``) becomes criteria
the failproof judge grades with its versioned ``rubric`` template. The assertion's type is kept
as the rubric's name, its ``threshold`` (0 to 1) as the rubric's. Several model-graded checks on
one test join into one rubric (every criterion must be met; the highest threshold counts). A
``not-`` check asks that the criteria are *not* met.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MODEL_GRADED", "apply_rubric", "is_rubric"]

#: Each model-graded type, and how its value becomes criteria (``{value}`` is the value).
MODEL_GRADED = {
    "llm-rubric": "{value}",
    "model-graded-closedqa": "{value}",
    "g-eval": "{value}",
    "pi": "{value}",
    "factuality": "The response is factually consistent with this reference answer and "
    "contradicts none of it: {value}",
    "answer-relevance": "The response is relevant to the request and answers what was asked.",
    "context-recall": "The response states the facts of this ground truth: {value}",
}
#: promptfoo's default pass mark for the types that have one (others: 0.5).
_DEFAULT_THRESHOLD = {"g-eval": 0.7}
_NEEDS_VALUE = frozenset(MODEL_GRADED) - {"answer-relevance"}


def is_rubric(kind: str) -> bool:
    """Whether the assertion type is a model-graded check this module maps."""
    return kind.removeprefix("not-") in MODEL_GRADED


def _text(value: Any) -> str | None:
    if isinstance(value, str):
        return value.strip() or None
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return "\n".join(f"- {v.strip()}" for v in value if v.strip()) or None
    return None


def _threshold(kind: str, assertion: dict[str, Any]) -> float | None:
    found = assertion.get("threshold", _DEFAULT_THRESHOLD.get(kind, 0.5))
    if isinstance(found, bool) or not isinstance(found, int | float) or not 0 <= found <= 1:
        return None
    return float(found)


def apply_rubric(expect: dict[str, Any], assertion: dict[str, Any]) -> str | None:
    """Fold one model-graded assertion into ``expect["rubric"]``; returns why it cannot be,
    or None when it mapped."""
    kind = str(assertion.get("type") or "")
    base = kind.removeprefix("not-")
    value = _text(assertion.get("value"))
    if value is None and base in _NEEDS_VALUE:
        return "no criteria (the value is empty, or not text)"
    threshold = _threshold(base, assertion)
    if threshold is None:
        return "the threshold is not a number from 0 to 1"
    criteria = MODEL_GRADED[base].format(value=value or "")
    if kind != base:
        criteria = f"The response does NOT meet these criteria: {criteria}"
    found = expect.get("rubric")
    if isinstance(found, dict):
        criteria = f"{found['criteria']}\n{criteria}"
        threshold = max(threshold, float(found["threshold"]))
        kind = f"{found['name']}+{kind}"
    expect["rubric"] = {"criteria": criteria, "threshold": threshold, "name": kind}
    return None
