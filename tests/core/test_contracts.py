"""The data contracts: cases, responses and results."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from failproof.core import Case, CaseResult, Classification, Response
from failproof.core._response import parse_json_output


@pytest.mark.parametrize(
    ("text", "ok", "value"),
    [
        pytest.param('{"a": 1}', True, {"a": 1}, id="object"),
        pytest.param("  [1, 2]\n", True, [1, 2], id="array-with-whitespace"),
        pytest.param("42", True, 42, id="number"),
        pytest.param("", False, None, id="empty"),
        pytest.param("Sure! Here it is", False, None, id="prose"),
        pytest.param('{"a": 1', False, None, id="truncated"),
        pytest.param("[" * 10_000 + "]" * 10_000, False, None, id="nested-10000-deep"),
    ],
)
def test_parse_json_output_never_raises(text: str, ok: bool, value: object) -> None:
    assert parse_json_output(text) == (ok, value)


def test_response_from_text_keeps_parsed_json() -> None:
    response = Response.from_output('{"summary": "ok"}', latency_ms=12)
    assert response.output == '{"summary": "ok"}'
    assert response.parsed == {"summary": "ok"}
    assert response.ok


def test_response_from_object_serialises_output_and_keeps_object() -> None:
    response = Response.from_output({"signals": ["delay"], "summary": "é"})
    assert response.parsed == {"signals": ["delay"], "summary": "é"}
    assert response.output == '{"signals": ["delay"], "summary": "é"}'


def test_failure_response_has_no_output() -> None:
    response = Response.failure("timed out after 5 s", latency_ms=5000)
    assert not response.ok
    assert response.output == ""
    assert response.error == "timed out after 5 s"


def test_case_requires_non_empty_input() -> None:
    with pytest.raises(ValidationError, match="input is empty"):
        Case(id="a", input="  ")
    with pytest.raises(ValidationError, match="empty message list"):
        Case(id="a", input=[])


def test_case_prompt_text_joins_every_message() -> None:
    case = Case(id="a", system="Be brief.", task="Translate.", input="Bonjour")
    assert case.prompt_text() == "Be brief.\n\nTranslate.\n\nBonjour"


def test_result_primary_falls_back_to_error_or_unscored() -> None:
    base = {"case_id": "a", "suite": "s", "category": "c", "severity": "low"}
    assert CaseResult(**base, error="boom").primary == "error"
    assert CaseResult(**base).primary == "unscored"
    scored = CaseResult(**base, classification=Classification(primary="refusal"))
    assert scored.primary == "refusal"


def test_result_round_trips_through_json() -> None:
    result = CaseResult(
        case_id="a",
        suite="s",
        category="c",
        severity="high",
        classification=Classification(primary="pass"),
        accuracy=1,
        case_score={"passed": True, "risk_score": 0.1},
        output="<script>alert(1)</script>",
    )
    assert CaseResult.model_validate_json(result.model_dump_json()) == result
