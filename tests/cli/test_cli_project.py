"""``failproof init`` and the project file: ``failproof run`` alone runs what it declares."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from failproof.cli import main
from failproof.cli._init import DEFAULT_SUITES, ProjectAnswers, gather_answers
from failproof.store import Store

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "examples" / "suites" / "support_bot.yaml"
REFUSAL = "mock:I'm sorry, I can't help with that."


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    (tmp_path / "suites").mkdir()
    (tmp_path / "suites" / "bot.yaml").write_text(SUITE.read_text())


def _runs() -> list[tuple[str, dict[str, object]]]:
    with Store(Path("home") / "failproof.db") as store:
        rows = store.list_runs(50)
        return [(row.id, store.get_run(row.id).config) for row in reversed(rows)]


def _report(path: str) -> dict[str, object]:
    return dict(json.loads(Path(path).read_text()))


def test_init_then_run_is_the_long_command_line() -> None:
    long = ["run", "suites/bot.yaml", "injection", "-t", "mock", "--fail-under", "0.5"]
    assert main([*long, "-q", "-f", "json", "-o", "long.json"]) == 1
    assert main(["init", "-y", "-t", "mock", "-s", "suites/bot.yaml", "-s", "injection"]) == 0
    Path("failproof.toml").write_text(
        Path("failproof.toml").read_text() + "\n[run]\nfail_under = 0.5\n"
    )
    assert main(["run", "-q", "-f", "json", "-o", "project.json"]) == 1
    (_, first), (_, second) = _runs()
    for key in ("suite_sources", "target_spec", "target_options", "selection", "repeat"):
        assert first[key] == second[key], key
    long_cases = _report("long.json")["results"]
    project_cases = _report("project.json")["results"]
    assert [(c["case_id"], c["output"]) for c in long_cases] == [  # type: ignore[attr-defined]
        (c["case_id"], c["output"])
        for c in project_cases  # type: ignore[attr-defined]
    ]
    assert main(["compare", "long.json", "project.json", "--fail-on-regression"]) == 0


def test_init_writes_every_answer_and_refuses_to_overwrite(
    capsys: pytest.CaptureFixture[str],
) -> None:
    flags = ["-t", "mock", "-s", "injection", "--judge", "mock:SAFE", "--gate", "0.8"]
    assert main(["init", "-y", *flags]) == 0
    text = Path("failproof.toml").read_text()
    for line in ('suites = ["injection"]', 'targets = ["mock"]', 'spec = "mock:SAFE"'):
        assert line in text
    assert "fail_under = 0.8" in text
    assert main(["init", "-y", *flags]) == 3
    assert "failproof.toml exists" in capsys.readouterr().err


def test_init_into_pyproject_keeps_what_was_there() -> None:
    Path("pyproject.toml").write_text('[project]\nname = "app"\n')
    assert main(["init", "-y", "--pyproject", "-t", "mock", "-s", "suites/bot.yaml"]) == 0
    text = Path("pyproject.toml").read_text()
    assert text.startswith('[project]\nname = "app"\n')
    assert "[tool.failproof.project]" in text
    assert main(["run", "-q"]) == 1
    assert _runs()[0][1]["target_spec"] == "mock"


def test_init_refuses_an_unknown_suite(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "-y", "-s", "no_such_suite"]) == 3
    assert "no such suite: no_such_suite" in capsys.readouterr().err
    assert not Path("failproof.toml").exists()


@pytest.mark.parametrize(
    "flags",
    [
        pytest.param(["-t", "foo:bar"], id="target"),
        pytest.param(["-t", "mock", "--judge", "foo:bar"], id="judge"),
    ],
)
def test_init_refuses_a_kind_of_target_failproof_does_not_have(
    flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", "-y", "-s", "injection", *flags]) == 3
    assert "unknown target 'foo'" in capsys.readouterr().err
    assert not Path("failproof.toml").exists()


def test_questions_fill_what_the_flags_leave_out() -> None:
    asked: list[str] = []
    replies = iter(["mock openai:gpt-4o", "", "openai:gpt-4o-mini", "0.9"])

    def ask(question: str, default: str) -> str:
        asked.append(question)
        return next(replies) or default

    answers = gather_answers([], [], None, None, ask)
    assert answers == ProjectAnswers(
        ["mock", "openai:gpt-4o"], list(DEFAULT_SUITES), "openai:gpt-4o-mini", 0.9
    )
    assert len(asked) == 4
    assert gather_answers(["mock"], ["x"], "j", 0.5, ask) == ProjectAnswers(
        ["mock"], ["x"], "j", 0.5
    )


def test_two_targets_run_side_by_side_and_report_together() -> None:
    Path("failproof.toml").write_text(
        '[project]\nsuites = ["suites/bot.yaml"]\n'
        '[[project.targets]]\nspec = "mock"\nlabel = "echo"\n'
        f'[[project.targets]]\nspec = "{REFUSAL}"\nlabel = "refuser"\n'
    )
    assert main(["run", "-q"]) == 1
    runs = _runs()
    assert [config["target_spec"] for _, config in runs] == ["mock", REFUSAL]
    table = json.loads(next(Path("failproof-results").glob("side-by-side-*.json")).read_text())
    assert [c["label"] for c in table["targets"]] == ["echo", "refuser"]
    assert [c["run_id"] for c in table["targets"]] == [run_id for run_id, _ in runs]
    assert [c["passed"] for c in table["targets"]] == [2, 1]
    assert table["suites"][0]["suite"] == "support_bot"


def test_flags_win_over_the_project_file() -> None:
    Path("failproof.toml").write_text('[project]\nsuites = ["nope"]\ntargets = ["nope:x"]\n')
    assert main(["run", "suites/bot.yaml", "-t", "mock", "-q"]) == 1


@pytest.mark.parametrize(
    ("text", "where"),
    [
        pytest.param(
            '[project]\nsuites = ["injection"]\n\n[[project.targets]]\nspec = "mock"\n'
            '[[project.targets]]\nspec = "mock"\nlabel = "../up"\n',
            "failproof.toml:8: invalid setting project.targets.1.label",
            id="bad-label-in-second-target-table",
        ),
        pytest.param(
            "[run]\nconcurrency = 2\ncocurrency = 3\n",
            "failproof.toml:3: invalid setting run.cocurrency: Extra inputs",
            id="misspelt-key",
        ),
        pytest.param(
            '[project]\nsuites = ["injection"]\ntargets = [3]\n',
            "failproof.toml:3: invalid setting project.targets.0",
            id="target-not-a-spec",
        ),
        pytest.param(
            '[project]\nsuites = ["injection"\n',
            "failproof.toml: cannot read config file",
            id="toml-syntax",
        ),
        pytest.param(
            '[project]\nsuites = ["injection"]\n[run]\nfail_under = 2\n',
            "failproof.toml:4: invalid setting run.fail_under",
            id="gate-out-of-range",
        ),
    ],
)
def test_errors_name_the_key_and_line(
    text: str, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("failproof.toml").write_text(text)
    assert main(["run", "-q"]) == 3
    assert where in capsys.readouterr().err


def test_an_error_in_pyproject_names_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    Path("pyproject.toml").write_text(
        '[project]\nname = "app"\n\n[tool.failproof.project]\nsuites = ["injection"]\ntargets = 7\n'
    )
    assert main(["run", "-q"]) == 3
    assert "pyproject.toml:6: invalid setting project.targets" in capsys.readouterr().err


def test_nothing_to_run_says_init(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run"]) == 3
    assert "failproof init" in capsys.readouterr().err
