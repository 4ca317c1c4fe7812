"""Coverage: what suites test, per framework and category, and what a run failed in each."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from failproof.cli import main
from failproof.core import Case, Suite
from failproof.coverage import Coverage, suite_coverage
from failproof.report import Report


def _suite(name: str, *taxonomies: list[str]) -> Suite:
    cases = tuple(
        Case(id=f"{name}-{i}", suite=name, input="x", taxonomy=t) for i, t in enumerate(taxonomies)
    )
    return Suite(name=name, cases=cases)


@pytest.fixture
def found() -> Coverage:
    return suite_coverage(
        [
            _suite("a", ["owasp-llm:LLM01", "atlas:AML.T0051.001"], ["owasp-llm:LLM07"], []),
            _suite("b", ["owasp-llm:LLM01", "failproof:cyber"]),
        ]
    )


def test_each_category_counts_its_cases_and_names_suites_and_cases(found: Coverage) -> None:
    owasp = found.framework("owasp-llm")
    assert owasp is not None
    llm01 = next(c for c in owasp.categories if c.code == "LLM01")
    assert (llm01.cases, llm01.suites, llm01.case_ids) == (2, ["a", "b"], ["a/a-0", "b/b-0"])
    assert (found.cases, found.unlabelled, found.suites) == (4, 1, ["a", "b"])


def test_every_owasp_category_is_listed_and_the_untested_are_named(found: Coverage) -> None:
    owasp = found.framework("owasp-llm")
    assert owasp is not None
    assert [c.code for c in owasp.categories] == [f"LLM{n:02d}" for n in range(1, 11)]
    untested = ["LLM02", "LLM03", "LLM04", "LLM05", "LLM06", "LLM08", "LLM09", "LLM10"]
    assert [c.code for c in owasp.untested] == untested


def test_untested_supply_chain_and_poisoning_say_what_testing_them_needs(found: Coverage) -> None:
    owasp = found.framework("owasp-llm")
    assert owasp is not None
    needs = {c.code: c.needs for c in owasp.categories}
    assert needs["LLM03"] and "checksum" in needs["LLM03"]
    assert needs["LLM04"] and "fine-tun" in needs["LLM04"]
    assert needs["LLM01"] is None


def test_an_atlas_sub_technique_also_covers_its_technique(found: Coverage) -> None:
    atlas = found.framework("atlas")
    assert atlas is not None
    cases = {c.code: c.cases for c in atlas.categories}
    assert cases["AML.T0051.001"] == 1 and cases["AML.T0051"] == 1
    assert cases["AML.T0070"] == 0


def test_an_unlisted_atlas_technique_gets_its_own_row() -> None:
    found = suite_coverage([_suite("a", ["atlas:AML.T0099"])])
    atlas = found.framework("atlas")
    assert atlas is not None
    row = next(c for c in atlas.categories if c.code == "AML.T0099")
    assert (row.cases, row.name) == (1, "")


def test_the_json_lists_every_owasp_category_of_the_built_in_suites(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["suites", "coverage", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    owasp = next(f for f in data["frameworks"] if f["key"] == "owasp-llm")
    by_code = {c["code"]: c for c in owasp["categories"]}
    assert sorted(by_code) == [f"LLM{n:02d}" for n in range(1, 11)]
    for code in ("LLM03", "LLM04"):
        assert by_code[code]["cases"] == 0 and by_code[code]["needs"]


def test_the_table_names_what_nothing_tests(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["suites", "coverage", "over_refusal"]) == 0
    out = capsys.readouterr().out
    assert "not tested by these suites (owasp-llm)" in out and "LLM01 Prompt Injection" in out
    assert "over_refusal" in out


def test_an_unknown_format_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["suites", "coverage", "--format", "xml"]) != 0


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home, out = tmp_path_factory.mktemp("home"), tmp_path_factory.mktemp("out")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FAILPROOF_HOME", str(home))
        code = main(["run", "injection", "secret_leak", "--target", "mock", "-o", str(out)])
    assert code in (0, 1, 2)
    return out


def test_the_run_report_counts_answers_and_failures_per_category(run_dir: Path) -> None:
    data = json.loads((run_dir / "report.json").read_text())
    answers, failed = Counter[str](), Counter[str]()
    for result in data["results"]:
        primary = result["classification"]["primary"]
        for tid in result["taxonomy"]:
            answers[tid] += 1
            failed[tid] += primary in ("fail", "refusal", "wrong_format", "policy_violation")
    section = Coverage.model_validate(data["extensions"]["coverage"])  # closed: no other key
    rows = {c.id: c for f in section.frameworks for c in f.categories}
    assert answers["owasp-llm:LLM07"] > 0 and failed["owasp-llm:LLM01"] > 0
    for tid, n in answers.items():
        assert (rows[tid].cases, rows[tid].failed) == (n, failed[tid]), tid
    assert rows["owasp-llm:LLM10"].cases == 0


def test_markdown_and_html_show_the_coverage_table(run_dir: Path) -> None:
    markdown = (run_dir / "report.md").read_text()
    assert "### Coverage by taxonomy" in markdown
    assert "| `owasp-llm:LLM07` | System Prompt Leakage |" in markdown
    assert "not tested by this run" in markdown and "LLM03" in markdown
    html = (run_dir / "report.html").read_text()
    assert "Coverage by taxonomy" in html and "owasp-llm:LLM07" in html


def test_the_console_shows_the_coverage_table(
    run_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads((run_dir / "report.json").read_text())
    from failproof.report._console import ConsoleRenderer

    text = ConsoleRenderer(color=False, width=160).render(Report.model_validate(data))
    assert "OWASP Top 10 for LLM Applications 2025" in text
    assert "System Prompt Leakage" in text and "not tested by this run (owasp-llm)" in text


def test_the_section_is_held_as_its_closed_model() -> None:
    from failproof.core import CaseResult, Classification, Run
    from failproof.metrics import aggregate_run

    results = [
        CaseResult(
            case_id=f"c{i}",
            suite="s",
            category="x",
            severity="high",
            taxonomy=["owasp-llm:LLM09"],
            classification=Classification(primary="fail" if i else "pass"),
        )
        for i in range(3)
    ]
    section = aggregate_run(Run(id="r", target={"name": "t"}), results).extensions["coverage"]
    assert isinstance(section, Coverage)
    owasp = section.framework("owasp-llm")
    assert owasp is not None
    llm09 = next(c for c in owasp.categories if c.code == "LLM09")
    assert (llm09.cases, llm09.failed, llm09.case_ids) == (3, 2, ["s/c1", "s/c2"])


@pytest.mark.parametrize("width", [80, 100, 140])
def test_the_console_table_keeps_its_numbers_at_any_width(run_dir: Path, width: int) -> None:
    from failproof.report._console import ConsoleRenderer

    data = json.loads((run_dir / "report.json").read_text())
    text = ConsoleRenderer(color=False, width=width).render(Report.model_validate(data))
    section = Coverage.model_validate(data["extensions"]["coverage"])
    owasp = section.framework("owasp-llm")
    assert owasp is not None
    llm07 = next(c for c in owasp.categories if c.code == "LLM07")
    row = next(line for line in text.splitlines() if line.startswith("LLM07"))
    numbers = [cell.strip() for cell in row.split("│")[2:4]]
    assert numbers == [str(llm07.cases), str(llm07.failed)]


@pytest.mark.parametrize(
    ("primary", "failed", "errors"),
    [
        pytest.param("unsafe_tool_call", 1, 0, id="an-unsafe-tool-call-fails-its-category"),
        pytest.param("tool_error", 1, 0, id="a-tool-error-fails-its-category"),
        pytest.param("policy_violation", 1, 0, id="a-policy-violation-fails-its-category"),
        pytest.param("error", 0, 1, id="a-target-error-is-counted-apart"),
        pytest.param("pass", 0, 0, id="a-pass-fails-nothing"),
    ],
)
def test_a_category_fails_with_every_answer_whose_verdict_fails(
    primary: str, failed: int, errors: int
) -> None:
    from failproof.core import CaseResult, Classification, Run
    from failproof.metrics import aggregate_run

    result = CaseResult(
        case_id="c",
        suite="s",
        category="x",
        severity="high",
        taxonomy=["owasp-llm:LLM06"],
        classification=Classification.model_validate({"primary": primary}),
        error="HTTP 500" if primary == "error" else None,
    )
    section = aggregate_run(Run(id="r", target={"name": "t"}), [result]).extensions["coverage"]
    assert isinstance(section, Coverage)
    owasp = section.framework("owasp-llm")
    assert owasp is not None
    llm06 = next(c for c in owasp.categories if c.code == "LLM06")
    assert (llm06.cases, llm06.failed, llm06.errors) == (1, failed, errors)


def test_a_scorer_that_failed_fails_the_category_even_when_the_classifier_passed() -> None:
    from failproof.core import CaseResult, Classification, Run
    from failproof.metrics import aggregate_run

    result = CaseResult(
        case_id="c",
        suite="s",
        category="x",
        severity="high",
        taxonomy=["owasp-llm:LLM01"],
        classification=Classification(primary="pass"),
        scores={"probe": {"scorer_error": "RuntimeError('boom')"}},
    )
    section = aggregate_run(Run(id="r", target={"name": "t"}), [result]).extensions["coverage"]
    assert isinstance(section, Coverage)
    owasp = section.framework("owasp-llm")
    assert owasp is not None
    assert next(c for c in owasp.categories if c.code == "LLM01").failed == 1
