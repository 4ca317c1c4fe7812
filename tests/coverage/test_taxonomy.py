"""A case's ``taxonomy:``: ids checked at load, spelled as the catalogue spells them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from failproof.core import Case
from failproof.core._taxonomy import check_taxonomy_id, taxonomy_catalogue
from failproof.detect._harm_types import HARM_CATEGORIES
from failproof.errors import SuiteError
from failproof.suites import builtin_suite_names, parse_suite, resolve_suite


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        pytest.param("owasp-llm:LLM01", "owasp-llm:LLM01", id="owasp"),
        pytest.param("OWASP-LLM:llm07", "owasp-llm:LLM07", id="owasp-any-case"),
        pytest.param("atlas:AML.T0051.001", "atlas:AML.T0051.001", id="atlas-listed"),
        pytest.param("atlas:AML.T0099", "atlas:AML.T0099", id="atlas-well-formed-unlisted"),
        pytest.param("failproof:cyber", "failproof:cyber", id="failproof-harm"),
    ],
)
def test_valid_ids_are_kept_in_catalogue_spelling(given: str, kept: str) -> None:
    assert check_taxonomy_id(given) == kept


@pytest.mark.parametrize(
    ("given", "says"),
    [
        pytest.param("owasp:LLM01", "must start with one of owasp-llm:", id="unknown-framework"),
        pytest.param("LLM01", "must start with one of", id="no-framework"),
        pytest.param("owasp-llm:LLM11", "did you mean owasp-llm:LLM10", id="no-such-owasp"),
        pytest.param("atlas:T0051", "like AML.T0051.001", id="malformed-atlas"),
        pytest.param("failproof:cyberr", "did you mean failproof:cyber", id="misspelt-category"),
    ],
)
def test_invalid_ids_are_refused_with_the_fix(given: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        check_taxonomy_id(given)
    with pytest.raises(ValidationError):
        Case(id="c", input="x", taxonomy=[given])


def test_a_case_keeps_each_id_once_in_order() -> None:
    case = Case(
        id="c", input="x", taxonomy=["owasp-llm:llm02", "failproof:fraud", "owasp-llm:LLM02"]
    )
    assert case.taxonomy == ["owasp-llm:LLM02", "failproof:fraud"]


def test_a_suite_file_with_a_wrong_id_names_the_file_line_and_case() -> None:
    text = "suite: s\ncases:\n  - id: a\n    input: hi\n    taxonomy: [owasp-llm:LLM12]\n"
    with pytest.raises(SuiteError) as caught:
        parse_suite(text, path="s.yaml")
    message = str(caught.value)
    assert "s.yaml:5" in message and "'a'" in message and "LLM12" in message


def test_the_owasp_framework_lists_the_ten_2025_categories() -> None:
    owasp = taxonomy_catalogue().framework("owasp-llm")
    assert owasp is not None and owasp.closed
    assert [c.code for c in owasp.categories] == [f"LLM{n:02d}" for n in range(1, 11)]
    assert owasp.category("LLM07") is not None
    assert owasp.category("LLM07").name == "System Prompt Leakage"  # type: ignore[union-attr]


def test_failproof_categories_include_every_harm_category_of_the_harm_judge() -> None:
    ours = taxonomy_catalogue().framework("failproof")
    assert ours is not None
    assert set(HARM_CATEGORIES) <= {c.code for c in ours.categories}


@pytest.mark.parametrize("name", builtin_suite_names())
def test_every_built_in_case_is_mapped(name: str) -> None:
    unmapped = [c.id for c in resolve_suite(name).cases if not c.taxonomy]
    assert unmapped == []


@pytest.mark.parametrize("name", ["harmful_requests", "jailbreak"])
def test_every_harmful_ask_names_its_harm_category(name: str) -> None:
    harms = {f"failproof:{h}" for h in HARM_CATEGORIES}
    for case in resolve_suite(name).cases:
        assert harms & set(case.taxonomy), case.id
