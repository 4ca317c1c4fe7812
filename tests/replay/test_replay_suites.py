"""Recorded answers joined to the cases of several suites: an answer without ``suite`` serves one
suite only (DESIGN: "`suite` may be omitted where case ids are unique"), and an answer that
matches no case is named, by ``failproof score`` and the ``replay:`` target alike."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

import pytest
from tests.runner.helpers import write_suite

import failproof.targets._replay_index as replay_index
from failproof.cli import main
from failproof.core import Case
from failproof.errors import ResponsesError
from failproof.targets._replay import Recorded, load_responses, refuse_shared_answers
from failproof.targets._replay_index import index_responses

CASES = [
    {"id": "c1", "input": "say hello", "expect": {"must_contain": ["hello"]}},
    {"id": "c2", "input": "say bye", "expect": {"must_contain": ["bye"]}},
]


def answers(path: Path, *lines: dict[str, str]) -> str:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path.name


def two_suites(folder: Path) -> list[str]:
    """Suites 'mine' and 'other', both with cases c1 and c2."""
    return [
        str(write_suite(folder / "good.yaml", "mine", CASES)),
        str(write_suite(folder / "other.yaml", "other", CASES)),
    ]


def score(responses: str, suites: list[str]) -> list[str]:
    return ["score", responses, *(a for s in suites for a in ("-s", s)), "-f", "json"]


def replay(responses: str, suites: list[str]) -> list[str]:
    return ["run", *suites, "--target", f"replay:{responses}", "-q", "-f", "json"]


Command = Callable[[str, list[str]], list[str]]
COMMANDS = [pytest.param(score, id="score"), pytest.param(replay, id="replay-target")]


@pytest.mark.parametrize("command", COMMANDS)
def test_an_answer_without_suite_for_an_id_of_several_suites_is_refused(
    workdir: Path, capsys: pytest.CaptureFixture[str], command: Command
) -> None:
    suites = two_suites(workdir)
    lines = [{"case_id": "c1", "output": "hello"}, {"case_id": "c2", "output": "bye"}]
    file = answers(workdir / "ans.jsonl", *lines)
    assert main([*command(file, suites), "-o", "q.json"]) == 3
    err = capsys.readouterr().err
    assert "'c1' (mine, other), 'c2' (mine, other)" in err
    assert 'add "suite"' in err
    assert not (workdir / "q.json").exists()


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize(
    "lines",
    [
        pytest.param(
            [
                {"case_id": "c1", "suite": "mine", "output": "hello"},
                {"case_id": "c1", "suite": "other", "output": "hello"},
            ],
            id="every-answer-names-its-suite",
        ),
        pytest.param(
            [
                {"case_id": "c1", "suite": "mine", "output": "hello"},
                {"case_id": "c1", "output": "hello"},
            ],
            id="the-answer-without-suite-serves-one-suite",
        ),
    ],
)
def test_answers_that_say_which_suite_they_serve_are_scored_once_each(
    workdir: Path, command: Command, lines: list[dict[str, str]]
) -> None:
    suites = two_suites(workdir)
    file = answers(workdir / "ans.jsonl", *lines)
    main([*command(file, suites), "-o", "q.json"])
    results = json.loads((workdir / "q.json").read_text())["results"]
    passed = sorted((r["suite"], r["case_id"]) for r in results if r["accuracy"] == 1)
    assert passed == [("mine", "c1"), ("other", "c1")]


def loaded(path: Path) -> AbstractContextManager[Recorded]:
    return nullcontext(load_responses(path))


@pytest.mark.parametrize("held", [10_000, 1], ids=["held", "read-again"])
@pytest.mark.parametrize(
    "load",
    [pytest.param(loaded, id="loaded"), pytest.param(index_responses, id="indexed")],
)
def test_the_check_names_each_shared_id_with_its_suites(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    held: int,
    load: Callable[[Path], AbstractContextManager[Recorded]],
) -> None:
    monkeypatch.setattr(replay_index, "HELD", held)
    path = tmp_path / "ans.jsonl"
    answers(path, {"case_id": "a", "output": "x"}, {"case_id": "b", "output": "y"})
    cases = [Case(id="a", suite="s1", input="q"), Case(id="b", suite="s1", input="q")]
    cases += [Case(id="b", suite="s2", input="q")]
    with load(path) as recorded, pytest.raises(ResponsesError, match=r"them: 'b' \(s1, s2\) \(add"):
        refuse_shared_answers(recorded, cases)


@pytest.mark.parametrize("command", COMMANDS)
def test_an_answer_that_matches_no_case_is_named(
    workdir: Path, capsys: pytest.CaptureFixture[str], command: Command
) -> None:
    suites = [str(write_suite(workdir / "good.yaml", "mine", CASES))]
    file = answers(
        workdir / "ans.jsonl",
        {"case_id": "c1", "output": "hello"},
        {"case_id": "zzz", "output": "x"},
        {"case_id": "c2", "suite": "nope", "output": "bye"},
    )
    main([*command(file, suites), "-o", "q.json"])
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if line.startswith("warning:")] == [
        "warning: response for case 'zzz' matches no case",
        "warning: response for suite 'nope', case 'c2' matches no case",
    ]
