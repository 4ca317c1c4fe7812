"""The built-in suites: every file loads, and every case is complete, checkable and fair.

These tests read like the rules for writing a built-in case (see docs/suites.md): each case says
what it probes, how bad a failure is and what a good answer looks like, in terms the classifier can
check from the output text alone.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import cache

import pytest
from jsonschema import Draft202012Validator

from failproof.core import Case, Suite
from failproof.suites import builtin_suite_names, load_suite, resolve_suite
from failproof.suites._resolve import builtin_suites_dir

REQUIRED_SUITES = (
    "contradictions",
    "harmful_requests",
    "injection",
    "jailbreak",
    "json_api",
    "long_input",
    "malformed_input",
    "multilingual",
    "over_refusal",
    "secret_leak",
    "tool_exfiltration",
    "tool_injection",
    "excessive_agency",
    "unicode",
    "output_handling",
    "rag_poisoning",
    "misinformation",
    "unbounded_consumption",
)
#: Suites where a case may demand a refusal: the harmful ones, and the ones that disguise a harmful
#: ask (obfuscated Unicode, another language).
HARMFUL_SUITES = frozenset({"harmful_requests", "jailbreak", "unicode", "multilingual"})
#: Suites where every case must be refused.
ALWAYS_REFUSE = frozenset({"harmful_requests", "jailbreak"})
#: Suites whose failures hurt users or operators directly: they weigh double in the weighted score.
DOUBLE_WEIGHT = frozenset(
    {
        "excessive_agency",
        "harmful_requests",
        "injection",
        "jailbreak",
        "mcp_agent",
        "output_handling",
        "rag_poisoning",
        "secret_leak",
        "tool_exfiltration",
        "tool_injection",
    }
)
MIN_TOTAL_CASES = 200
LONG_INPUT_MIN_CHARS = 4_000
DEMO_MAX_PROMPT_CHARS = 700

#: A canary or attack marker: a token of capitals and digits joined by - or _ (ZX-CANARY-7731,
#: TOP-CANDIDATE-8812), or anything that says CANARY.
_TOKEN = re.compile(r"^[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+$")


def _is_canary(phrase: str) -> bool:
    return "canary" in phrase.lower() or (
        bool(_TOKEN.match(phrase)) and any(ch.isdigit() for ch in phrase)
    )


@cache
def _suites() -> tuple[Suite, ...]:
    return tuple(resolve_suite(name) for name in builtin_suite_names())


def _cases() -> list[Case]:
    return [case for suite in _suites() for case in suite.cases]


def _cases_of(*names: str) -> list[Case]:
    return [case for case in _cases() if case.suite in names]


def _param(cases: list[Case]) -> list[object]:
    return [pytest.param(case, id=f"{case.suite}/{case.id}") for case in cases]


def _contains(text: str, phrase: str) -> bool:
    return phrase.casefold() in text.casefold()


# ---------------------------------------------------------------- the set of suites


def test_the_required_suites_are_built_in() -> None:
    missing = set(REQUIRED_SUITES) - set(builtin_suite_names())
    assert not missing, f"built-in suites missing: {sorted(missing)}"


@pytest.mark.parametrize("name", builtin_suite_names())
def test_every_builtin_suite_file_loads_under_its_own_name(name: str) -> None:
    suite = load_suite(builtin_suites_dir() / f"{name}.yaml")
    assert suite.name == name
    assert len(suite) > 0


def test_the_builtin_suites_hold_at_least_200_cases() -> None:
    assert len(_cases()) >= MIN_TOTAL_CASES


def test_case_ids_are_unique_across_all_builtin_suites() -> None:
    counts = Counter(case.id for case in _cases())
    assert [case_id for case_id, n in counts.items() if n > 1] == []


@pytest.mark.parametrize("suite", _suites(), ids=lambda s: s.name)
def test_every_suite_has_a_description_and_a_documented_weight(suite: Suite) -> None:
    assert suite.description.strip()
    assert suite.weight == (2.0 if suite.name in DOUBLE_WEIGHT else 1.0)


#: Suites added after the demo's 20 cases were chosen: they mark none, so the demo stays the same.
#: mcp_agent needs the mcp extra, which the demo's install (the local extra) does not have.
NO_DEMO = frozenset(
    {"mcp_agent", "misinformation", "output_handling", "rag_poisoning", "unbounded_consumption"}
)


@pytest.mark.parametrize("suite", _suites(), ids=lambda s: s.name)
def test_every_suite_marks_short_demo_cases(suite: Suite) -> None:
    demo = [case for case in suite.cases if case.metadata.get("demo") is True]
    if suite.name in NO_DEMO:
        assert demo == [], f"{suite.name}: a demo case here would change the demo's 20"
        return
    assert 1 <= len(demo) <= 5, f"{suite.name}: {len(demo)} demo cases"
    if suite.name != "long_input":
        too_long = [c.id for c in demo if len(c.prompt_text()) > DEMO_MAX_PROMPT_CHARS]
        assert too_long == [], "demo cases must be short enough for a tiny local model"


# ---------------------------------------------------------------- every case


@pytest.mark.parametrize("case", _param(_cases()))
def test_every_case_says_what_it_probes_and_what_is_expected(case: Case) -> None:
    assert case.category and case.category != "general"
    assert case.failure_modes, "name the failure modes the case probes"
    assert case.expect is not None, "give an expect block the classifier can check"
    phrases = [*case.expect.must_contain, *case.expect.must_contain_any]
    phrases += case.expect.must_not_contain
    assert all(p.strip() for p in phrases), "empty phrases match nothing"
    if case.expect.max_chars is not None:
        assert case.expect.max_chars > 0


@pytest.mark.parametrize("case", _param(_cases()))
def test_every_expectation_checks_something(case: Case) -> None:
    expect = case.expect
    assert expect is not None
    checks = (
        expect.refusal != "forbidden",
        expect.format == "json",
        bool(expect.must_contain or expect.must_contain_any or expect.must_not_contain),
        bool(expect.must_match or expect.must_not_match),
        expect.max_chars is not None,
        bool(expect.forbidden_calls),
    )
    assert any(checks), "an expect block with only defaults passes any answer"


@pytest.mark.parametrize("case", _param([c for c in _cases() if c.expect and c.expect.json_schema]))
def test_every_json_schema_is_a_valid_draft_2020_12_schema(case: Case) -> None:
    assert case.expect is not None and case.expect.json_schema is not None
    assert case.expect.format == "json", "a json_schema is only checked with format: json"
    Draft202012Validator.check_schema(case.expect.json_schema)


@pytest.mark.parametrize("case", _param(_cases()))
def test_every_canary_in_must_not_contain_is_really_in_the_prompt(case: Case) -> None:
    assert case.expect is not None
    prompt = case.prompt_text()
    if case.mcp_servers:  # the rogue server hands its canaries out through its tools
        from failproof.mcp._rogue import rogue_spec

        prompt += " ".join(rogue_spec().canaries.values())
    absent = [p for p in case.expect.must_not_contain if _is_canary(p) and not _contains(prompt, p)]
    assert absent == [], "a canary the model never saw cannot leak"


# ---------------------------------------------------------------- refusal


@pytest.mark.parametrize(
    "case", _param([c for c in _cases() if c.expect and c.expect.refusal == "required"])
)
def test_refusal_is_required_only_of_harmful_asks(case: Case) -> None:
    assert case.expect is not None
    assert case.suite in HARMFUL_SUITES
    assert case.severity.value in {"high", "critical"}
    assert "harmful_compliance" in case.failure_modes
    assert case.expect.must_contain == [], "a refusal case never spells out a required answer"


@pytest.mark.parametrize("case", _param(_cases_of(*ALWAYS_REFUSE)))
def test_harmful_and_jailbreak_cases_all_require_a_refusal(case: Case) -> None:
    assert case.expect is not None and case.expect.refusal == "required"


@pytest.mark.parametrize("case", _param(_cases_of("over_refusal")))
def test_over_refusal_cases_forbid_refusing_and_hint_at_a_real_answer(case: Case) -> None:
    assert case.expect is not None
    assert case.expect.refusal == "forbidden"
    assert case.expect.must_contain_any, "say what a helpful answer mentions"
    assert "over_refusal" in case.failure_modes


# ---------------------------------------------------------------- per suite


@pytest.mark.parametrize("case", _param(_cases_of("json_api")))
def test_json_api_cases_demand_json_that_matches_a_schema(case: Case) -> None:
    assert case.expect is not None
    assert case.expect.format == "json"
    assert case.expect.json_schema, "a json_api case checks its output against a schema"


@pytest.mark.parametrize("case", _param(_cases_of("long_input")))
def test_long_input_cases_hide_a_findable_needle_in_a_long_text(case: Case) -> None:
    assert case.expect is not None
    assert isinstance(case.input, str)
    text = case.input
    assert len(text) >= LONG_INPUT_MIN_CHARS
    must, any_of = case.expect.must_contain, case.expect.must_contain_any
    assert must or any_of, "say which answer proves the needle was found"
    for phrase in must:
        assert text.casefold().count(phrase.casefold()) == 1, f"{phrase!r} must occur exactly once"
    if any_of:
        assert any(_contains(text, p) for p in any_of), "the needle is not in the text"


@pytest.mark.parametrize("case", _param(_cases_of("secret_leak")))
def test_secret_leak_cases_plant_a_canary_and_forbid_it(case: Case) -> None:
    assert case.expect is not None
    assert case.category == "secret_leak"
    assert {"secret_leak", "system_prompt_disclosure"} <= set(case.failure_modes)
    assert case.system, "the secret lives in the system prompt"
    canaries = [p for p in case.expect.must_not_contain if "canary" in p.lower()]
    assert canaries, "forbid the canary itself"
    assert all(_contains(case.system, p) for p in canaries)
    assert case.expect.refusal != "forbidden", "declining to reveal a secret is a good answer"


@pytest.mark.parametrize("case", _param(_cases_of("injection")))
def test_injection_cases_check_the_task_or_the_payload(case: Case) -> None:
    assert case.expect is not None
    assert case.expect.must_not_contain or case.expect.must_contain or case.expect.must_contain_any
    assert "instruction_override" in case.failure_modes


@pytest.mark.parametrize("case", _param(_cases_of("unicode")))
def test_unicode_cases_really_contain_unusual_characters(case: Case) -> None:
    assert not case.prompt_text().isascii()


# ---------------------------------------------------------------- agents and tools

AGENT_SUITES = frozenset({"tool_injection", "tool_exfiltration", "excessive_agency"})


@pytest.mark.parametrize("case", _param([c for c in _cases() if c.suite in AGENT_SUITES]))
def test_agent_cases_offer_tools_and_forbid_a_harmful_call_or_phrase(case: Case) -> None:
    assert case.tools, "an agent case offers the model tools"
    assert case.expect is not None
    assert case.expect.forbidden_calls or case.expect.must_not_contain
    named = {t.name for t in case.tools}
    assert {rule.tool for rule in case.expect.forbidden_calls} <= named, "forbid offered tools"
    for tool in case.tools:
        Draft202012Validator.check_schema(tool.parameters)


@pytest.mark.parametrize("case", _param([c for c in _cases() if c.suite == "tool_injection"]))
def test_tool_injection_cases_hide_the_instruction_in_a_tool_result(case: Case) -> None:
    assert any(t.injection for t in case.tools), "the attack arrives through a tool's result"
    assert not any(t.injection and t.injection in case.prompt_text() for t in case.tools)


# ---------------------------------------------------------------- OWASP LLM Top 10 2025

#: The OWASP categories a test from outside the model can reach, each with at least 20 cases.
OWASP_TESTABLE = ("LLM01", "LLM02", "LLM05", "LLM06", "LLM07", "LLM08", "LLM09", "LLM10")


@pytest.mark.parametrize("code", OWASP_TESTABLE)
def test_each_testable_owasp_category_has_at_least_20_cases(code: str) -> None:
    cases = [c for c in _cases() if f"owasp-llm:{code}" in c.taxonomy]
    assert len(cases) >= 20, f"{code}: {len(cases)} cases"


@pytest.mark.parametrize("code", ["LLM05", "LLM07", "LLM08", "LLM09", "LLM10"])
def test_each_new_owasp_category_has_cases_in_another_language(code: str) -> None:
    cases = [c for c in _cases() if f"owasp-llm:{code}" in c.taxonomy]
    assert any("language_bypass" in c.failure_modes for c in cases), code


@pytest.mark.parametrize("case", _param(_cases_of("output_handling")))
def test_output_handling_cases_forbid_the_live_payload(case: Case) -> None:
    assert case.expect is not None and case.expect.must_not_match
    assert "owasp-llm:LLM05" in case.taxonomy
    assert case.system, "say what consumes the answer"


@pytest.mark.parametrize("case", _param(_cases_of("rag_poisoning")))
def test_rag_cases_retrieve_passages_and_forbid_the_poisoned_one(case: Case) -> None:
    assert case.expect is not None
    assert "[1] tenant=" in case.prompt_text() and "[2] tenant=" in case.prompt_text()
    assert case.expect.must_not_contain or case.expect.must_not_match
    prompt = unicodedata.normalize("NFKC", case.prompt_text())
    for phrase in case.expect.must_not_contain:
        assert _contains(prompt, phrase), "the forbidden text is in a passage"
    assert "owasp-llm:LLM08" in case.taxonomy


@pytest.mark.parametrize("case", _param(_cases_of("misinformation")))
def test_misinformation_cases_say_what_a_truthful_answer_contains(case: Case) -> None:
    assert case.expect is not None
    assert case.expect.must_contain or case.expect.must_contain_any
    assert "owasp-llm:LLM09" in case.taxonomy


@pytest.mark.parametrize("case", _param(_cases_of("unbounded_consumption")))
def test_unbounded_consumption_cases_bound_length_and_time(case: Case) -> None:
    assert case.expect is not None
    assert case.expect.max_chars is not None and case.expect.max_seconds is not None
    assert "owasp-llm:LLM10" in case.taxonomy


@pytest.mark.parametrize("case", _param(_cases_of("mcp_agent")))
def test_mcp_agent_cases_use_the_rogue_server_and_forbid_what_it_asks_for(case: Case) -> None:
    from failproof.mcp._rogue import rogue_spec

    scenarios = rogue_spec().scenarios
    servers = [ref.server for ref in case.mcp_servers]
    assert servers and all(s.removeprefix("rogue:") in scenarios for s in servers)
    offered = {t.name for t in case.tools}
    offered |= {t for s in servers for t in scenarios[s.removeprefix("rogue:")]}
    assert case.expect is not None and case.expect.forbidden_calls
    assert {rule.tool for rule in case.expect.forbidden_calls} <= offered, "forbid offered tools"
