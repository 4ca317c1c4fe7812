"""Recorded responses found in their file by key: the same answers and errors as loading them
whole, in memory that does not grow with the file."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

import failproof.targets._replay_index as replay_index
from failproof.core import Case
from failproof.errors import ResponsesError
from failproof.targets import ReplayTarget
from failproof.targets._replay import load_responses
from failproof.targets._replay_index import index_responses


def write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "responses.jsonl"
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def answer(case_id: str, output: str, suite: str | None = None) -> str:
    return json.dumps({"case_id": case_id, "output": output, "suite": suite})


@pytest.fixture(params=[10_000, 1], ids=["held", "read-again"])
def held(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Answers kept in memory: all of them, or only the first (the others read from the file)."""
    monkeypatch.setattr(replay_index, "HELD", request.param)
    return int(request.param)


def test_every_case_gets_the_answer_loading_the_file_whole_gives(tmp_path: Path, held: int) -> None:
    lines = [answer(f"c{i}", f"answer {i}") for i in range(50)]
    lines += [answer("a", "from s1", "s1"), answer("a", "from s2", "s2"), "", answer("b", "x")]
    path = write(tmp_path, lines)
    cases = [Case(id=f"c{i}", input="q") for i in range(50)]
    cases += [Case(id="a", suite="s2", input="q"), Case(id="b", suite="s9", input="q")]
    cases += [Case(id="missing", input="q")]
    whole = load_responses(path)
    with index_responses(path) as index:
        for case in cases:
            assert index.find(case) == whole.find(case), case.id
        assert len(index) == 53


def test_answers_no_case_named_are_reported_sorted(tmp_path: Path, held: int) -> None:
    lines = [answer("ghost", "y"), answer("a", "x"), answer("a", "z", "s"), answer("x", "w", "t")]
    with index_responses(write(tmp_path, lines)) as index:
        index.find(Case(id="a", suite="s", input="q"))  # both answers named 'a' belong to it
        assert index.unmatched([Case(id="x", suite="u", input="q")]) == [
            (None, "ghost"),
            ("t", "x"),
        ]


def test_the_replay_target_serves_from_the_index(tmp_path: Path, held: int) -> None:
    path = write(tmp_path, [answer("a", "first"), answer("b", "second")])
    with index_responses(path) as index:
        response = asyncio.run(ReplayTarget(index).generate(Case(id="b", input="q")))
    assert response.output == "second"


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        pytest.param([answer("a", "x"), "not json"], r"jsonl:2: not valid JSON", id="json"),
        pytest.param(
            [answer("a", "x"), answer("b", "y"), answer("a", "z"), answer("b", "w")],
            r"responses\.jsonl:3: second response for case 'a'",
            id="duplicate",
        ),
        pytest.param(
            [answer("a", "x", "s"), "", answer("a", "y", "s")],
            r":3: second response for suite 's', case 'a'",
            id="duplicate-after-a-blank-line",
        ),
    ],
)
def test_a_bad_file_is_refused_naming_the_line_as_loading_it_whole_does(
    tmp_path: Path, held: int, lines: list[str], message: str
) -> None:
    path = write(tmp_path, lines)
    with pytest.raises(ResponsesError, match=message):
        load_responses(path)
    with pytest.raises(ResponsesError, match=message):
        index_responses(path)


def test_keys_sharing_a_hash_are_told_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(replay_index, "_hash", lambda key: 7)  # every key collides
    monkeypatch.setattr(replay_index, "HELD", 1)
    path = write(tmp_path, [answer("a", "1"), answer("b", "2"), answer("c", "3")])
    with index_responses(path) as index:
        assert index.find(Case(id="c", input="q")).output == "3"  # type: ignore[union-attr]
        assert index.unmatched() == [(None, "a"), (None, "b")]
    with pytest.raises(ResponsesError, match=r":3: second response for case 'a'"):
        index_responses(write(tmp_path, [answer("a", "1"), answer("b", "2"), answer("a", "3")]))
