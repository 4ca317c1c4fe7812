"""A scorer's `ScoreResult`: the result fields it sets land on the `CaseResult` by attribute, its
own record and a plugin's keys under ``scores[name]``; a later scorer's field replaces an
earlier one's."""

from __future__ import annotations

from typing import ClassVar

import pytest
from pydantic import BaseModel, ValidationError

from failproof.config import ScoringConfig
from failproof.core import Case, Classification, Response
from failproof.scoring import Evidence, Scorer, ScoreResult, score_case

CASE = Case(id="c1", suite="s", input="Say hi", expect={"must_contain": ["hi"]})


class Note(BaseModel):
    status: str
    reason: str | None = None
    detail: str | None = None


class Fixed(Scorer):
    """Returns the result it was given."""

    name: ClassVar[str] = "fixed"

    def __init__(self, result: ScoreResult) -> None:
        super().__init__(ScoringConfig())
        self.result = result

    def score(self, case: Case, response: Response, evidence: Evidence) -> ScoreResult:
        return self.result


def scored(*results: ScoreResult) -> tuple[Classification | None, int | None, dict[str, object]]:
    chain = [Fixed(r) for r in results]
    result = score_case(CASE, Response.from_output("hi"), chain)
    return result.classification, result.accuracy, result.scores


def test_a_later_scorers_field_replaces_an_earlier_ones_and_unset_fields_are_kept() -> None:
    first = ScoreResult(classification=Classification(primary="fail"), accuracy=0)
    later = ScoreResult(classification=Classification(primary="pass", decided_by="judge"))
    classification, accuracy, _ = scored(first, later)
    assert classification == later.classification
    assert accuracy == 0  # the later scorer set no accuracy: the first one's stays


def test_only_the_fields_a_record_set_are_stored_with_a_plugins_keys_after_them() -> None:
    out = ScoreResult(record=Note(status="not_judged", reason="nothing"), extra={"n": 2})
    assert out.kept() == {"status": "not_judged", "reason": "nothing", "n": 2}
    assert ScoreResult(record=Note(status="ok", detail=None)).kept() == {
        "status": "ok",
        "detail": None,
    }
    assert scored(out)[2] == {"fixed": {"status": "not_judged", "reason": "nothing", "n": 2}}


def test_a_result_with_nothing_of_its_own_stores_nothing_under_its_name() -> None:
    assert scored(ScoreResult(accuracy=1))[2] == {}


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"accuracy": 2}, id="accuracy-not-0-or-1"),
        pytest.param({"clasification": {"primary": "pass"}}, id="misspelled-field"),
        pytest.param({"case_score": {"risk_score": "high"}}, id="malformed-case-score"),
    ],
)
def test_a_malformed_result_is_refused_where_it_is_made(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        ScoreResult.model_validate(fields)


FAIL = Classification(primary="fail")


@pytest.mark.parametrize(
    ("earlier", "later", "expected"),
    [
        pytest.param(ScoreResult(), ScoreResult(accuracy=1), (None, 1), id="nothing-set-before"),
        pytest.param(
            ScoreResult(classification=FAIL, accuracy=0),
            ScoreResult(),
            (FAIL, 0),
            id="nothing-after",
        ),
        pytest.param(
            ScoreResult(record=Note(status="x")),
            ScoreResult(accuracy=0),
            (None, 0),
            id="record-only",
        ),
        pytest.param(
            ScoreResult(classification=FAIL), ScoreResult(accuracy=1), (FAIL, 1), id="both-kept"
        ),
    ],
)
def test_over_gives_the_later_results_fields_else_the_earlier_ones(
    earlier: ScoreResult, later: ScoreResult, expected: tuple[Classification | None, int | None]
) -> None:
    merged = later.over(earlier)
    assert (merged.classification, merged.accuracy) == expected
    assert merged.sets_fields() == (expected != (None, None))
