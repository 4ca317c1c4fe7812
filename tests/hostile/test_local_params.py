"""``-p n_ctx=N`` for the local target takes effect (the model is loaded with it) or is refused."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from failproof.cli import main
from failproof.core import Case
from failproof.errors import ExitCode, TargetError
from failproof.targets import LocalTarget, create_target


@pytest.fixture
def model_file(tmp_path: Path) -> str:
    path = tmp_path / "m.gguf"
    path.write_bytes(b"GGUF")  # never loaded: the target loads its model on the first call
    return str(path)


@pytest.mark.local_engine
@pytest.mark.parametrize("given", ["8192", 8192, "256"], ids=["text", "number", "smallest"])
def test_n_ctx_is_how_the_model_is_loaded_not_a_request_parameter(
    model_file: str, given: object
) -> None:
    target = create_target(f"local:{model_file}", {"params": {"n_ctx": given, "temperature": 0}})
    assert target.n_ctx == int(str(given))  # type: ignore[attr-defined]
    assert "n_ctx" not in target.params  # type: ignore[attr-defined]
    assert target.identity()["n_ctx"] == int(str(given))


@pytest.mark.parametrize("given", ["big", "8192.5", "0", "99999999", "-1"])
def test_an_unusable_n_ctx_is_refused(model_file: str, given: str) -> None:
    with pytest.raises(TargetError, match="n_ctx must be"):
        create_target(f"local:{model_file}", {"params": {"n_ctx": given}})


#: About 1,500 tokens of prose: more than a 512-token context holds, well inside 8,192.
LONG = Case(id="long", input="The river runs past the old mill every spring. " * 150)


@pytest.mark.local_engine
def test_a_prompt_that_surely_fits_is_sent_without_counting_its_tokens(model_file: str) -> None:
    target = create_target(f"local:{model_file}", {"params": {"n_ctx": "8192"}})
    assert target.unsupported(LONG) is None
    assert target.listener is None  # type: ignore[attr-defined]  # the model was never loaded


@pytest.mark.local_engine
def test_the_cli_hands_n_ctx_to_the_local_target(
    model_file: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    suite = tmp_path / "s.yaml"
    suite.write_text(
        "suite: s\ncases:\n  - id: t\n    input: hi\n    tools: [{name: f, returns: x}]\n"
    )
    argv = ["run", str(suite), "-t", f"local:{model_file}", "-p", "n_ctx=8192", "-q"]
    assert main([*argv, "-f", "json", "-o", str(tmp_path / "r.json")]) == ExitCode.REVIEW
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["run"]["target"]["n_ctx"] == 8192
    assert "n_ctx" not in report["run"]["target"]["params"]


def test_an_unusable_n_ctx_on_the_command_line_is_one_clear_error(
    model_file: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["run", "injection", "-t", f"local:{model_file}", "-p", "n_ctx=lots", "-q"])
    assert code == ExitCode.ERROR
    err = capsys.readouterr().err
    assert "n_ctx must be a whole number of tokens from 256 to 131072" in err
    assert "Traceback" not in err


@pytest.mark.local_model
def test_n_ctx_is_the_context_the_model_is_loaded_with() -> None:
    target = create_target("local", {"params": {"n_ctx": 8192, "max_tokens": 4}})
    assert isinstance(target, LocalTarget)

    async def answer() -> None:
        async with target:
            await target.generate(Case(id="hi", input="Hello"))
            assert target._engine is not None
            assert target._engine.context_size() == 8192

    asyncio.run(answer())


@pytest.mark.local_model
def test_a_prompt_longer_than_the_context_is_unsupported_with_the_fix() -> None:
    target = create_target("local", {"params": {"n_ctx": 512}})
    found = target.unsupported(LONG)
    assert found is not None and found.feature == "context"
    assert "context holds 512" in found.reason and "-p n_ctx=N" in found.reason
    assert create_target("local", {"params": {"n_ctx": 8192}}).unsupported(LONG) is None
    asyncio.run(target.aclose())
