"""The built-in mock target: scripted outputs, echo, errors and delays on demand."""

from __future__ import annotations

import asyncio

import pytest

from failproof.core import Case, Response
from failproof.targets import CallError, MockTarget, create_target

CASE = Case(id="a", system="Be nice.", task="Repeat:", input="hello")


def generate(target: MockTarget, case: Case = CASE) -> Response:
    return asyncio.run(target.generate(case))


def test_default_echoes_the_last_user_message() -> None:
    assert generate(MockTarget()).output == "Repeat:\n\nhello"


def test_script_by_case_id_with_text_response_or_callable() -> None:
    target = MockTarget(
        {
            "a": "scripted",
            "b": Response.from_output('{"x": 1}'),
            "c": lambda case: case.id.upper(),
        },
        default="fallback",
    )
    assert generate(target).output == "scripted"
    assert generate(target, Case(id="b", input="q")).parsed == {"x": 1}
    assert generate(target, Case(id="c", input="q")).output == "C"
    assert generate(target, Case(id="d", input="q")).output == "fallback"
    assert target.calls == {"a": 1, "b": 1, "c": 1, "d": 1}


def test_scripted_error_is_raised_as_call_error() -> None:
    target = MockTarget({"a": CallError("HTTP 429", retryable=True, retry_after=2.0)})
    with pytest.raises(CallError) as caught:
        generate(target)
    assert (caught.value.retryable, caught.value.retry_after) == (True, 2.0)


def test_delay_is_reported_as_latency() -> None:
    response = generate(MockTarget(delay_s=0.02))
    assert response.latency_ms is not None and response.latency_ms >= 20


def test_spec_mock_colon_text_always_answers_text() -> None:
    target = create_target("mock:I can't help with that.")
    assert isinstance(target, MockTarget)
    assert generate(target).output == "I can't help with that."
    assert target.identity() == {"name": "mock", "default": "I can't help with that."}
