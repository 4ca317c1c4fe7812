"""The http: target: body templates, JSON paths, headers from the environment."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from tests.fakes.openai_server import FakeOpenAI, Status

from failproof.core import Case, Message, Response
from failproof.errors import TargetError
from failproof.targets import CallError, create_target
from failproof.targets._http import fill_template, parse_json_path, pick

HOSTILE = 'He said "stop" \\ then }]} {{input}} ${HOME}\n'
CASE = Case(id="c1", suite="s", input=HOSTILE, system="sys")


def call(spec: str, case: Case = CASE, **options: Any) -> Response:
    async def go() -> Response:
        async with create_target(spec, options) as target:
            return await target.generate(case)

    return asyncio.run(go())


@pytest.mark.parametrize(
    ("path", "steps"),
    [
        pytest.param("choices.0.message.content", ["choices", 0, "message", "content"], id="dots"),
        pytest.param("$.data.answer", ["data", "answer"], id="dollar"),
        pytest.param("$.items[2].text", ["items", 2, "text"], id="brackets"),
    ],
)
def test_json_path_forms(path: str, steps: list[str | int]) -> None:
    assert parse_json_path(path) == steps


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("garbage[[", id="unclosed-brackets"),
        pytest.param("a..b", id="empty-key"),
        pytest.param("items[x]", id="index-not-a-number"),
        pytest.param("items[0]text", id="key-without-a-dot"),
    ],
)
def test_a_malformed_json_path_is_an_error_not_a_missing_key(path: str) -> None:
    with pytest.raises(TargetError, match="cannot be read from"):
        parse_json_path(path)


def test_pick_names_the_missing_step() -> None:
    with pytest.raises(LookupError) as caught:
        pick({"data": {"x": 1}}, ["data", "answer"])
    assert caught.value.args[0] == "answer"


def test_a_whole_placeholder_keeps_its_json_type_and_text_is_substituted_as_text() -> None:
    fields = {"messages": [{"role": "user", "content": "hi"}], "id": "c1", "input": "hi"}
    body = {"m": "{{messages}}", "q": "case {{id}}: {{input}}", "n": 3}
    assert fill_template(body, fields) == {
        "m": [{"role": "user", "content": "hi"}],
        "q": "case c1: hi",
        "n": 3,
    }


def test_case_text_is_json_encoded_never_spliced_into_the_body(fake_openai: FakeOpenAI) -> None:
    response = call(
        f"http:http://127.0.0.1:{fake_openai.port}/app",
        body={"question": "{{input}}"},
        json_path="$.data.answer",
    )
    assert response.error is None
    assert fake_openai.requests[-1]["body"] == {"question": HOSTILE}
    assert response.output == HOSTILE


def test_default_body_sends_the_messages(fake_openai: FakeOpenAI) -> None:
    case = Case(id="c2", suite="s", input=[Message(role="user", content="hello")])
    response = call(f"http:http://127.0.0.1:{fake_openai.port}/app", case, json_path="data.answer")
    assert response.output == "hello"
    assert fake_openai.requests[-1]["body"] == {"messages": [{"role": "user", "content": "hello"}]}


def test_headers_expand_the_environment_at_call_time_and_stay_out_of_identity(
    fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = f"http://127.0.0.1:{fake_openai.port}/app"
    target = create_target(spec, {"headers": {"Authorization": "Bearer ${APP_TOKEN}"}})
    monkeypatch.setenv("APP_TOKEN", "tok-late-bound-42")

    async def go() -> None:
        async with target:
            await target.generate(CASE)

    asyncio.run(go())
    assert fake_openai.requests[-1]["headers"]["Authorization"] == "Bearer tok-late-bound-42"
    assert "tok-late" not in repr(target.identity())


def test_a_literal_secret_header_is_refused() -> None:
    with pytest.raises(TargetError, match="environment"):
        create_target("http:http://127.0.0.1:9/x", {"headers": {"X-Api-Key": "abc123"}})


def test_an_unset_header_variable_fails_the_call_naming_only_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MISSING_TOKEN", raising=False)
    with pytest.raises(CallError, match="MISSING_TOKEN"):
        call("http:http://127.0.0.1:9/x", headers={"Authorization": "Bearer ${MISSING_TOKEN}"})


def test_a_missing_json_path_is_an_error_response(fake_openai: FakeOpenAI) -> None:
    response = call(f"http:http://127.0.0.1:{fake_openai.port}/app", json_path="$.data.nope")
    assert response.error is not None and "'nope'" in response.error


def test_without_a_json_path_the_whole_body_is_the_output(fake_openai: FakeOpenAI) -> None:
    response = call(f"http:http://127.0.0.1:{fake_openai.port}/app")
    assert response.parsed == {"data": {"answer": CASE.messages()[-1].content}}


def test_status_errors_are_mapped_like_openai(fake_openai: FakeOpenAI) -> None:
    fake_openai.default = Status(429, "1")
    with pytest.raises(CallError) as caught:
        call(f"http:http://127.0.0.1:{fake_openai.port}/app")
    assert (caught.value.retryable, caught.value.retry_after) == (True, 1.0)


def test_a_body_that_is_not_json_is_a_target_error() -> None:
    with pytest.raises(TargetError, match="not valid JSON"):
        create_target("http:http://127.0.0.1:9/x", {"body": "{question: {{input}}"})


TURNS = Case(
    id="turns",
    suite="s",
    input=[
        Message(role="user", content="My name is Ada."),
        Message(role="assistant", content="Hello Ada."),
        Message(role="user", content="What is my name?"),
    ],
)
PLAIN = Case(id="plain", suite="s", input="hi")


@pytest.mark.parametrize(
    ("body", "cases", "lost"),
    [
        pytest.param({"q": "{{input}}"}, [PLAIN, CASE], "system prompt of 1 of 2", id="input-only"),
        pytest.param({"q": "{{input}}"}, [TURNS], "earlier turns", id="input-drops-turns"),
        pytest.param(
            {"s": "{{system}}", "q": "{{input}}"}, [TURNS], "earlier turns", id="system-no-turns"
        ),
        pytest.param({"q": "{{task}} {{input}}"}, [CASE], "system prompt", id="task-no-system"),
    ],
)
def test_a_template_that_drops_what_a_case_holds_refuses_to_start(
    body: dict[str, str], cases: list[Case], lost: str
) -> None:
    target = create_target("http:http://127.0.0.1:9/x", {"body": body})
    with pytest.raises(TargetError, match=lost) as caught:
        target.check_cases(cases)
    assert caught.value.hint is not None
    for fix in ("{{messages}}", "{{messages_json}}", "--allow-dropped-system"):
        assert fix in caught.value.hint
    assert ("{{system}}" in caught.value.hint) == (lost != "earlier turns")


@pytest.mark.parametrize(
    "body",
    [
        pytest.param({"messages": "{{messages}}"}, id="messages"),
        pytest.param({"history": "{{messages_json}}"}, id="messages-json"),
        pytest.param({"text": "{{prompt}}"}, id="prompt"),
    ],
)
def test_a_template_that_carries_every_message_starts(body: dict[str, str]) -> None:
    target = create_target("http:http://127.0.0.1:9/x", {"body": body})
    target.check_cases([CASE, TURNS, PLAIN])


def test_system_plus_input_is_enough_for_single_turn_cases() -> None:
    target = create_target(
        "http:http://127.0.0.1:9/x", {"body": {"s": "{{system}}", "q": "{{input}}"}}
    )
    target.check_cases([CASE, PLAIN])


def test_allow_dropped_system_lets_the_run_start() -> None:
    options = {"body": {"q": "{{input}}"}, "allow_dropped_system": True}
    create_target("http:http://127.0.0.1:9/x", options).check_cases([CASE, TURNS])


def test_an_unknown_placeholder_is_refused_at_start_naming_the_known_ones() -> None:
    with pytest.raises(TargetError, match=r"\{\{question\}\}") as caught:
        create_target("http:http://127.0.0.1:9/x", {"body": {"q": "{{question}}"}})
    assert "{{messages_json}}" in (caught.value.hint or "")


def test_messages_json_is_the_message_list_as_a_json_string(fake_openai: FakeOpenAI) -> None:
    call(f"http:http://127.0.0.1:{fake_openai.port}/app", body={"question": "{{messages_json}}"})
    sent = fake_openai.requests[-1]["body"]["question"]
    assert json.loads(sent) == [{"role": m.role, "content": m.content} for m in CASE.messages()]


def test_the_response_records_the_exact_body_sent_with_secrets_redacted(
    fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("APP_SECRET", "s3cret-in-the-url-999")
    response = call(
        f"http:http://127.0.0.1:{fake_openai.port}/app?k=${{APP_SECRET}}",
        PLAIN.model_copy(update={"input": "echo s3cret-in-the-url-999 back"}),
        body={"question": "{{input}}"},
    )
    assert response.request_body == '{"question": "echo [redacted] back"}'
    assert fake_openai.requests[-1]["body"] == {"question": "echo s3cret-in-the-url-999 back"}


def test_a_failed_call_still_records_the_body_sent(fake_openai: FakeOpenAI) -> None:
    fake_openai.default = Status(400)
    with pytest.raises(CallError) as caught:
        call(f"http:http://127.0.0.1:{fake_openai.port}/app", body={"question": "{{input}}"})
    assert caught.value.request_body == json.dumps({"question": HOSTILE}, ensure_ascii=False)
