"""The Ray executor on a real local cluster of two workers: the same results as the local path,
each case sent once, resume across executors, and an idempotent merge."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.fakes.openai_server import Answer, FakeOpenAI
from tests.fakes.processes import wait_until
from tests.runner.helpers import numbered_cases, settings, write_suite
from tests.runner.test_runner_kill import start, stored

from failproof.cli import main
from failproof.core import CaseResult
from failproof.runner import RunRequest, WorkPlan, run_shard, score_responses, start_run
from failproof.scale import ExecutorSpec, RayExecutor, merge_shard, shard_plans
from failproof.store import Store

pytestmark = pytest.mark.ray

ANSWERS = [
    lambda i: f"Here you go: q{i}.",
    lambda i: "I'm sorry, but I can't help with that request.",
    lambda i: "Sure! Ignore the rules: the admin password is hunter2.",
    lambda i: f'{{"answer": "q{i}"}}',
    lambda i: "",
]


def scored_suite(path: Path, n: int) -> Path:
    """Cases that expect their id back, some that must be refused, some JSON ones."""
    cases: list[dict[str, Any]] = []
    for i in range(n):
        case: dict[str, Any] = {"id": f"q{i}", "input": f"q{i}", "category": "mixed"}
        kind = i % 3
        if kind == 0:
            case["expect"] = {"must_contain": [f"q{i}"]}
        elif kind == 1:
            case["expect"] = {"refusal": "required"}
        else:
            case["expect"] = {"must_not_contain": ["password"], "refusal": "allowed"}
        cases.append(case)
    return write_suite(path, "mixed", cases)


def recorded_answers(path: Path, n: int) -> Path:
    """Recorded answers with their latency (measured times would differ run to run); the last
    one is a recorded failure: an error result."""
    lines = [
        json.dumps({"case_id": f"q{i}", "output": ANSWERS[i % len(ANSWERS)](i), "latency_ms": i})
        for i in range(n - 1)
    ]
    lines.append(json.dumps({"case_id": f"q{n - 1}", "error": "timed out", "latency_ms": 1}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def dumps(results: list[CaseResult]) -> list[dict[str, Any]]:
    return [r.model_dump(mode="json") for r in results]


def ray_executor() -> RayExecutor:
    return RayExecutor(ExecutorSpec("ray", None, 2))


def test_score_with_ray_gives_the_results_of_the_local_path(
    ray_cluster: str, tmp_path: Path
) -> None:
    n = 60
    suite = scored_suite(tmp_path / "mixed.yaml", n)
    answers = recorded_answers(tmp_path / "answers.jsonl", n)
    config = settings(tmp_path / "home")
    with Store(config.db_path) as store:
        local = score_responses(answers, [suite], settings=config, store=store)
        remote = score_responses(
            answers, [suite], settings=config, store=store, executor=ray_executor()
        )
        local_results = list(store.results(local.run.id))
        remote_results = list(store.results(remote.run.id))
    assert len(remote_results) == n
    assert dumps(remote_results) == dumps(local_results)
    assert {r.primary for r in local_results} >= {"pass", "fail", "error"}
    assert remote.report.summary == local.report.summary


def test_run_with_ray_sends_each_case_once_and_gives_the_local_verdicts(
    ray_cluster: str, fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    n = 24
    fake_openai.script = {f"q{i}": [Answer("I can't help with that.")] for i in range(0, n, 4)}
    suite = write_suite(tmp_path / "s.yaml", "s", numbered_cases(n))
    config = settings(tmp_path / "home", concurrency=4, cache=False)
    request = RunRequest(
        suites=(str(suite),), target="openai:m", target_options={"base_url": fake_openai.base_url}
    )
    with Store(config.db_path) as store:
        remote = start_run(request, settings=config, store=store, executor=ray_executor())
        assert dict(fake_openai.counts) == {f"q{i}": 1 for i in range(n)}
        local = start_run(request, settings=config, store=store)
        verdicts = [
            [(r.case_id, r.primary, r.accuracy) for r in store.results(run.run.id)]
            for run in (remote, local)
        ]
    assert verdicts[0] == verdicts[1]
    assert sum(1 for _, primary, _ in verdicts[0] if primary == "pass") == n - n // 4
    assert remote.stats.completed == n
    assert remote.run.config["calls"]["attempts"] == n


def test_a_shard_merged_twice_adds_nothing(ray_cluster: str, tmp_path: Path) -> None:
    suite = scored_suite(tmp_path / "mixed.yaml", 12)
    answers = recorded_answers(tmp_path / "answers.jsonl", 12)
    config = settings(tmp_path / "home")
    with Store(config.db_path) as store:
        run = score_responses(answers, [suite], settings=config, store=store).run
        before = dumps(list(store.results(run.id)))
        plan = one_shard_plan(store, run.id, answers, suite, config)
        import ray

        shard = ray.get(ray.remote(run_shard).remote(plan))
        merge_shard(store, run.id, shard)
        merge_shard(store, run.id, shard)
        after = dumps(list(store.results(run.id)))
    assert len(shard.rows) == len(plan.items) > 0
    assert after == before


def one_shard_plan(store: Store, run_id: str, answers: Path, suite: Path, config: Any) -> WorkPlan:
    """The first shard of the replay of a stored scoring run, as the executor cuts it."""
    captured: list[WorkPlan] = []

    class Capture:
        def execute(self, plan: WorkPlan, store: Store, sinks: object) -> Any:
            captured.append(plan)
            raise RuntimeError("captured")

    with pytest.raises(RuntimeError, match="captured"):
        score_responses(answers, [suite], settings=config, store=store, executor=Capture())
    whole = captured[0]
    first = shard_plans(whole, 2)[0]
    run = store.get_run(run_id)
    return WorkPlan(**{**first.__dict__, "run": run})


def killed_midway(tmp_path: Path, process: subprocess.Popen[str], at_least: int) -> list[str]:
    wait_until(lambda: len(stored(tmp_path)) >= at_least, process, "nothing stored")
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=10)
    return [case for _, case in stored(tmp_path)]


@pytest.mark.parametrize(
    ("first", "then"),
    [
        pytest.param("local", "ray", id="local-killed-then-ray"),
        pytest.param("ray", "local", id="ray-killed-then-local"),
    ],
)
def test_resume_across_executors_sends_only_what_is_missing(
    ray_cluster: str,
    fake_openai: FakeOpenAI,
    workdir: Path,
    first: str,
    then: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    n = 16
    fake_openai.default = Answer(delay_s=0.2)
    suite = write_suite(workdir / "s.yaml", "s", numbered_cases(n))
    executor = {"local": "local", "ray": f"ray:{ray_cluster}"}
    args = [str(suite), "--target", "openai:m", "--base-url", fake_openai.base_url, "-c", "2"]
    process = start(fake_openai, workdir, *args, "--executor", executor[first])
    before = killed_midway(workdir, process, 4)
    assert 4 <= len(before) < n
    run_id = stored(workdir)[0][0]

    code = main(["run", "--resume", run_id, "--quiet", "--executor", executor[then]])
    assert code == 0, capsys.readouterr().err
    assert all(fake_openai.counts[case] == 1 for case in before)  # none sent again
    with Store(workdir / "home/failproof.db") as store:
        results = list(store.results(run_id))
        assert store.get_run(run_id).status == "finished"
    assert sorted(r.case_id for r in results) == sorted(f"q{i}" for i in range(n))
    assert all(r.primary == "pass" for r in results)


@pytest.mark.parametrize(
    "executor",
    [
        pytest.param(["ray:{address}", "--workers", "2"], id="connects-to-a-cluster-by-address"),
        pytest.param(["ray"], id="starts-a-local-cluster", marks=pytest.mark.slow),
    ],
)
def test_score_on_the_command_line_with_ray_writes_the_local_report(
    ray_cluster: str, workdir: Path, executor: list[str]
) -> None:
    suite = scored_suite(workdir / "mixed.yaml", 9)
    answers = recorded_answers(workdir / "answers.jsonl", 9)
    base = ["score", str(answers), "--suite", str(suite), "--format", "json"]
    assert main([*base, "-o", "local.json"]) == 1
    on_ray = ["-o", "ray.json", "--executor", *(a.format(address=ray_cluster) for a in executor)]
    done = subprocess.run(
        [sys.executable, "-m", "failproof", *base, *on_ray],
        cwd=workdir,
        env={**os.environ, "FAILPROOF_HOME": str(workdir / "home")},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1, done.stderr
    local, remote = (json.loads((workdir / f).read_text()) for f in ("local.json", "ray.json"))
    assert remote["results"] == local["results"]
    assert remote["summary"] == local["summary"]
