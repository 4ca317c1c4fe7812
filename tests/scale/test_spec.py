"""``--executor`` parsing, and how a run's work and limits are cut into shards (no Ray needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

from failproof.cli import main
from failproof.config import RunSettings, ScoringConfig, Settings
from failproof.core import Case, Run
from failproof.errors import ConfigError
from failproof.runner import WorkPlan
from failproof.runner._plan import WorkItem
from failproof.scale import ExecutorSpec, shard_plans
from failproof.scale._shards import SHARDS_PER_WORKER, shard_width, share_limits
from failproof.scale._spec import parse_executor
from failproof.targets import RecordedResponse, RecordedResponses


@pytest.mark.parametrize(
    ("text", "workers", "spec"),
    [
        pytest.param("local", None, ExecutorSpec(), id="local"),
        pytest.param("ray", None, ExecutorSpec("ray"), id="ray-starts-a-local-cluster"),
        pytest.param("ray", 3, ExecutorSpec("ray", None, 3), id="ray-with-workers"),
        pytest.param("ray:auto", None, ExecutorSpec("ray", "auto"), id="ray-auto"),
        pytest.param("ray:10.1.2.3:6379", 2, ExecutorSpec("ray", "10.1.2.3:6379", 2), id="host"),
    ],
)
def test_executor_specs_that_parse(text: str, workers: int | None, spec: ExecutorSpec) -> None:
    assert parse_executor(text, workers) == spec


@pytest.mark.parametrize(
    ("text", "workers", "message"),
    [
        pytest.param("spark", None, "unknown executor 'spark'", id="unknown-executor"),
        pytest.param("ray:head", None, "bad Ray address 'head'", id="address-without-port"),
        pytest.param("ray:h:99999", None, "bad Ray address", id="port-out-of-range"),
        pytest.param("ray:h:1:2", None, "bad Ray address", id="two-ports"),
        pytest.param("local", 2, "--workers applies to --executor ray", id="workers-with-local"),
    ],
)
def test_executor_specs_refused_with_one_line(text: str, workers: int | None, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as error:
        parse_executor(text, workers)
    assert "\n" not in str(error.value)


def plan(n: int, *, recorded: bool = False, **run: object) -> WorkPlan:
    cases = [Case(id=f"q{i}", suite="s", input=f"q{i}") for i in range(n)]
    answers = RecordedResponses(source="answers.jsonl")
    for case in cases:
        answers.by_key[("s", case.id)] = RecordedResponse(case_id=case.id, suite="s", output="x")
    settings = Settings(home=Path("home"))
    return WorkPlan(
        run=Run(id="r1", target={}, suites=["s"], config={}),
        items=tuple(WorkItem(c) for c in cases),
        scoring=ScoringConfig.from_settings(settings),
        scorer_names=("classify",),
        settings=RunSettings(**run),  # type: ignore[arg-type]
        target="replay" if recorded else "mock",
        recorded=answers if recorded else None,
    )


@pytest.mark.parametrize("n", [1, 7, 8, 101])
def test_shards_cover_every_item_once_in_case_order(n: int) -> None:
    whole = plan(n, recorded=True)
    parts = shard_plans(whole, 2)
    assert [item for part in parts for item in part.items] == list(whole.items)
    assert len(parts) == min(n, 2 * SHARDS_PER_WORKER)
    assert all(part.recorded is not None for part in parts)
    for part in parts:  # each shard carries only its own recorded answers
        assert part.recorded is not None
        assert set(part.recorded.by_key) == {("s", i.case.id) for i in part.items}


def test_no_work_is_no_shard() -> None:
    assert shard_plans(plan(0), 2) == []


def test_shards_running_at_once_share_the_runs_limits() -> None:
    whole = plan(40, concurrency=8, rpm=600, tpm=90_000)
    width = shard_width(whole, 4)
    share = share_limits(whole.settings, width)
    assert width == 4
    assert (share.concurrency * width, share.rpm * width, share.tpm * width) == (8, 600, 90_000)
    assert all(part.settings == share for part in shard_plans(whole, width))


def test_a_live_targets_concurrency_caps_the_shards_at_once_but_a_replay_is_not_capped() -> None:
    assert shard_width(plan(40, concurrency=1), 4) == 1
    assert shard_width(plan(40, recorded=True, concurrency=1), 4) == 4
    assert shard_width(plan(3, recorded=True), 4) == 3


def test_limits_left_unset_stay_unset() -> None:
    share = share_limits(RunSettings(concurrency=3), 2)
    assert (share.concurrency, share.rpm, share.tpm) == (1, None, None)


def test_an_attack_is_not_sharded(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = ["run", "injection", "--target", "mock", "--strategy", "best_of_n"]
    assert main([*command, "--attacker", "mock", "--executor", "ray"]) == 3
    assert "--strategy runs here only (drop --executor)" in capsys.readouterr().err
