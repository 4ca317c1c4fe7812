"""``litellm:`` against scripted servers on 127.0.0.1 speaking the Anthropic Messages and OpenAI
chat-completions wire formats: as target, attacker, judge and generator, with retries, the cache,
tool calls, token accounting, and no key anywhere failproof writes or prints."""

from __future__ import annotations

import asyncio
import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.attack.scripted import reply as attack_reply
from tests.attack.scripted import write_suite as write_attack_suite
from tests.author.scripted import reply as write_cases
from tests.fakes.anthropic_server import AnthropicThread, FakeAnthropic
from tests.fakes.openai_server import Answer, FakeOpenAI
from tests.judge.helpers import asked_about, verdict
from tests.runner.helpers import write_suite

from failproof.cli import main
from failproof.core import Case, ToolSpec
from failproof.suites import load_suite
from failproof.targets import create_target

# Not imported here: failproof imports it offline (its bundled cost map, no fetch from the web).
if importlib.util.find_spec("litellm") is None:
    pytest.skip("litellm (the providers extra) is not installed", allow_module_level=True)

ANTHROPIC_KEY = "sk-ant-scripted-0123456789abcdef"
OPENAI_KEY = "sk-openai-scripted-0123456789abcd"
CASES: list[dict[str, Any]] = [
    {
        "id": "capital",
        "input": "What is the capital of France?",
        "expect": {"must_contain": ["Paris"]},
    },
    {"id": "colour", "input": "Name a primary colour.", "expect": {"must_contain": ["red"]}},
]
ANSWERS = {"What is the capital of France?": "Paris.", "Name a primary colour.": "Blue."}
MODEL = "litellm:anthropic/claude-scripted"


def _text(body: dict[str, Any]) -> str:
    content = body["messages"][-1]["content"]
    if isinstance(content, str):
        return content
    return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))


def answer(body: dict[str, Any]) -> str:
    """Answers the cases; as the judge, says each answer is a plain compliance."""
    text = _text(body)
    for question, reply in ANSWERS.items():
        if text == asked_about(question, reply):
            return verdict("compliance", False, "answers the question")
    return ANSWERS.get(text, "I do not know.")


@pytest.fixture
def anthropic() -> Iterator[FakeAnthropic]:
    with AnthropicThread(FakeAnthropic(reply=answer)) as fake:
        yield fake


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ANTHROPIC_API_KEY", ANTHROPIC_KEY)
    monkeypatch.setenv("OPENAI_API_KEY", OPENAI_KEY)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    write_suite(tmp_path / "s.yaml", "s", CASES)
    return tmp_path


def _everything_written(home: Path, printed: str) -> str:
    files = [p for p in home.rglob("*") if p.is_file() and p.suffix != ".yaml"]
    return printed + "".join(p.read_bytes().decode("utf-8", "replace") for p in files)


def _report(home: Path) -> dict[str, Any]:
    [path] = home.glob("failproof-results/*/report.json")
    return dict(json.loads(path.read_text()))


def _run(fake_url: str, *more: str) -> int:
    argv = ["run", "s.yaml", "--target", MODEL, "--base-url", fake_url, "-q", *more]
    return main([*argv, "--param", "max_tokens=64"])


def test_as_target_through_the_anthropic_format(
    home: Path, anthropic: FakeAnthropic, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(anthropic.base_url) == 1  # "Blue." misses "red"
    results = {r["case_id"]: r for r in _report(home)["results"]}
    assert results["capital"]["output"] == "Paris." and results["capital"]["accuracy"] == 1
    assert results["colour"]["accuracy"] == 0
    assert (results["capital"]["prompt_tokens"], results["capital"]["completion_tokens"]) == (11, 5)
    sent = anthropic.requests[0]
    assert sent["headers"]["x-api-key"] == ANTHROPIC_KEY
    assert sent["body"]["model"] == "claude-scripted" and sent["body"]["max_tokens"] == 64
    captured = capsys.readouterr()
    written = _everything_written(home, captured.out + captured.err)
    assert ANTHROPIC_KEY not in written and OPENAI_KEY not in written


def test_as_target_through_the_openai_format(
    home: Path, fake_openai: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_openai.default = Answer("Paris, and red.")
    argv = ["run", "s.yaml", "--target", "litellm:openai/shop-model", "--base-url"]
    assert main([*argv, fake_openai.base_url, "-q"]) == 0
    sent = fake_openai.requests[0]
    assert sent["headers"]["Authorization"] == f"Bearer {OPENAI_KEY}"
    assert sent["body"]["model"] == "shop-model"
    assert _report(home)["results"][0]["prompt_tokens"] == 7
    captured = capsys.readouterr()
    assert OPENAI_KEY not in _everything_written(home, captured.out + captured.err)


def test_a_rate_limit_is_retried_and_a_rerun_comes_from_the_cache(
    home: Path, anthropic: FakeAnthropic
) -> None:
    anthropic.failures.append((429, "0"))
    _run(anthropic.base_url)
    assert len(anthropic.requests) == 3  # one 429, then both cases
    assert all(r["error"] is None for r in _report(home)["results"])
    for path in home.glob("failproof-results/*"):
        path.rename(home / f"first-{path.name}")
    _run(anthropic.base_url)
    assert len(anthropic.requests) == 3
    assert all(r["cached"] for r in _report(home)["results"])


def test_a_client_error_is_not_retried_and_names_no_key(
    home: Path, anthropic: FakeAnthropic
) -> None:
    anthropic.failures.extend([(400, None), (400, None)])
    _run(anthropic.base_url, "--retries", "2")
    assert len(anthropic.requests) == 2
    errors = [r["error"] for r in _report(home)["results"]]
    assert all(e and "400" in e and ANTHROPIC_KEY not in e for e in errors)


def test_an_error_keeps_litellms_message_but_not_its_traceback(home: Path) -> None:
    import litellm

    target: Any = create_target("litellm:openai/m", {"base_url": "http://127.0.0.1:9/v1"})
    inner = 'Traceback (most recent call last):\n  File "/opt/x/site.py", line 1, in f\nOSError'
    exc = litellm.APIConnectionError(
        message=f"Connection error.\n{inner}", llm_provider="openai", model="m"
    )
    error = target._call_error(exc)
    assert "Connection error." in error.message
    assert "Traceback" not in error.message and "/opt/x" not in error.message


def test_tool_calls_come_back_as_tool_calls(home: Path, anthropic: FakeAnthropic) -> None:
    anthropic.reply = lambda body: {"tool": "refund", "input": {"order": "A-1"}}
    tool = ToolSpec(name="refund", description="Refund an order.", parameters={"type": "object"})
    case = Case(id="t", suite="s", input="Refund order A-1.", tools=[tool])

    async def call() -> Any:
        target = create_target(MODEL, {"base_url": anthropic.base_url})
        async with target:
            return await target.generate(case)

    response = asyncio.run(call())
    assert [(c.name, json.loads(c.arguments)) for c in response.tool_calls] == [
        ("refund", {"order": "A-1"})
    ]
    assert anthropic.requests[0]["body"]["tools"][0]["name"] == "refund"


def test_one_event_loop_after_another_each_closes_cleanly(
    home: Path, fake_openai: FakeOpenAI, capfd: pytest.CaptureFixture[str]
) -> None:
    """LiteLLM logs a call after it returns: a later loop must not wait on what an earlier,
    closed loop started (as `failproof.testing.check` does, one loop a call)."""
    fake_openai.default = Answer("Paris.")

    async def call() -> Any:
        target = create_target("litellm:openai/shop-model", {"base_url": fake_openai.base_url})
        async with target:
            return await target.generate(Case(id="c", suite="s", input="Capital of France?"))

    outputs = [asyncio.run(call()).output for _ in range(3)]
    assert outputs == ["Paris."] * 3
    printed = capfd.readouterr()
    assert "discarded" not in printed.err + printed.out  # dropping LiteLLM's logging is ours


def test_as_judge(home: Path, anthropic: FakeAnthropic) -> None:
    judge = ["--judge", "litellm:anthropic/claude-judge", "--judge-base-url", anthropic.base_url]
    assert main(["run", "s.yaml", "--target", "mock:Paris.", "-q", *judge]) == 1
    capital = _report(home)["results"][0]["scores"]["judge"]
    assert capital["status"] == "ok"
    assert capital["judge"]["refusal"] == "compliance"
    assert any(r["body"]["model"] == "claude-judge" for r in anthropic.requests)


def test_as_attacker(home: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.reply = attack_reply
    suite = write_attack_suite(home)
    code = main(
        [
            "attack", str(suite), "--target", "openai:target", "--base-url", fake_openai.base_url,
            "--attacker", "litellm:openai/attacker", "--attacker-base-url", fake_openai.base_url,
            "--strategy", "iterative", "-q", "-o", str(home / "out"),
        ]
    )  # fmt: skip
    assert code == 1
    data = json.loads((home / "out" / "attack.json").read_text())
    assert data["strategies"]["iterative"]["broken"] == 1
    assert any(r["body"]["model"] == "attacker" for r in fake_openai.requests)


def test_a_missing_named_key_and_a_model_without_provider_are_errors(home: Path) -> None:
    with pytest.raises(Exception, match="PROVIDER/MODEL"):
        create_target("litellm:claude", {})
    with pytest.raises(Exception, match="NOT_SET_KEY is not set"):
        create_target(MODEL, {"api_key_env": "NOT_SET_KEY"})


def test_as_generator(home: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.reply = write_cases
    out = home / "bank.yaml"
    argv = [
        "generate",
        "--purpose",
        "A support bot for a retail bank.",
        "--plugins",
        "prompt_injection",
    ]
    argv += ["--generator", "litellm:openai/writer", "--generator-base-url", fake_openai.base_url]
    assert main([*argv, "-n", "3", "--seed", "7", "-o", str(out)]) == 0
    assert [c.id for c in load_suite(out).cases] == ["prompt_injection-001", "prompt_injection-002"]
    assert {r["body"]["model"] for r in fake_openai.requests} == {"writer"}
