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
from failproof.suites import load_suites

SECRET = "sk-planted-0123456789abcdef"


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


def echo_app(fake: FakeOpenAI, body: str, *more: str) -> list[str]:
    app = f"http://127.0.0.1:{fake.port}/app"
    return ["run", "secret_leak", "--target", app, "--body", body, "--json-path", "$.data.answer",
            "--quiet", "--format", "json", *more]  # fmt: skip


def test_an_echo_app_behind_an_input_only_template_refuses_to_start(
    fake_openai: FakeOpenAI, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(echo_app(fake_openai, '{"question": "{{input}}"}')) == 3
    err = capsys.readouterr().err
    assert "drop the system prompt" in err and "--allow-dropped-system" in err
    assert fake_openai.total == 0  # nothing was sent


def test_an_echo_app_sent_the_system_prompt_leaks_it_and_fails(
    fake_openai: FakeOpenAI, workdir: Path
) -> None:
    assert main(echo_app(fake_openai, '{"question": "{{messages_json}}"}')) == 1
    data = report(workdir, only_run(workdir))
    (suite,) = load_suites(["secret_leak"])
    systems = {case.id: case.system for case in suite.cases}
    assert data["summary"]["counts"]["pass"] == 0  # type: ignore[index]
    for result in data["results"]:  # type: ignore[attr-defined]
        sent = json.loads(json.loads(result["request_body"])["question"])
        assert sent[0] == {"role": "system", "content": systems[result["case_id"]]}
        assert result["messages"] == []  # the report shows the body sent, not the case's messages


def test_allow_dropped_system_runs_and_the_report_shows_what_was_really_sent(
    fake_openai: FakeOpenAI, workdir: Path
) -> None:
    args = echo_app(fake_openai, '{"question": "{{input}}"}', "--allow-dropped-system")
    main(args)
    for result in report(workdir, only_run(workdir))["results"]:  # type: ignore[attr-defined]
        assert "HERON-CANARY-5519" not in result["request_body"]
        assert result["messages"] == []


def test_target_errors_are_counted_apart_and_never_pass_in_any_format(
    fake_openai: FakeOpenAI,
    workdir: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    fake_openai.script = {"q1": [Status(400)], "q2": [Status(400)], "q3": [Status(400)]}
    formats = "console,json,markdown,html,junit"
    code = main(["run", suite(workdir, 4), *openai_args(fake_openai, "--format", formats)])
    assert code == 1  # errors fail the run
    run_id = only_run(workdir)
    folder = workdir / "failproof-results" / run_id
    summary = report(workdir, run_id)["summary"]
    assert (summary["passed"], summary["errors"], summary["unanswered"]) == (1, 3, 0)  # type: ignore[index]
    assert summary["pass_rate"] == 0.25  # type: ignore[index]  # 1 of 4: errors never pass
    risk = report(workdir, run_id)["aggregate_metrics"]["counts"]  # type: ignore[index]
    assert (risk["probes_evaluated"], risk["not_evaluated"]) == (1, 3)
    line = "1 pass · 3 error"
    console = capsys.readouterr().out
    assert line in console and "Pass rate (verdict)" in console and "25.0%" in console
    assert "3 errors count as not passed" in console
    assert "Risk gate (probe risk)" in console and "3 errors not evaluated" in console
    markdown = (folder / "report.md").read_text()
    assert line in markdown and "Pass rate (verdict)" in markdown and "25.0%" in markdown
    html = (folder / "report.html").read_text()
    assert "<b>3</b> error" in html and 'data-key="pass_rate" data-value="0.25"' in html
    junit = (folder / "junit.xml").read_text()
    assert 'errors="3"' in junit and 'failures="0"' in junit
    assert '<property name="pass_rate" value="0.25"' in junit


def test_a_selection_is_recorded_and_resume_sends_only_its_missing_cases(
    fake_openai: FakeOpenAI, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = suite(workdir, n=8)
    fake_openai.script = {"q5": [Status(401), Answer()], "q6": [Status(401), Answer()]}
    chosen = ["--only", "q1,q2", "--only", "q5,q6,s/q7"]
    args = [*openai_args(fake_openai, "-c", "1", "--max-consecutive-failures", "2"), *chosen]
    assert main(["run", path, *args]) == 3
    run_id = only_run(workdir)
    assert main(["run", "--resume", run_id, "--quiet", "--format", "console,json"]) == 0
    assert sorted(fake_openai.counts) == ["q1", "q2", "q5", "q6", "q7"]  # never q0, q3, q4
    data = report(workdir, run_id)
    assert data["summary"]["total_cases"] == 5  # type: ignore[index]
    assert data["run"]["config"]["selection"]["flags"] == "--only q1,q2,q5,q6,s/q7"  # type: ignore[index]
    assert "selection --only q1,q2,q5,q6,s/q7" in capsys.readouterr().out


def test_score_takes_the_same_selection(workdir: Path) -> None:
    path = suite(workdir, n=6)
    answers = workdir / "answers.jsonl"
    answers.write_text("".join(f'{{"case_id": "q{i}", "output": "q{i}"}}\n' for i in range(6)))
    args = ["score", str(answers), "-s", path, "--sample", "3", "--seed", "4", "-f", "json"]
    assert main([*args, "-o", str(workdir / "r.json")]) == 0
    data = json.loads((workdir / "r.json").read_text())
    assert data["summary"]["total_cases"] == 3
    assert data["run"]["config"]["selection"]["flags"] == "--sample 3 --seed 4"


def test_resume_refuses_a_new_selection(workdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--resume", "any", "--category", "x"]) == 3
    assert "own selection" in capsys.readouterr().err


def test_a_recorded_answer_without_its_time_has_no_latency_and_cannot_pass_max_seconds(
    workdir: Path,
) -> None:
    """failproof's own read of the file is no answer time: 0.05 ms would pass any max_seconds."""
    path = suite(workdir, n=1, extra=[{"id": "quick", "input": "hi", "expect": {"max_seconds": 5}}])
    answers = workdir / "answers.jsonl"
    answers.write_text('{"case_id": "q0", "output": "q0"}\n{"case_id": "quick", "output": "hi"}\n')
    assert (
        main(["score", str(answers), "-s", path, "-f", "json", "-o", str(workdir / "r.json")]) == 1
    )
    data = json.loads((workdir / "r.json").read_text())
    assert [r["latency_ms"] for r in data["results"]] == [None, None]
    quick = next(r for r in data["results"] if r["case_id"] == "quick")
    assert quick["classification"]["primary"] != "pass"
    assert "max_seconds cannot be checked" in json.dumps(quick["classification"])
