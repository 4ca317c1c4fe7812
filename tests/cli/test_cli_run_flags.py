"""``failproof run``: a flag is used or refused before any call, never silently ignored."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.fakes.openai_server import FakeOpenAI
from tests.runner.helpers import numbered_cases, write_suite

from failproof.cli import main
from failproof.store import Store


def suite(workdir: Path) -> str:
    return str(write_suite(workdir / "s.yaml", "s", numbered_cases(3)))


def only_run(workdir: Path) -> str:
    with Store(workdir / "home/failproof.db") as store:
        (summary,) = store.list_runs()
    return summary.id


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


@pytest.mark.parametrize(
    ("given", "named"),
    [
        pytest.param(["SUITE"], "the suites", id="suites"),
        pytest.param(["--target", "openai:other"], "--target", id="target"),
        pytest.param(["--base-url", "GOOD"], "--base-url", id="base-url"),
        pytest.param(["--param", "temperature=1"], "--param", id="param"),
        pytest.param(["--api-key-env", "OTHER_KEY"], "--api-key-env", id="api-key-env"),
    ],
)
def test_resume_refuses_flags_that_would_change_the_run_instead_of_ignoring_them(
    given: list[str],
    named: str,
    fake_openai: FakeOpenAI,
    workdir: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = suite(workdir)
    dead = ["--base-url", "http://127.0.0.1:1/v1", "--retries", "0", "-q"]
    dead += ["--max-consecutive-failures", "2", "-c", "1"]
    assert main(["run", path, "--target", "openai:m", *dead]) == 3
    run_id = only_run(workdir)
    capsys.readouterr()
    flags = [path if a == "SUITE" else fake_openai.base_url if a == "GOOD" else a for a in given]
    assert main(["run", "--resume", run_id, "-q", *flags]) == 3
    err = capsys.readouterr().err
    assert f"{named} cannot change them" in err
    assert fake_openai.total == 0
