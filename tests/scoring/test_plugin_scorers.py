"""Plugin scorers: their extra keys land in the result and the report; a scorer that raises
is kept as an error and never reads as a pass."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from failproof import load_settings, score_responses
from failproof.config import ScoringConfig
from failproof.core import Case, Response
from failproof.report import renderers
from failproof.report._verdict import case_verdict
from failproof.scoring import (
    Evidence,
    Scorer,
    ScoreResult,
    ScorerWarning,
    build_scorers,
    score_case,
    scorers,
)


class LengthScorer(Scorer):
    """A plugin scorer with its own keys (not result fields)."""

    name: ClassVar[str] = "length_plugin"

    def score(self, case: Case, response: Response, evidence: Evidence) -> ScoreResult:
        return ScoreResult(extra={"chars": len(response.output), "long": len(response.output) > 20})


class BrokenScorer(Scorer):
    """A plugin scorer with a bug."""

    name: ClassVar[str] = "broken_plugin"

    def score(self, case: Case, response: Response, evidence: Evidence) -> ScoreResult:
        raise ValueError("boom")


@pytest.fixture
def plugins() -> Iterator[None]:
    scorers.register("length_plugin")(LengthScorer)
    scorers.register("broken_plugin")(BrokenScorer)
    try:
        yield
    finally:
        scorers.unregister("length_plugin")
        scorers.unregister("broken_plugin")


CASE = Case(id="c1", suite="s", input="Say hi", expect={"must_contain": ["hi"]})


def test_a_plugin_scorers_keys_are_kept_under_its_name(plugins: None) -> None:
    chosen = build_scorers(ScoringConfig(), ["length_plugin", "failproof"])
    result = score_case(CASE, Response.from_output("hi there"), chosen)
    assert result.scores == {"length_plugin": {"chars": 8, "long": False}}
    assert result.classification is not None and result.classification.primary == "pass"


def test_a_scorer_that_raises_is_kept_as_an_error_and_others_still_score(plugins: None) -> None:
    chosen = build_scorers(ScoringConfig(), ["broken_plugin", "failproof"])
    with pytest.warns(ScorerWarning, match="scorer 'broken_plugin' failed on case 'c1'"):
        result = score_case(CASE, Response.from_output("hi there"), chosen)
    assert result.scores == {"broken_plugin": {"scorer_error": "ValueError('boom')"}}
    assert result.classification is not None and result.classification.primary == "error"
    assert [r.rule for r in result.classification.reasons] == ["scorer_error"]
    assert case_verdict(result) == "fail"


class DictScorer(Scorer):
    """A plugin scorer that returns a bare mapping instead of its result."""

    name: ClassVar[str] = "dict_plugin"

    def score(self, case: Case, response: Response, evidence: Evidence) -> ScoreResult:
        return {"classification": {"primary": "pass"}}  # type: ignore[return-value]


def test_a_scorer_returning_a_mapping_fails_and_names_what_to_return() -> None:
    with pytest.warns(ScorerWarning, match="returned a dict, not a ScoreResult"):
        result = score_case(CASE, Response.from_output("hi there"), [DictScorer(ScoringConfig())])
    assert result.primary == "error" and result.accuracy == 0
    assert case_verdict(result) == "fail"


def test_a_case_only_a_failing_scorer_looked_at_is_not_a_pass(plugins: None) -> None:
    chosen = build_scorers(ScoringConfig(), ["broken_plugin"])
    with pytest.warns(ScorerWarning):
        result = score_case(CASE, Response.from_output("hi there"), chosen)
    assert case_verdict(result) == "fail"


def test_plugin_keys_and_errors_reach_report_json_and_every_renderer(
    plugins: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    suite = tmp_path / "s.yaml"
    case = "  - {id: c1, input: Say hi, expect: {must_contain: [hi]}}\n"
    suite.write_text("suite: s\ncases:\n" + case)
    responses = tmp_path / "r.jsonl"
    responses.write_text(json.dumps({"case_id": "c1", "output": "hi there"}) + "\n")
    with pytest.warns(ScorerWarning):
        report = score_responses(responses, [suite], settings=load_settings()).report
    data = json.loads(renderers.get("json")().render(report))
    scores = data["results"][0]["scores"]
    assert scores["length_plugin"] == {"chars": 8, "long": False}
    assert scores["broken_plugin"] == {"scorer_error": "ValueError('boom')"}
    for name in renderers.names():
        assert renderers.get(name)().render(report)
