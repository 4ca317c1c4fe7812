"""``failproof import promptfoo``: the tests of a ``promptfooconfig.yaml`` as failproof cases.

One case per (prompt, test): the prompt's ``{{var}}`` placeholders filled from the test's vars
(``defaultTest.vars`` under them); a chat prompt (a JSON list of messages) keeps its system
message. The deterministic assertions map to expectations:

=====================================  =================================================
promptfoo                              failproof
=====================================  =================================================
icontains / not-icontains              must_contain / must_not_contain
icontains-any / icontains-all          must_contain_any / must_contain
contains, contains-all, starts-with,   must_match (RE2, case-sensitive, the text escaped)
equals, regex
not-contains, not-regex, not-equals... must_not_match
contains-any                           must_match (one alternation)
is-json (with an optional schema)      format: json (json_schema)
is-refusal / not-is-refusal            refusal: required / forbidden
llm-rubric, model-graded-closedqa,     rubric (graded by the judge: `_promptfoo_rubric`)
g-eval, factuality, answer-relevance,
context-recall, pi (and not-...)
=====================================  =================================================

Every other assertion (code, similarity, cost, latency, ...) has no equivalent:
it is listed in the summary and in the case's ``metadata.import_unmapped``, never dropped. A case
whose refusal no assertion speaks of gets ``refusal: allowed`` (promptfoo does not judge it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import re2
import yaml

from failproof.core import re2_problem
from failproof.errors import InputError
from failproof.importers._common import ImportResult, ImportSummary, case_id, suite_name
from failproof.importers._promptfoo_rubric import apply_rubric, is_rubric

__all__ = ["import_promptfoo"]

_VAR = re.compile(r"\{\{\s*([A-Za-z_][\w.]*)\s*\}\}")
_FOLDED = {"icontains": "must_contain", "not-icontains": "must_not_contain"}
_FOLDED_LISTS = {"icontains-any": "must_contain_any", "icontains-all": "must_contain"}


def _load(path: Path) -> dict[str, Any]:
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not YAML: {exc}", hint="give a promptfooconfig.yaml") from None
    if not isinstance(data, dict):
        raise InputError(
            f"{path}: not a promptfoo config (a mapping)", hint="give a promptfooconfig.yaml"
        )
    return data


def _values(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    return [str(v) for v in items if v is not None and str(v) != ""]


def _literal(text: str) -> str:
    return str(re2.escape(text))


def _pattern(kind: str, value: Any) -> str | None:
    """The RE2 pattern of a case-sensitive text assertion (without its ``not-``)."""
    values = _values(value)
    if not values:
        return None
    if kind == "regex":
        return values[0]
    if kind == "contains-any":
        return "|".join(_literal(v) for v in values)
    if kind == "starts-with":
        return "^" + _literal(values[0])
    if kind == "equals":
        return "^" + _literal(values[0]) + "$"
    return None  # contains / contains-all are one pattern per value: see _patterns


def _patterns(kind: str, value: Any) -> list[str]:
    if kind in ("contains", "contains-all"):
        return [_literal(v) for v in _values(value)]
    one = _pattern(kind, value)
    return [one] if one is not None else []


def _apply(expect: dict[str, Any], assertion: dict[str, Any]) -> str | None:
    """Fold one assertion into ``expect``; returns why it cannot be, or None when it mapped."""
    kind = str(assertion.get("type") or "")
    value = assertion.get("value")
    if is_rubric(kind):
        return apply_rubric(expect, assertion)
    if kind in _FOLDED or kind in _FOLDED_LISTS:
        field = _FOLDED.get(kind) or _FOLDED_LISTS[kind]
        expect.setdefault(field, []).extend(_values(value))
        return None
    if kind in ("is-refusal", "not-is-refusal"):
        expect["refusal"] = "required" if kind == "is-refusal" else "forbidden"
        return None
    if kind == "is-json":
        expect["format"] = "json"
        if isinstance(value, dict):
            expect["json_schema"] = value
        return None
    negated = kind.startswith("not-")
    patterns = _patterns(kind.removeprefix("not-"), value)
    if not patterns or kind == "not-contains-all":  # "misses at least one": no equivalent
        return "no equivalent"
    bad = [p for p in patterns if re2_problem(p)]
    if bad:
        return f"the pattern is not RE2 ({re2_problem(bad[0])})"
    expect.setdefault("must_not_match" if negated else "must_match", []).extend(patterns)
    return None


def _fill(template: str, variables: dict[str, Any]) -> tuple[str, list[str]]:
    missing: list[str] = []

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in variables:
            missing.append(name)
            return match.group(0)
        value = variables[name]
        return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

    return _VAR.sub(one, template), missing


def _prompts(data: dict[str, Any], summary: ImportSummary) -> list[str]:
    raw = data.get("prompts") or ["{{prompt}}"]
    prompts = []
    for index, prompt in enumerate(raw if isinstance(raw, list) else [raw], start=1):
        text = prompt.get("raw") if isinstance(prompt, dict) else prompt
        if not isinstance(text, str) or text.startswith("file://"):
            summary.miss("prompt from a file or not text: not read", f"prompt {index}")
            continue
        prompts.append(text)
    return prompts


def _messages(text: str) -> tuple[str | None, Any]:
    """A chat prompt (JSON list of role/content) as (system, input); plain text as (None, text)."""
    try:
        chat = json.loads(text)
    except ValueError:
        return None, text
    if not isinstance(chat, list) or not all(isinstance(m, dict) and "role" in m for m in chat):
        return None, text
    system = "\n\n".join(str(m.get("content", "")) for m in chat if m["role"] == "system") or None
    turns = [
        {"role": m["role"], "content": str(m.get("content", ""))}
        for m in chat
        if m["role"] != "system"
    ]
    return system, turns[0]["content"] if len(turns) == 1 else turns


def _tests(data: dict[str, Any], summary: ImportSummary) -> list[dict[str, Any]]:
    raw = data.get("tests") or []
    tests = []
    for index, test in enumerate(raw if isinstance(raw, list) else [raw], start=1):
        if isinstance(test, dict):
            tests.append(test)
        else:
            summary.miss("tests from a file or not a mapping: not read", f"test {index}")
    return tests


def _case(
    prompt: str, test: dict[str, Any], default: dict[str, Any], where: str, summary: ImportSummary
) -> dict[str, Any] | None:
    variables = {**(default.get("vars") or {}), **(test.get("vars") or {})}
    text, missing = _fill(prompt, variables)
    if missing:
        summary.skip(f"prompt variable without a value ({', '.join(sorted(set(missing)))})")
        return None
    system, user = _messages(text)
    expect: dict[str, Any] = {}
    unmapped = []
    for assertion in [*(default.get("assert") or []), *(test.get("assert") or [])]:
        kind = str(assertion.get("type") or "?") if isinstance(assertion, dict) else "?"
        why = _apply(expect, assertion) if isinstance(assertion, dict) else "not a mapping"
        if why is None:
            summary.map(f"assert {kind}")
            continue
        summary.miss(f"assert {kind}: {why}", where)
        unmapped.append(f"assert {kind}: {why}")
    case: dict[str, Any] = {"input": user}
    if system:
        case["system"] = system
    if expect:
        expect.setdefault("refusal", "allowed")
        case["expect"] = expect
    metadata: dict[str, Any] = {"promptfoo_test": where}
    if test.get("description"):
        metadata["description"] = str(test["description"])
    if unmapped:
        metadata["import_unmapped"] = unmapped
    case["metadata"] = metadata
    return case


def import_promptfoo(path: Path, name: str | None = None) -> ImportResult:
    """The tests of a promptfoo config as a suite (one case per prompt and test)."""
    data = _load(path)
    summary = ImportSummary(source=path.name)
    found = data.get("defaultTest")
    default: dict[str, Any] = found if isinstance(found, dict) else {}
    prompts, tests = _prompts(data, summary), _tests(data, summary)
    taken: set[str] = set()
    cases = []
    for t, test in enumerate(tests, start=1):
        for p, prompt in enumerate(prompts, start=1):
            where = f"test {t}" + (f", prompt {p}" if len(prompts) > 1 else "")
            case = _case(prompt, test, default, where, summary)
            if case is not None:
                label = f"t{t:03d}" + (f"-p{p}" if len(prompts) > 1 else "")
                cases.append({"id": case_id(label, taken), **case})
    summary.cases = len(cases)
    stem = path.name.removesuffix(".yaml").removesuffix(".yml")
    suite: dict[str, Any] = {
        "suite": suite_name(name or data.get("description") or stem),
        "description": str(data.get("description") or f"imported from {path.name}"),
        "cases": cases,
    }
    return ImportResult(suite, summary)
