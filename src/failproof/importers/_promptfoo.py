"""``failproof import promptfoo``: the tests of a ``promptfooconfig.yaml`` as failproof cases.

One case per (prompt, test): the prompt's ``{{var}}`` placeholders filled from the test's vars
(``defaultTest.vars`` under them; a var that is a list gives one case per value, as promptfoo
does); a chat prompt (a JSON list of messages) keeps its system message. Prompts and tests may
live in other files (``file://``, globs: see `_promptfoo_files`), read relative to the config and
only inside the folder allowed. The file is read as YAML 1.2 (``Yes`` and ``2024-01-31`` stay
text, as promptfoo reads them). The deterministic assertions map to expectations:

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
A prompt with Nunjucks beyond ``{{ var }}`` (filters, tags) becomes no case and is counted.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

from failproof.errors import InputError
from failproof.guard._json import JsonObject
from failproof.importers._common import ImportResult, ImportSummary, case_id, suite_name
from failproof.importers._files import FileRefs
from failproof.importers._promptfoo_assert import apply_assertion, scalar_text
from failproof.importers._promptfoo_files import (
    CodeRef,
    Prompt,
    Test,
    load_config,
    load_prompts,
    load_tests,
    read_value,
    to_test,
)

__all__ = ["import_promptfoo"]

_VAR = re.compile(r"\{\{\s*([A-Za-z_][\w.]*)\s*\}\}")
_TEMPLATE_LEFT = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
#: Sections that make tests only when promptfoo runs.
_NOT_READ = {
    "scenarios": "scenarios (tests times configs) not read",
    "redteam": "promptfoo generates red-team tests when it runs: not read",
}
#: Most characters of prompts one imported suite may hold.
MAX_SUITE_CHARS = 256 << 20
#: Most cases one test's list-valued vars may expand to.
MAX_VAR_EXPANSION = 1000


def _var_text(value: Any) -> str:
    """A var as promptfoo prints it into a prompt: text as is, objects as JSON."""
    text = scalar_text(value)
    if text is not None:
        return text
    if value is None:
        return ""
    return json.dumps(value, ensure_ascii=False, default=str)


def _lookup(variables: JsonObject, name: str) -> tuple[bool, Any]:
    value: Any = variables
    for part in name.split("."):
        if not isinstance(value, dict) or part not in value:
            return False, None
        value = value[part]
    return True, value


def _fill(template: str, variables: JsonObject) -> tuple[str, list[str]]:
    missing: list[str] = []

    def one(match: re.Match[str]) -> str:
        found, value = _lookup(variables, match.group(1))
        if not found:
            missing.append(match.group(1))
            return match.group(0)
        return _var_text(value)

    return _VAR.sub(one, template), missing


def _content(content: Any) -> str:
    """A message's content: text, or the text parts of a list of parts (images dropped)."""
    if isinstance(content, list):
        parts = [p.get("text") for p in content if isinstance(p, dict)]
        return "\n".join(p for p in parts if isinstance(p, str))
    return _var_text(content)


def _messages(text: str) -> tuple[str | None, Any]:
    """A chat prompt (JSON list of role/content) as (system, input); plain text as (None, text).
    ``developer`` is OpenAI's newer name for ``system``."""
    try:
        chat = json.loads(text)
    except (ValueError, RecursionError):
        return None, text
    if not isinstance(chat, list) or not all(isinstance(m, dict) and "role" in m for m in chat):
        return None, text
    system_roles = ("system", "developer")
    system = "\n\n".join(_content(m.get("content")) for m in chat if m["role"] in system_roles)
    turns = [
        {"role": str(m["role"]), "content": _content(m.get("content"))}
        for m in chat
        if m["role"] not in system_roles
    ]
    if not turns:
        return None, text
    return system or None, turns[0]["content"] if len(turns) == 1 else turns


def _expanded(variables: dict[str, Any], where: str, summary: ImportSummary) -> list[JsonObject]:
    """promptfoo's var expansion: a var whose value is a list gives one set of vars per item."""
    lists = {k: v for k, v in variables.items() if isinstance(v, list) and v}
    sizes = [len(v) for v in lists.values()]
    if not lists:
        return [variables]
    if _product(sizes) > MAX_VAR_EXPANSION:
        summary.miss(f"list vars expanding to more than {MAX_VAR_EXPANSION} cases: not read", where)
        return []
    return [
        {**variables, **dict(zip(lists, combo, strict=True))}
        for combo in itertools.product(*lists.values())
    ]


def _product(sizes: list[int]) -> int:
    total = 1
    for size in sizes:
        total *= size
    return total


def _file_vars(
    variables: dict[str, Any], refs: FileRefs, where: str, summary: ImportSummary
) -> JsonObject | None:
    out = {}
    for name, value in variables.items():
        out[name] = read_value(value, refs, where)
        if isinstance(out[name], CodeRef):
            summary.skip(f"var made by code ({value}): not run")
            return None
    return out


def _assertions(test: Test, default: Test, refs: FileRefs) -> list[Any]:
    asserts = [*default.asserts, *test.asserts]
    out = []
    for assertion in asserts:
        if isinstance(assertion, dict) and assertion.get("type") == "is-json":
            assertion = {**assertion, "value": read_value(assertion.get("value"), refs, test.where)}
        out.append(assertion)
    return out


def _expect(
    test: Test, default: Test, refs: FileRefs, summary: ImportSummary
) -> tuple[JsonObject, list[str]]:
    expect: dict[str, Any] = {}
    unmapped: list[str] = []
    for assertion in _assertions(test, default, refs):
        kind = str(assertion.get("type") or "?") if isinstance(assertion, dict) else "?"
        if not isinstance(assertion, dict):
            why: str | None = "not a mapping"
        elif test.transformed or default.transformed:
            why = "checks a transformed output (options.transform): not mapped"
        else:
            why = apply_assertion(expect, assertion)
        if why is None:
            summary.map(f"assert {kind}")
            continue
        summary.miss(f"assert {kind}: {why}", test.where)
        unmapped.append(f"assert {kind}: {why}")
    if expect:
        expect.setdefault("refusal", "allowed")
    return expect, unmapped


def _rendered(variables: JsonObject) -> JsonObject:
    """Vars that use other vars (``{{body}}`` in ``question``) filled once, as promptfoo does."""
    return {
        name: _fill(value, variables)[0] if isinstance(value, str) else value
        for name, value in variables.items()
    }


def _input(
    prompt: Prompt, test: Test, default: Test, variables: dict[str, Any], summary: ImportSummary
) -> tuple[str | None, Any] | None:
    """The (system, input) of one prompt filled with one set of vars; None (counted) when the
    prompt cannot be filled."""
    variables = _rendered(variables)
    system, turns = _messages(prompt.text)  # a chat template is parsed before it is filled
    missing: list[str] = []
    system = _filled(system, variables, missing) if system is not None else None
    if isinstance(turns, list):
        user: Any = [{**t, "content": _filled(t["content"], variables, missing)} for t in turns]
    else:
        user = _filled(turns, variables, missing)
    if missing:
        summary.skip(f"prompt variable without a value ({', '.join(sorted(set(missing)))})")
        return None
    if isinstance(user, list) and any(t["role"] not in ("user", "assistant") for t in user):
        summary.skip("chat prompt with a tool or function turn: not read")
        return None
    if any(_TEMPLATE_LEFT.search(t) for t in _texts(system, user)):
        summary.skip("prompt with Nunjucks filters or tags: not rendered")
        return None
    prefix, suffix = test.prefix or default.prefix, test.suffix or default.suffix
    if (prefix or suffix) and isinstance(user, str):
        user = f"{prefix}{user}{suffix}"
    return system, user


def _filled(template: str, variables: JsonObject, missing: list[str]) -> str:
    text, gaps = _fill(template, variables)
    missing += gaps
    return text


def _texts(system: str | None, user: Any) -> list[str]:
    turns = [t["content"] for t in user] if isinstance(user, list) else [user]
    return [system or "", *turns]


def _case(
    prompt: Prompt,
    test: Test,
    inputs: tuple[str | None, Any],
    expect: JsonObject,
    unmapped: list[str],
) -> JsonObject:
    system, user = inputs
    case: dict[str, Any] = {"input": user}
    if system:
        case["system"] = system
    if expect:
        case["expect"] = json.loads(json.dumps(expect))
    metadata: dict[str, Any] = {"promptfoo_test": test.where, "promptfoo_prompt": prompt.where}
    if test.description:
        metadata["description"] = test.description
    if test.metadata:
        metadata["promptfoo_metadata"] = test.metadata
    if unmapped:
        metadata["import_unmapped"] = list(unmapped)
    case["metadata"] = metadata
    return case


def _test_cases(
    prompts: list[Prompt], test: Test, default: Test, refs: FileRefs, summary: ImportSummary
) -> list[list[JsonObject]]:
    """For each prompt, the cases of one test (one per set of vars)."""
    variables = _file_vars({**default.vars, **test.vars}, refs, test.where, summary)
    if variables is None:
        return []
    expect, unmapped = _expect(test, default, refs, summary)
    sets = _expanded(variables, test.where, summary)
    out = []
    for prompt in prompts:
        built = [_input(prompt, test, default, one, summary) for one in sets]
        out.append([_case(prompt, test, b, expect, unmapped) for b in built if b is not None])
    return out


def import_promptfoo(
    path: Path, name: str | None = None, *, root: Path | None = None, encoding: str | None = None
) -> ImportResult:
    """The tests of a promptfoo config as a suite (one case per prompt and test).

    Files the config names are read relative to it, and only inside ``root`` (default: the
    config's folder)."""
    refs = FileRefs.beside(path, root, encoding)
    found = load_config(path, refs)
    summary = ImportSummary(source=path.name)
    default = _default_test(found.data.get("defaultTest"), refs, summary)
    for section, why in _NOT_READ.items():
        if found.data.get(section):
            summary.miss(f"{section}: {why}", found.where(section, 0))
    prompts, tests = load_prompts(found, refs, summary), load_tests(found, refs, summary)
    taken: set[str] = set()
    cases = []
    size = 0
    for t, test in enumerate(tests, start=1):
        for p, made in enumerate(_test_cases(prompts, test, default, refs, summary), start=1):
            size += sum(len(str(c["input"])) + len(str(c.get("system") or "")) for c in made)
            if size > MAX_SUITE_CHARS:
                raise InputError(
                    f"{test.where}: the suite would hold more than {MAX_SUITE_CHARS:,} "
                    "characters of prompts",
                    hint="import the tests in parts, or use fewer or smaller vars",
                )
            for v, case in enumerate(made, start=1):
                label = (
                    f"t{t:03d}"
                    + (f"-p{p}" if len(prompts) > 1 else "")
                    + (f"-v{v}" if len(made) > 1 else "")
                )
                cases.append({"id": case_id(label, taken), **case})
    summary.cases = len(cases)
    stem = path.name.removesuffix(".yaml").removesuffix(".yml")
    description = scalar_text(found.data.get("description"))
    suite: dict[str, Any] = {
        "suite": suite_name(name or description or stem),
        "description": description or f"imported from {path.name}",
        "cases": cases,
    }
    return ImportResult(suite, summary)


def _default_test(raw: Any, refs: FileRefs, summary: ImportSummary) -> Test:
    if isinstance(raw, str) and raw.startswith("file://"):
        raw = read_value(raw, refs, "defaultTest")
    if raw is None:
        return Test(where="defaultTest")
    if not isinstance(raw, dict):
        summary.miss("defaultTest that is not a mapping: not read", "defaultTest")
        return Test(where="defaultTest")
    return to_test(raw, "defaultTest", summary, refs)
