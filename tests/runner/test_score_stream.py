"""`score_responses` reads a JSONL suite and its answers as the cases run: past what it holds in
memory, the run is the same."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import failproof.suites._stream as suite_stream
import failproof.targets._replay_index as replay_index
from failproof import load_settings, score_responses
from failproof.suites import Selection, load_suites, select_cases
from failproof.targets._replay import load_responses


def write_run(folder: Path) -> tuple[Path, Path]:
    suite, answers = folder / "support.jsonl", folder / "answers.jsonl"
    cases = [
        {"id": f"c{i}", "input": f"Where is order {i}?", "expect": {"must_not_contain": ["ZX-9"]}}
        for i in range(9)
    ]
    suite.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    outputs = [f"Order {i} ships tomorrow." if i % 3 else "The code is ZX-9." for i in range(8)]
    lines = [{"case_id": f"c{i}", "output": out} for i, out in enumerate(outputs)]
    lines.append({"case_id": "ghost", "output": "no such case"})
    answers.write_text("".join(json.dumps(a) + "\n" for a in reversed(lines)), encoding="utf-8")
    return suite, answers


@pytest.mark.parametrize("held", [10_000, 2], ids=["held", "read-again"])
def test_a_streamed_score_scores_every_case_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, held: int
) -> None:
    monkeypatch.setattr(suite_stream, "HELD", held)
    monkeypatch.setattr(replay_index, "HELD", held)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    suite, answers = write_run(tmp_path)
    outcome = score_responses(answers, [suite], settings=load_settings())
    results = list(outcome.report.cases())
    assert [r.case_id for r in results] == [f"c{i}" for i in range(9)]
    assert [r.primary for r in results].count("policy_violation") == 3  # the leaked code
    assert results[-1].error == "no recorded response for case 'c8'"
    assert outcome.unmatched == [(None, "ghost")]
    assert outcome.run.config["planned"] == 9


@pytest.mark.parametrize(
    "selection",
    [
        pytest.param(Selection(ids=("c1", "support/c7")), id="ids"),
        pytest.param(Selection(sample=4, seed=3), id="sample"),
    ],
)
def test_a_selected_score_streams_and_scores_what_the_loaded_suites_select(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, selection: Selection
) -> None:
    monkeypatch.setattr(suite_stream, "HELD", 2)
    monkeypatch.setattr(replay_index, "HELD", 2)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    suite, answers = write_run(tmp_path)
    outcome = score_responses(answers, [suite], settings=load_settings(), selection=selection)
    every = load_suites([suite])
    chosen = [c.id for s in select_cases(every, selection) for c in s.cases]
    assert [r.case_id for r in outcome.report.cases()] == chosen
    assert outcome.run.config["planned"] == len(chosen)
    assert outcome.unmatched == load_responses(answers).unmatched(every[0].cases)
