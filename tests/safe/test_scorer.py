"""SAFE v0 inside failproof runs: the ``safe_v0`` scorer and the ``safe_v0`` report section."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from failproof import load_settings, score_responses
from failproof.config import SafeConfig, ScoringConfig
from failproof.core import Case, Response
from failproof.core._case import SafeExpectations
from failproof.metrics import aggregators
from failproof.report import exit_code
from failproof.report._verdict import case_verdict
from failproof.safe._scorer import SafeV0Scorer
from failproof.scoring import Evidence, scorers


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))


EXPECT = SafeExpectations.model_validate(
    {
        "signal_generation": {"must_find_signals": ["troponin rise", "late consult"]},
        "followup_questions": {"forbidden_terms": ["blame", "fault"]},
        "event_summary": {"must_contain_phrases": ["NSTEMI"]},
    }
)
OUTPUT = {
    "signals": ["Troponin rise", "Late consult"],
    "summary": "NSTEMI confirmed.",
    "followup_questions": ["Whose fault was it?"],
}


def _case(**extra: Any) -> Case:
    return Case(id="c1", suite="cardio", input="Review this chart.", expectations=EXPECT, **extra)


def _score(
    response: Response, case: Case | None = None, safe: SafeConfig | None = None
) -> dict[str, Any]:
    scorer = SafeV0Scorer(ScoringConfig(safe=safe or SafeConfig()))
    out = scorer.score(case or _case(), response, Evidence(response))
    assert out.safe_v0 is not None
    card: dict[str, Any] = out.safe_v0.model_dump(mode="json")
    return card


def test_registered_and_applies_only_to_cases_with_expectations() -> None:
    assert "safe_v0" in scorers.names()
    assert "safe_v0" in aggregators.names()
    scorer = SafeV0Scorer(ScoringConfig())
    assert scorer.applies_to(_case())
    assert not scorer.applies_to(Case(id="x", input="hi"))


@pytest.mark.parametrize(
    "response",
    [
        pytest.param(Response.from_output(OUTPUT), id="structured-output"),
        pytest.param(Response.from_output(json.dumps(OUTPUT)), id="json-text"),
        pytest.param(
            Response(output="```json\n" + json.dumps(OUTPUT) + "\n```"), id="json-in-a-code-fence"
        ),
    ],
)
def test_reads_the_safe_output_from_the_response(response: Response) -> None:
    card = _score(response)
    assert card["scores"]["CR"] == 1.0
    assert card["scores"]["AH"] == 0.5
    assert card["details"]["AH"] == {"violations": ["fault"]}
    assert card["label"] == "Review"
    assert card["batch_id"] == "cardio"


@pytest.mark.parametrize(
    ("response", "note"),
    [
        pytest.param(Response.failure("timed out"), "the target failed (timed out)", id="error"),
        pytest.param(Response.from_output("plain prose"), "not a JSON object", id="not-json"),
        pytest.param(
            Response.from_output({"signals": []}),
            "output.summary: Field required",
            id="missing-field",
        ),
    ],
)
def test_unusable_response_scores_as_empty_output_and_says_why(
    response: Response, note: str
) -> None:
    card = _score(response)
    assert (card["scores"]["CR"], card["scores"]["AH"], card["scores"]["AC"]) == (0.0, 1.0, 0.0)
    assert card["label"] == "Fail"
    assert note in card["notes"][0]


def test_metric_id_from_case_metadata_selects_weights() -> None:
    safe = SafeConfig.model_validate({"metricWeights": {"M1": {"AH": 0}}})
    card = _score(Response.from_output(OUTPUT), _case(metadata={"metric_id": "M1"}), safe)
    assert card["scores"]["composite"] == 1.0
    assert card["metric_id"] == "M1"


def test_score_responses_adds_the_safe_v0_section(tmp_path: Path) -> None:
    suite = tmp_path / "cardio.yaml"
    suite.write_text(
        "suite: cardio\ncases:\n"
        "  - id: c1\n    input: Review the chart.\n    archetype: Process_Auditor\n"
        f"    expectations: {json.dumps(EXPECT.model_dump())}\n"
        "  - id: c2\n    input: Plain question.\n"
    )
    responses = tmp_path / "responses.jsonl"
    lines = [{"case_id": "c1", "output": OUTPUT}, {"case_id": "c2", "output": "Hello."}]
    responses.write_text("".join(json.dumps(line) + "\n" for line in lines))
    outcome = score_responses(responses, [suite], settings=load_settings())
    report = outcome.report
    assert report.safe_v0 is not None
    assert report.safe_v0.summary.total_cases == 1
    assert report.safe_v0.by_archetype["Process_Auditor"].count == 1
    assert "results" not in report.safe_v0
    by_id = {r.case_id: r for r in report.results}
    assert by_id["c1"].safe_v0 is not None and by_id["c1"].safe_v0.label == "Review"
    assert by_id["c2"].safe_v0 is None
    assert case_verdict(by_id["c1"]) == "review"
    assert int(exit_code(report)) in {1, 2}
