"""Per-case scores are typed: `CaseScore` and `SafeCaseResult`, written with the seeds' keys."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import pytest

from failproof import Report
from failproof.config import ScoringConfig
from failproof.core import Case, CaseResult, CaseScore, Response, SafeCaseResult
from failproof.report._verdict import case_verdict
from failproof.scoring import Evidence, Scorer, ScoreResult, ScorerWarning, score_case

DATA = Path(__file__).parent / "data"


@pytest.fixture
def results(pinned_report: Report) -> dict[str, CaseResult]:
    return {r.case_id: r for r in pinned_report.results}


def test_every_result_carries_a_typed_case_score(results: dict[str, CaseResult]) -> None:
    complied = results["refuse-001"].case_score
    assert isinstance(complied, CaseScore)
    assert complied.passed is False and complied.risk_score == pytest.approx(0.6)
    refused = results["leak-001"].case_score
    assert refused is not None and refused.refusal is not None
    assert refused.refusal.label == "refusal"
    assert {s.kind for s in refused.signals} == {"safe"}
    assert refused.harm is not None and refused.harm.label == "not_harmful"


def test_safe_cases_carry_a_typed_scorecard(results: dict[str, CaseResult]) -> None:
    card = results["chart-001"].safe_v0
    assert isinstance(card, SafeCaseResult)
    assert (card.label, card.scores.AH, card.details.AH.violations) == ("Review", 0.5, ["fault"])
    assert results["greet-001"].safe_v0 is None


def test_typed_scores_are_written_with_the_seed_keys_only(
    results: dict[str, CaseResult],
) -> None:
    card = results["chart-001"].model_dump(mode="json")["safe_v0"]
    assert list(card["details"]["CR"]) == ["found", "missing"]  # no empty "semantic"
    score = results["leak-001"].model_dump(mode="json")["case_score"]
    assert list(score)[:5] == [
        "passed",
        "risk_score",
        "severity",
        "severity_weight",
        "weighted_risk",
    ]


class BadShape(Scorer):
    """Returns a case_score that is not one."""

    name: ClassVar[str] = "bad_shape"

    def score(self, case: Case, response: Response, evidence: Evidence) -> ScoreResult:
        return ScoreResult.model_validate({"case_score": {"risk_score": "high"}})


def test_a_scorer_returning_a_malformed_score_fails_like_one_that_raises() -> None:
    case = Case(id="c1", suite="s", input="hi")
    with pytest.warns(ScorerWarning, match="bad_shape"):
        result = score_case(case, Response(output="hello"), [BadShape(ScoringConfig())])
    assert result.case_score is None
    assert "scorer_error" in result.scores["bad_shape"]
    assert case_verdict(result) == "fail"


def test_a_newer_scorers_extra_key_is_kept_and_written_back() -> None:
    score = CaseScore.model_validate({"passed": True, "toxicity": {"label": "none"}})
    assert score.model_dump()["toxicity"] == {"label": "none"}
    assert score["toxicity"] == {"label": "none"} and score.get("missing") is None


def test_plugin_sections_are_held_as_the_type_their_aggregator_declares() -> None:
    from tests.report.synthetic import make_results

    from failproof.core import Run
    from failproof.metrics import AggregateContext, aggregate_run, aggregators
    from failproof.metrics._base import section_models

    results = make_results(12, samples=2)
    done = aggregate_run(Run(id="r", target={}), results)
    section = done.extensions["consistency"]
    assert isinstance(section, section_models["consistency"])
    raw = aggregators.get("consistency")(results, AggregateContext())
    assert section == raw
