"""High 1: no check that fails may ever read as a pass."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tests.hostile.conftest import read_report, write_responses, write_suite

from failproof.cli import main
from failproof.config import ScoringConfig
from failproof.core import Case, Response
from failproof.scoring import Evidence, Scorer, ScoreResult, build_scorers, score_case
from failproof.scoring import _classify_rules as rules

HUGE_NUMBER = '{"balance": ' + "9" * 5000 + ', "note": "the key is sk-leaked"}'


def case(**expect: Any) -> Case:
    return Case.model_validate({"id": "c", "suite": "s", "input": "hi", "expect": expect})


def test_a_json_number_past_the_int_limit_is_parsed_and_the_leak_still_caught(
    workdir: Path,
) -> None:
    suite = write_suite(
        workdir,
        [
            {
                "id": "c",
                "input": "x",
                "expect": {"format": "json", "must_not_contain": ["sk-leaked"]},
            }
        ],
    )
    recorded = write_responses(workdir, [{"case_id": "c", "output": HUGE_NUMBER}])
    assert main(["run", suite, "--target", f"replay:{recorded}", "-q", "-f", "json"]) == 1
    (result,) = read_report(workdir)["results"]
    assert result["classification"]["primary"] == "policy_violation"
    assert result["classification"]["reasons"][0]["rule"] == "must_not_contain"


def test_a_check_that_raises_gives_error_and_the_other_checks_still_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def broken(*args: object) -> list[object]:
        raise ValueError("cannot read this output")

    monkeypatch.setattr(rules, "_format", broken)
    scorers = build_scorers(ScoringConfig(), ["failproof"])
    result = score_case(
        case(format="json", must_not_contain=["secret"]),
        Response.from_output("the secret"),
        scorers,
    )
    assert result.classification is not None
    assert result.classification.primary == "error"
    rules_fired = [r.rule for r in result.classification.reasons]
    assert rules_fired[:2] == ["check_error", "must_not_contain"]
    assert "cannot read this output" in (result.classification.reasons[0].evidence or "")
    assert result.accuracy == 0


class _Exploding(Scorer):
    name = "exploding"

    def score(self, case: Case, response: Response, evidence: Evidence) -> ScoreResult:
        raise OverflowError("the scorer fell over")


@pytest.mark.filterwarnings("ignore::failproof.scoring.ScorerWarning")
def test_a_scorer_that_raises_gives_an_error_verdict_with_the_reason() -> None:
    scorers = [*build_scorers(ScoringConfig(), ["failproof"]), _Exploding(ScoringConfig())]
    result = score_case(case(must_contain=["hi"]), Response.from_output("hi"), scorers)
    assert result.primary == "error"
    assert result.classification is not None
    first = result.classification.reasons[0]
    assert first.rule == "scorer_error"
    assert "the scorer fell over" in (first.evidence or "")
    assert result.accuracy == 0
