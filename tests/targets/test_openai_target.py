"""The openai: target against a real OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import asyncio
from importlib.util import find_spec
from typing import Any

import pytest
from tests.fakes.openai_server import (
    Answer,
    Behaviour,
    Drop,
    FakeOpenAI,
    Malformed,
    NoChoices,
    Raw,
    Status,
)

from failproof.core import Case, Response
from failproof.core._tools import MAX_TOOL_CALLS
from failproof.errors import TargetError
from failproof.targets import CallError, OpenAITarget, create_target
from failproof.targets._openai_sdk import OpenAISDKTarget

CASE = Case(id="c1", suite="s", system="Be brief.", task="Answer.", input="ping")
CONTENT = "Answer.\n\nping"


def call(spec: str, fake: FakeOpenAI, **options: Any) -> Response:
    async def go() -> Response:
        target = create_target(spec, {"base_url": fake.base_url, **options})
        async with target:
            return await target.generate(CASE)

    return asyncio.run(go())


@pytest.fixture(params=["openai:m", "openai-sdk:m"], ids=["aiohttp", "sdk"])
def spec(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_answer_carries_text_tokens_and_finish_reason(fake_openai: FakeOpenAI, spec: str) -> None:
    fake_openai.default = Answer("pong")
    response = call(spec, fake_openai)
    assert (response.output, response.error) == ("pong", None)
    assert (response.prompt_tokens, response.completion_tokens) == (7, 3)
    assert response.finish_reason == "stop"
    assert response.latency_ms is not None and response.latency_ms >= 0


def test_system_task_and_input_become_messages_and_params_pass_through(
    fake_openai: FakeOpenAI, spec: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MY_KEY", "sk-test-123456")
    call(spec, fake_openai, api_key_env="MY_KEY", params={"temperature": 0, "seed": 7, "top_k": 3})
    sent = fake_openai.requests[-1]
    assert sent["body"]["messages"] == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": CONTENT},
    ]
    assert sent["body"]["model"] == "m"
    assert (sent["body"]["temperature"], sent["body"]["seed"], sent["body"]["top_k"]) == (0, 7, 3)
    assert sent["headers"]["Authorization"] == "Bearer sk-test-123456"


@pytest.mark.parametrize(
    ("step", "retryable", "retry_after", "status"),
    [
        pytest.param(Status(429, "3"), True, 3.0, 429, id="429-with-retry-after-is-retryable"),
        pytest.param(Status(503, "2"), True, 2.0, 503, id="503-with-retry-after-is-retryable"),
        pytest.param(Status(500), True, None, 500, id="500-is-retryable"),
        pytest.param(Status(502), True, None, 502, id="502-is-retryable"),
        pytest.param(Status(400), False, None, 400, id="400-is-not-retryable"),
        pytest.param(Status(401), False, None, 401, id="401-is-not-retryable"),
        pytest.param(Status(404), False, None, 404, id="404-is-not-retryable"),
    ],
)
def test_http_errors_map_to_call_errors(
    fake_openai: FakeOpenAI,
    spec: str,
    step: Behaviour,
    retryable: bool,
    retry_after: float | None,
    status: int,
) -> None:
    fake_openai.default = step
    with pytest.raises(CallError) as caught:
        call(spec, fake_openai)
    error = caught.value
    assert (error.retryable, error.retry_after, error.status) == (retryable, retry_after, status)
    assert f"HTTP {status}" in error.message
    assert "scripted error" in error.message


def test_dropped_connection_is_a_retryable_connection_error(
    fake_openai: FakeOpenAI, spec: str
) -> None:
    fake_openai.default = Drop()
    with pytest.raises(CallError) as caught:
        call(spec, fake_openai)
    assert caught.value.retryable
    # the SDK's aiohttp bridge reports a dropped connection as a timeout
    assert caught.value.status == ("connection" if spec == "openai:m" else "timeout")


@pytest.mark.parametrize(
    ("step", "words"),
    [
        pytest.param(Malformed(), "not valid JSON", id="malformed-json-body"),
        pytest.param(NoChoices(), "without any choice", id="empty-choices"),
    ],
)
def test_unusable_bodies_give_a_clear_error_response(
    fake_openai: FakeOpenAI, step: Behaviour, words: str
) -> None:
    fake_openai.default = step
    response = call("openai:m", fake_openai)
    assert response.error is not None and words in response.error
    assert response.output == ""


def test_sdk_target_reports_an_unusable_body_as_an_error(fake_openai: FakeOpenAI) -> None:
    fake_openai.default = NoChoices()
    response = call("openai-sdk:m", fake_openai)
    assert response.error is not None and "without any choice" in response.error


def _tool_call(index: int) -> dict[str, Any]:
    return {"id": f"c{index}", "type": "function", "function": {"name": "f", "arguments": "{}"}}


@pytest.mark.parametrize(
    "shaped",
    [
        pytest.param("openai:m", id="aiohttp"),
        pytest.param("openai-sdk:m", id="sdk"),
        pytest.param(
            "litellm:openai/m",
            id="litellm",
            marks=pytest.mark.skipif(find_spec("litellm") is None, reason="providers extra"),
        ),
    ],
)
@pytest.mark.parametrize(
    ("message", "output", "calls"),
    [
        pytest.param(
            {"role": "assistant", "content": None, "refusal": "I will not help with that."},
            "I will not help with that.",
            0,
            id="a-refusal-without-content-is-the-output",
        ),
        pytest.param(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [_tool_call(i) for i in range(105)],
            },
            "",
            MAX_TOOL_CALLS,
            id="tool-calls-past-the-limit-are-cut-and-said",
        ),
    ],
)
def test_every_openai_shaped_target_reads_an_answer_alike(
    fake_openai: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
    shaped: str,
    message: dict[str, Any],
    output: str,
    calls: int,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-scripted-0123456789")  # litellm's openai/ needs one
    fake_openai.reply = lambda body: message
    response = call(shaped, fake_openai)
    assert (response.output, response.error, len(response.tool_calls)) == (output, None, calls)
    cut = response.repairs.tool_calls_cut if response.repairs else None
    assert cut == (105 if calls else None)


def _body(message: Any) -> dict[str, Any]:
    return {"id": "x", "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}


def _said(content: Any, **more: Any) -> dict[str, Any]:
    return _body({"role": "assistant", "content": content, **more})


# (LiteLLM checks a body's shape itself: a wrong one is its own call error, never an answer)
@pytest.mark.parametrize(
    "shaped",
    [
        pytest.param("openai:m", id="aiohttp"),
        pytest.param("openai-sdk:m", id="sdk"),
    ],
)
@pytest.mark.parametrize(
    ("payload", "words"),
    [
        pytest.param(_said(5), "message.content is a number", id="content-a-number"),
        pytest.param(_said({"text": "hi"}), "message.content is an object", id="content-an-object"),
        pytest.param(_said(True), "message.content is a boolean", id="content-a-boolean"),
        pytest.param(
            _said([{"type": "image_url", "image_url": {"url": "x"}}]),
            "without any text part",
            id="content-parts-without-text-and-no-tool-call",
        ),
        pytest.param(_body("pong"), "message is a string, not an object", id="message-a-string"),
        pytest.param(_body([]), "message is a list, not an object", id="message-a-list"),
        pytest.param(
            {"id": "x", "choices": [{"index": 0, "finish_reason": "stop"}]},
            "the choice has no message",
            id="no-message",
        ),
        pytest.param(
            _said(None, tool_calls={"name": "f"}),
            "message.tool_calls is an object, not a list",
            id="tool-calls-an-object",
        ),
        pytest.param(
            _said(None, tool_calls=[{"id": "c0", "function": {"arguments": "{}"}}]),
            "message.tool_calls[0] is not a tool call",
            id="tool-call-without-a-name",
        ),
        pytest.param(
            _said("hi", tool_calls=["f"]),
            "message.tool_calls[0] is not a tool call",
            id="tool-call-not-an-object",
        ),
    ],
)
def test_a_reply_of_the_wrong_shape_is_an_error_never_an_empty_answer(
    fake_openai: FakeOpenAI,
    shaped: str,
    payload: dict[str, Any],
    words: str,
) -> None:
    fake_openai.default = Raw(payload)
    response = call(shaped, fake_openai)
    assert response.error is not None
    assert "the server's answer is not a chat completion" in response.error
    assert words in response.error
    assert response.output == ""


@pytest.mark.parametrize(
    "shaped",
    [
        pytest.param("openai:m", id="aiohttp"),
        pytest.param("openai-sdk:m", id="sdk"),
    ],
)
@pytest.mark.parametrize(
    ("message", "output", "calls"),
    [
        pytest.param(
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Rome "},
                    {"type": "image_url", "image_url": {"url": "x"}},
                    {"type": "text", "text": "it is."},
                ],
            },
            "Rome it is.",
            0,
            id="content-parts-are-their-text-parts-joined",
        ),
        pytest.param(
            {"role": "assistant", "content": [], "tool_calls": [_tool_call(0)]},
            "",
            1,
            id="content-parts-without-text-beside-a-tool-call",
        ),
        pytest.param(
            {"role": "assistant", "content": None, "tool_calls": [_tool_call(0)]},
            "",
            1,
            id="null-content-beside-a-tool-call",
        ),
    ],
)
def test_content_parts_and_tool_calls_are_read(
    fake_openai: FakeOpenAI, shaped: str, message: dict[str, Any], output: str, calls: int
) -> None:
    fake_openai.reply = lambda body: message
    response = call(shaped, fake_openai)
    assert (response.output, response.error, len(response.tool_calls)) == (output, None, calls)


def test_a_named_key_variable_that_is_unset_is_a_target_error(
    fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NOPE_KEY", raising=False)
    with pytest.raises(TargetError, match="NOPE_KEY"):
        create_target("openai:m", {"base_url": fake_openai.base_url, "api_key_env": "NOPE_KEY"})


def test_openai_itself_needs_a_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    with pytest.raises(TargetError, match="OPENAI_API_KEY"):
        create_target("openai:gpt-4o-mini", {})


def test_base_url_comes_from_the_sdk_variable(
    fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", fake_openai.base_url)
    target = create_target("openai:m", {})
    assert isinstance(target, OpenAITarget)
    assert target.identity()["base_url"] == fake_openai.base_url


def test_identity_never_holds_the_key_or_url_credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-abcdef")
    target = create_target(
        "openai-sdk:m", {"base_url": "https://u:pw@example.test/v1?k=sk-secret-abcdef"}
    )
    assert isinstance(target, OpenAISDKTarget)
    text = repr(target.identity()) + repr(target.connection)
    assert "sk-secret" not in text
    assert "pw" not in text
    assert target.identity()["base_url"] == "https://example.test/v1"


def test_a_key_echoed_by_the_server_is_redacted(
    fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-echoed-987654")
    fake_openai.default = Status(401, message="Incorrect API key provided: sk-echoed-987654")
    with pytest.raises(CallError) as caught:
        call("openai:m", fake_openai)
    assert "sk-echoed" not in caught.value.message
    assert "[redacted]" in caught.value.message


def test_a_model_is_required() -> None:
    with pytest.raises(TargetError, match="needs a model"):
        create_target("openai", {"base_url": "http://127.0.0.1:9/v1"})


@pytest.mark.parametrize(
    ("params", "sent"),
    [
        pytest.param({"max_tokens": 100}, {"max_tokens": 100}, id="a-number-is-no-secret"),
        pytest.param(
            {"api_key": "${PARAM_KEY}"}, {"api_key": "sk-param-0123456789"}, id="env-reference"
        ),
    ],
)
def test_params_named_as_secrets_take_numbers_and_env_references(
    fake_openai: FakeOpenAI,
    monkeypatch: pytest.MonkeyPatch,
    params: dict[str, Any],
    sent: dict[str, Any],
) -> None:
    monkeypatch.setenv("PARAM_KEY", "sk-param-0123456789")
    call("openai:m", fake_openai, params=params)
    body = fake_openai.requests[-1]["body"]
    assert {k: body[k] for k in sent} == sent


def test_a_param_named_as_a_secret_with_a_literal_value_is_refused(
    fake_openai: FakeOpenAI,
) -> None:
    with pytest.raises(TargetError, match="'api_key' carries a literal value"):
        call("openai:m", fake_openai, params={"api_key": "sk-literal-0123456789"})
    assert fake_openai.requests == []
