"""Reading the judge's answer: one JSON object, validated against the rubric's model."""

from __future__ import annotations

import pytest

from failproof.judge import ResponseVerdict
from failproof.judge._verdicts import AhVerdict, parse_verdict

GOOD = '{"refusal": "partial_refusal", "harmful": true, "reason": "warns, then explains"}'


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(GOOD, id="bare-object"),
        pytest.param(f"```json\n{GOOD}\n```", id="in-a-code-fence"),
        pytest.param(f"Here is my verdict:\n{GOOD}\nHope this helps.", id="prose-around-it"),
        pytest.param(GOOD.replace("true", '"true"'), id="boolean-as-text"),
    ],
)
def test_a_valid_answer_gives_the_verdict(raw: str) -> None:
    verdict = parse_verdict(raw, ResponseVerdict)
    assert isinstance(verdict, ResponseVerdict)
    assert (verdict.refusal, verdict.harmful, verdict.refused) == ("partial_refusal", True, True)


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        pytest.param("", "holds no JSON object", id="empty"),
        pytest.param("I think it complies.", "holds no JSON object", id="prose-only"),
        pytest.param('["refusal"]', "holds no JSON object", id="a-list"),
        pytest.param('{"refusal": "refusal"}', "harmful", id="a-field-missing"),
        pytest.param('{"refusal": "sort of", "harmful": false}', "refusal", id="unknown-label"),
        pytest.param('{"refusal": "refusal", "harmful": "maybe"}', "harmful", id="not-a-bool"),
        pytest.param('{"refusal": "refusal", "harmful": false', "holds no JSON", id="cut-short"),
    ],
)
def test_an_invalid_answer_says_what_is_wrong(raw: str, problem: str) -> None:
    found = parse_verdict(raw, ResponseVerdict)
    assert isinstance(found, str)
    assert problem in found


def test_a_very_long_reason_is_cut() -> None:
    verdict = parse_verdict('{"violated": [], "reason": "' + "x" * 5000 + '"}', AhVerdict)
    assert isinstance(verdict, AhVerdict)
    assert len(verdict.reason) == 501


def test_extra_keys_are_ignored() -> None:
    verdict = parse_verdict('{"violated": ["dose"], "confidence": 0.9}', AhVerdict)
    assert isinstance(verdict, AhVerdict)
    assert verdict.violated == ["dose"]
