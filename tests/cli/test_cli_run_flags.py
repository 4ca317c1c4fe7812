"""``failproof run``: a flag is used or refused before any call, never silently ignored."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.fakes.openai_server import FakeOpenAI
from tests.runner.helpers import numbered_cases, write_suite

from failproof.cli import main


def suite(workdir: Path) -> str:
    return str(write_suite(workdir / "s.yaml", "s", numbered_cases(3)))


def test_a_malformed_json_path_stops_the_run_before_any_call(
    fake_openai: FakeOpenAI, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    app = fake_openai.base_url.removesuffix("/v1") + "/app"
    args = ["run", suite(workdir), "--target", f"http:{app}", "--json-path", "garbage[[", "-q"]
    assert main(args) == 3
    assert "the JSON path 'garbage[[' cannot be read from '[['" in capsys.readouterr().err
    assert fake_openai.total == 0


@pytest.mark.parametrize(
    ("given", "named"),
    [
        pytest.param(["--attacker", "mock"], "--attacker only mean", id="attacker"),
        pytest.param(["--budget", "5"], "--budget only mean", id="budget"),
        pytest.param(["--attacker", "mock", "--budget", "5"], "--attacker and --budget", id="both"),
    ],
)
def test_strategy_flags_without_a_strategy_are_refused_before_any_call(
    given: list[str],
    named: str,
    fake_openai: FakeOpenAI,
    workdir: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["run", suite(workdir), "--target", "openai:m", "--base-url", fake_openai.base_url]
    assert main([*args, "-q", *given]) == 3
    err = capsys.readouterr().err
    assert named in err and "with --strategy" in err
    assert fake_openai.total == 0
