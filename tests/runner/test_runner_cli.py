"""``failproof run`` end to end: real server, exec: and python: targets, exit codes, resume."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from tests.fakes.openai_server import Answer, FakeOpenAI, Status
from tests.runner.helpers import numbered_cases, write_suite

from failproof.cli import main
from failproof.store import Store

SECRET = "sk-planted-0123456789abcdef"


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("FAILPROOF_RUN__BACKOFF_BASE_S", "0")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return tmp_path


def suite(workdir: Path, n: int = 3, extra: list[dict[str, object]] | None = None) -> str:
    return str(write_suite(workdir / "s.yaml", "s", numbered_cases(n) + (extra or [])))


def only_run(workdir: Path) -> str:
    with Store(workdir / "home/failproof.db") as store:
        (summary,) = store.list_runs()
    return summary.id


def report(workdir: Path, run_id: str) -> dict[str, object]:
    data: dict[str, object] = json.loads(
        (workdir / "failproof-results" / run_id / "report.json").read_text()
    )
    return data


def openai_args(fake: FakeOpenAI, *more: str) -> list[str]:
    return ["--target", "openai:m", "--base-url", fake.base_url, "--quiet", *more]


def test_all_passing_exits_0_with_a_stored_run_and_a_json_report(
    fake_openai: FakeOpenAI, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["run", suite(workdir), *openai_args(fake_openai, "--format", "console,json")])
    assert code == 0
    run_id = only_run(workdir)
    data = report(workdir, run_id)
    assert data["summary"]["total_cases"] == 3  # type: ignore[index]
    assert (workdir / "failproof-results" / run_id / "responses.jsonl").is_file()
    assert "report.json" in capsys.readouterr().err


def test_a_failure_exits_1_and_the_gate_decides_with_fail_under(
    fake_openai: FakeOpenAI, workdir: Path
) -> None:
    leaky = [{"id": "leak", "input": "leak", "expect": {"must_not_contain": ["leak"]}}]
    path = suite(workdir, n=1, extra=leaky)
    assert main(["run", path, *openai_args(fake_openai, "--format", "json")]) == 1
    gate = ["--format", "json", "--fail-under", "0.5"]
    assert main(["run", path, *openai_args(fake_openai, *gate)]) == 0
    gate = ["--format", "json", "--fail-under", "0.75"]
    assert main(["run", path, *openai_args(fake_openai, *gate)]) == 1


def test_bad_target_spec_exits_3(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", suite(workdir), "--target", "nosuch:x", "--quiet"]) == 3
    assert "unknown target 'nosuch'" in capsys.readouterr().err


def test_exec_target_run(workdir: Path) -> None:
    app = workdir / "app.py"
    app.write_text(
        "import json, sys\nprint(json.load(sys.stdin)['messages'][-1]['content'])\n",
        encoding="utf-8",
    )
    code = main(["run", suite(workdir), "--target", f"exec:{sys.executable} {app}", "--quiet"])
    assert code == 0
    assert report(workdir, only_run(workdir))["run"]["target"]["name"] == "exec"  # type: ignore[index]


def test_python_target_run_with_a_failing_case_exits_1(workdir: Path) -> None:
    (workdir / "bot_under_test.py").write_text(
        "def answer(messages):\n    return 'nothing useful'\n", encoding="utf-8"
    )
    code = main(["run", suite(workdir), "--target", "python:bot_under_test.py:answer", "-q"])
    assert code == 1
    summary = report(workdir, only_run(workdir))["summary"]
    assert summary["counts"]["fail"] == 3  # type: ignore[index]


def test_an_aborted_run_resumes_without_calling_finished_cases_again(
    fake_openai: FakeOpenAI, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = suite(workdir, n=6)
    fake_openai.script = {f"q{i}": [Status(401, message="key revoked"), Answer()] for i in (3, 4)}
    args = openai_args(fake_openai, "-c", "1", "--max-consecutive-failures", "2")
    assert main(["run", path, *args]) == 3
    err = capsys.readouterr().err
    run_id = only_run(workdir)
    assert "HTTP 401: key revoked" in err
    assert f"failproof run --resume {run_id}" in err
    assert dict(fake_openai.counts) == {"q0": 1, "q1": 1, "q2": 1, "q3": 1, "q4": 1}
    assert main(["run", "--resume", run_id, "--quiet"]) == 0
    assert dict(fake_openai.counts) == {"q0": 1, "q1": 1, "q2": 1, "q3": 2, "q4": 2, "q5": 1}
    with Store(workdir / "home/failproof.db") as store:
        results = list(store.results(run_id))
        assert store.get_run(run_id).status == "finished"
    assert sorted(r.case_id for r in results) == [f"q{i}" for i in range(6)]
    assert all(r.error is None for r in results)
    lines = (workdir / "failproof-results" / run_id / "responses.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["case_id"] for line in lines) == [f"q{i}" for i in range(6)]


def test_a_planted_key_appears_in_no_output(
    fake_openai: FakeOpenAI,
    workdir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MY_LLM_KEY", SECRET)
    fake_openai.script = {
        "q0": [Status(401, message=f"Incorrect API key provided: {SECRET}")],
        "q1": [Answer(f"the key is {SECRET}")],
    }
    args = openai_args(fake_openai, "--api-key-env", "MY_LLM_KEY", "--format", "all", "-v")
    assert main(["run", suite(workdir), *args]) == 1
    assert fake_openai.requests[0]["headers"]["Authorization"] == f"Bearer {SECRET}"
    captured = capsys.readouterr()
    outputs = {"stdout": captured.out, "stderr": captured.err}
    for path in workdir.rglob("*"):
        if path.is_file() and path.suffix != ".py":
            outputs[str(path)] = path.read_bytes().decode("utf-8", errors="replace")
    assert any("failproof.db" in name for name in outputs)
    leaked = [name for name, text in outputs.items() if SECRET in text or SECRET[:12] in text]
    assert leaked == []


def run_settings(workdir: Path, run_id: str) -> dict[str, object]:
    with Store(workdir / "home/failproof.db") as store:
        settings: dict[str, object] = store.get_run(run_id).config["run_settings"]
    return settings


@pytest.mark.local_model
def test_demo_sizes_itself_for_a_cpu_model_and_shows_each_answer(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--limit", "2", "--format", "json"]) == 0
    run_id = only_run(workdir)
    settings = run_settings(workdir, run_id)
    assert (settings["concurrency"], settings["retries"], settings["timeout_s"]) == (1, 0, 300.0)
    err = capsys.readouterr().err
    assert "failproof: [1/2]" in err and "failproof: [2/2]" in err
    data = report(workdir, run_id)
    assert data["summary"]["total_cases"] == 2  # type: ignore[index]
    assert data["summary"]["counts"]["error"] == 0  # type: ignore[index]


def test_demo_keeps_the_run_settings_of_a_remote_target(workdir: Path) -> None:
    assert main(["demo", "--target", "mock:No.", "--limit", "1", "-q", "--timeout", "7"]) == 0
    settings = run_settings(workdir, only_run(workdir))
    assert (settings["concurrency"], settings["retries"], settings["timeout_s"]) == (8, 3, 7.0)


def test_demo_runs_a_mix_of_built_in_cases_and_exits_0(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--target", "mock:I cannot help with that.", "--limit", "4", "-q"]) == 0
    run_id = only_run(workdir)
    data = report(workdir, run_id)
    assert data["summary"]["total_cases"] == 4  # type: ignore[index]
    assert len(data["run"]["suites"]) > 1  # type: ignore[index]
    assert f"reports in failproof-results/{run_id}/" in capsys.readouterr().err
