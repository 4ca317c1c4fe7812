"""promptfoo's deterministic assertions folded into a failproof ``expect``.

Each assertion either maps (and is folded in) or says why it cannot; nothing is guessed: a value
that is not text (an object, a blank) does not map, and an assertion on a transformed output
(``transform``, ``options.transform``) does not either, since failproof checks the raw answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import re2

from failproof.core._regex import re2_problem
from failproof.guard._json import JsonObject
from failproof.importers._promptfoo_rubric import apply_rubric, is_rubric

__all__ = ["apply_assertion", "parse_csv_assertion", "scalar_text"]

_FOLDED = {"icontains": "must_contain", "not-icontains": "must_not_contain"}
_FOLDED_LISTS = {"icontains-any": "must_contain_any", "icontains-all": "must_contain"}
#: ``type(threshold): value`` or ``not-type: value`` in a CSV ``__expected`` column.
_CSV_ASSERTION = re.compile(
    r"^(?P<type>(?:not-)?[a-z][a-z0-9-]*)(?:\((?P<t>[^)]*)\))?:\s?(?P<v>.*)$", re.S
)
_CSV_LEGACY = {"fn": "javascript", "eval": "javascript", "grade": "llm-rubric"}
_CSV_LISTS = ("contains-any", "contains-all", "icontains-any", "icontains-all")
#: promptfoo's assertion types, for telling ``contains: x`` from a value that has a colon in it.
_KNOWN = frozenset(
    [
        "answer-relevance",
        "bleu",
        "classifier",
        "contains",
        "contains-all",
        "contains-any",
        "contains-html",
        "contains-json",
        "contains-sql",
        "contains-xml",
        "context-faithfulness",
        "context-recall",
        "context-relevance",
        "conversation-relevance",
        "cost",
        "equals",
        "factuality",
        "finish-reason",
        "g-eval",
        "gleu",
        "guardrails",
        "icontains",
        "icontains-all",
        "icontains-any",
        "is-html",
        "is-json",
        "is-refusal",
        "is-sql",
        "is-valid-function-call",
        "is-valid-openai-function-call",
        "is-valid-openai-tools-call",
        "is-xml",
        "javascript",
        "latency",
        "levenshtein",
        "llm-rubric",
        "meteor",
        "model-graded-closedqa",
        "model-graded-factuality",
        "moderation",
        "perplexity",
        "perplexity-score",
        "pi",
        "python",
        "regex",
        "rouge-n",
        "ruby",
        "select-best",
        "similar",
        "starts-with",
        "webhook",
        "word-count",
    ]
)
_VALUELESS = frozenset({"is-json", "is-refusal", "not-is-refusal", "is-valid-openai-tools-call"})


def scalar_text(value: Any) -> str | None:
    """How promptfoo prints a scalar (``true``, ``3``, ``2.5``, text); None for anything else."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return str(value)
    return None


def _texts(value: Any) -> list[str] | None:
    """The non-blank texts of a value (one scalar or a list of them); None when one is not text."""
    items = value if isinstance(value, list) else [value]
    texts = [scalar_text(v) for v in items if v is not None]
    if any(t is None for t in texts):
        return None
    return [t for t in texts if t is not None and t.strip()]


def _literal(text: str) -> str:
    return str(re2.escape(text))


def _patterns(kind: str, values: list[str]) -> list[str]:
    """The RE2 patterns of a case-sensitive text assertion (without its ``not-``)."""
    if kind in ("contains", "contains-all"):
        return [_literal(v) for v in values]
    builders: dict[str, Callable[[list[str]], str]] = {
        "regex": lambda v: v[0],
        "contains-any": lambda v: "|".join(_literal(x) for x in v),
        "starts-with": lambda v: "^" + _literal(v[0]),
        "equals": lambda v: "^" + _literal(v[0]) + "$",
    }
    build = builders.get(kind)
    return [build(values)] if build else []


def apply_assertion(expect: dict[str, Any], assertion: dict[str, Any]) -> str | None:
    """Fold one assertion into ``expect``; returns why it cannot be, or None when it mapped."""
    kind = str(assertion.get("type") or "")
    if assertion.get("transform"):
        return "checks a transformed output (transform): not mapped"
    if kind == "assert-set":
        return _apply_set(expect, assertion)
    if is_rubric(kind):
        return apply_rubric(expect, assertion)
    if kind in ("is-refusal", "not-is-refusal"):
        expect["refusal"] = "required" if kind == "is-refusal" else "forbidden"
        return None
    if kind == "is-json":
        return _apply_json(expect, assertion.get("value"))
    if kind in _VALUELESS:
        return "no equivalent"
    values = _texts(assertion.get("value"))
    if values is None:
        return "the value is not text (an object or a list of objects)"
    if not values:
        return "no value to check"
    return _apply_text(expect, kind, values)


def _apply_text(expect: dict[str, Any], kind: str, values: list[str]) -> str | None:
    if kind in _FOLDED or kind in _FOLDED_LISTS:
        field = _FOLDED.get(kind) or _FOLDED_LISTS[kind]
        expect.setdefault(field, []).extend(values)
        return None
    negated = kind.startswith("not-")
    patterns = _patterns(kind.removeprefix("not-"), values)
    if not patterns or kind == "not-contains-all":  # "misses at least one": no equivalent
        return "no equivalent"
    bad = [p for p in patterns if re2_problem(p)]
    if bad:
        return f"the pattern is not RE2 ({re2_problem(bad[0])})"
    expect.setdefault("must_not_match" if negated else "must_match", []).extend(patterns)
    return None


def _apply_json(expect: dict[str, Any], schema: Any) -> str | None:
    if schema is not None and not isinstance(schema, dict):
        return "the schema is not an object (or a file:// it names could not be read)"
    expect["format"] = "json"
    if schema:
        expect["json_schema"] = schema
    return None


def _apply_set(expect: dict[str, Any], assertion: dict[str, Any]) -> str | None:
    """An ``assert-set`` without a threshold passes when all pass: its members fold in."""
    members = assertion.get("assert")
    if assertion.get("threshold") is not None or not isinstance(members, list):
        return "an assert-set with a threshold (or without members): no equivalent"
    trial: dict[str, Any] = {k: list(v) if isinstance(v, list) else v for k, v in expect.items()}
    for member in members:
        why = apply_assertion(trial, member) if isinstance(member, dict) else "not a mapping"
        if why is not None:
            return f"a member ({member.get('type') if isinstance(member, dict) else '?'}): {why}"
    expect.clear()
    expect.update(trial)
    return None


def parse_csv_assertion(text: str) -> JsonObject:
    """One ``__expected`` cell as an assertion: ``contains: Paris``, ``not-icontains: x``,
    ``similar(0.8): y``, ``contains-any: a,b``; a cell without a type is ``equals``."""
    for legacy, kind in _CSV_LEGACY.items():
        if text.startswith(f"{legacy}:"):
            return {"type": kind, "value": text[len(legacy) + 1 :].strip()}
    if text.strip().removeprefix("not-") in _KNOWN:  # a type without a value: is-refusal
        return {"type": text.strip()}
    match = _CSV_ASSERTION.match(text.strip())
    if match is None or match["type"].removeprefix("not-") not in _KNOWN:
        return {"type": "equals", "value": text}
    kind, value = match["type"], match["v"]
    if kind.removeprefix("not-") in _CSV_LISTS:
        return {"type": kind, "value": [v.strip() for v in value.split(",") if v.strip()]}
    if kind.removeprefix("not-") in ("is-json", "is-refusal") and not value.strip():
        return {"type": kind}
    return {"type": kind, "value": value}
