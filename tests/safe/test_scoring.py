"""Scoring one record: targets, case-insensitivity, edge cases, details, weights and thresholds."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.safe.factories import record, score

from failproof.safe import SafeConfig, SafeRecord, score_records


def test_cr_target_is_signals_and_summary_combined() -> None:
    result = score(
        must_find=["troponin rise", "weekend admission", "no consult"],
        signals=["Troponin rise over 6 h"],
        summary="Weekend admission with NSTEMI.",
    )
    assert result.cr.found == ("troponin rise", "weekend admission")
    assert result.cr.missing == ("no consult",)
    assert pytest.approx(2 / 3) == result.scores.CR


def test_ac_target_is_the_summary_only() -> None:
    result = score(
        must_contain=["heparin", "aspirin"], signals=["Heparin"], summary="Aspirin given."
    )
    assert result.ac.found == ("aspirin",)
    assert result.ac.missing == ("heparin",)
    assert result.scores.AC == 0.5


def test_ah_target_is_the_joined_followup_questions() -> None:
    result = score(
        forbidden=["negligent", "blame", "should have", "policy"],
        summary="Policy and blame are discussed here, not in the questions.",
        questions=["Who is to blame?", "Which policy applies?", "Was it timed?"],
    )
    assert result.ah_violations == ("blame", "policy")
    assert result.scores.AH == 0.5
    assert result.label == "Review"


def test_matching_is_case_insensitive_both_ways() -> None:
    result = score(
        must_find=["BLEEDING RISK"],
        must_contain=["crusade score"],
        signals=["bleeding risk not assessed"],
        summary="No CRUSADE Score documented.",
    )
    assert (result.scores.CR, result.scores.AC) == (1.0, 1.0)


@pytest.mark.parametrize(
    ("fields", "expected", "notes"),
    [
        pytest.param(
            {"signals": [], "summary": "", "questions": []},
            (1.0, 1.0, 1.0),
            [
                "CR: no must_find_signals, vacuously 1.0",
                "AH: no forbidden_terms, 1.0",
                "AC: no must_contain_phrases, vacuously 1.0",
            ],
            id="empty-lists-with-empty-output-give-one",
        ),
        pytest.param(
            {"must_find": ["a"], "must_contain": ["b"], "forbidden": ["c"], "summary": "  \n"},
            (0.0, 1.0, 0.0),
            ["CR: empty output, 0.0", "AH: no follow-up questions, 1.0", "AC: empty summary, 0.0"],
            id="empty-output-gives-zero-cr-ac-and-one-ah",
        ),
        pytest.param(
            {"must_find": ["late"], "must_contain": ["late"], "signals": ["Late consult"]},
            (1.0, 1.0, 0.0),
            ["AH: no forbidden_terms, 1.0", "AC: empty summary, 0.0"],
            id="empty-summary-zero-ac-but-cr-from-signals",
        ),
        pytest.param(
            {"forbidden": ["blame"], "questions": None, "summary": "blame"},
            (1.0, 1.0, 1.0),
            [
                "CR: no must_find_signals, vacuously 1.0",
                "AH: no follow-up questions, 1.0",
                "AC: no must_contain_phrases, vacuously 1.0",
            ],
            id="null-followups-give-ah-one",
        ),
        pytest.param(
            {"must_find": ["x"], "signals": None, "summary": None},
            (0.0, 1.0, 1.0),
            [
                "CR: empty output, 0.0",
                "AH: no forbidden_terms, 1.0",
                "AC: no must_contain_phrases, vacuously 1.0",
            ],
            id="null-signals-and-summary-are-empty",
        ),
    ],
)
def test_edge_cases(fields: dict[str, Any], expected: tuple[float, ...], notes: list[str]) -> None:
    result = score(**fields)
    assert expected == (result.scores.CR, result.scores.AH, result.scores.AC)
    assert list(result.notes) == notes


def test_strict_ah_is_binary() -> None:
    fields = {"forbidden": ["a1", "b2", "c3", "d4"], "questions": ["a1?"]}
    assert score(**fields).scores.AH == 0.75
    strict = score(SafeConfig(strictAH=True), **fields)
    assert strict.scores.AH == 0.0
    assert strict.label == "Fail"


def test_details_keep_expectation_order_and_spelling() -> None:
    result = score(must_find=["Zeta", "alpha", "Mid"], signals=["ALPHA zeta"])
    assert result.cr.found == ("Zeta", "alpha")
    assert result.to_json()["details"] == {
        "CR": {"found": ["Zeta", "alpha"], "missing": ["Mid"]},
        "AH": {"violations": []},
        "AC": {"found": [], "missing": []},
    }


def test_result_json_has_the_spec_scorecard_shape() -> None:
    data = score(must_find=["a"], signals=["a"]).to_json()
    assert {"test_id", "archetype", "scores", "details", "label"} <= set(data)
    assert set(data["scores"]) == {"CR", "AH", "AC", "composite"}


def test_archetype_thresholds_change_only_that_archetype() -> None:
    config = SafeConfig.model_validate(
        {"archetypeThresholds": {"Safety_Signal": {"CR": {"pass": 0.9}}}}
    )
    fields = {"must_find": list("abcde"), "signals": ["a b c d"]}
    assert score(config, archetype="Safety_Signal", **fields).label == "Review"
    assert score(config, archetype="Process_Auditor", **fields).label == "Pass"


@pytest.mark.parametrize(
    ("archetype", "metric_id", "expected"),
    [
        pytest.param("Other", None, (1.0 + 0.0 + 1.0) / 3.5, id="base-weights"),
        pytest.param("Docs", None, (1.0 + 0.0 + 2.0) / 4.5, id="archetype-weights"),
        pytest.param("Other", "M1", (1.0 + 0.0 + 1.0) / 5.0, id="metric-id-weights"),
        pytest.param("Docs", "M1", (1.0 + 0.0 + 2.0) / 6.0, id="metric-id-over-archetype"),
    ],
)
def test_weights_by_archetype_and_metric_id(
    archetype: str, metric_id: str | None, expected: float
) -> None:
    config = SafeConfig.model_validate(
        {
            "weights": {"AH": 1.5},
            "archetypeWeights": {"Docs": {"AC": 2.0}},
            "metricWeights": {"M1": {"AH": 3.0}},
        }
    )
    result = score(
        config,
        archetype=archetype,
        metric_id=metric_id,
        must_find=["x"],
        forbidden=["bad"],
        must_contain=["y"],
        signals=["x"],
        summary="y",
        questions=["bad?"],
    )
    assert result.scores.AH == 0.0
    assert result.scores.composite == pytest.approx(expected)


def test_one_automaton_scores_many_records_independently() -> None:
    records = [
        ("b", record(test_id="1", must_find=["aspirin"], signals=["Aspirin"])),
        ("b", record(test_id="2", must_find=["aspirin"], signals=["heparin"])),
    ]
    results = score_records(records, SafeConfig())
    assert [r.scores.CR for r in results] == [1.0, 0.0]


_words = st.sampled_from(["chest pain", "NPO", "blame", "heparin", "policy", "", "ECG", "x"])
_phrase = _words.filter(bool)


@settings(max_examples=200, deadline=None)
@given(
    must_find=st.lists(_phrase, max_size=5),
    forbidden=st.lists(_phrase, max_size=5),
    must_contain=st.lists(_phrase, max_size=5),
    signals=st.lists(_words, max_size=4),
    summary=st.lists(_words, max_size=6).map(" ".join),
    questions=st.lists(_words, max_size=3),
    strict=st.booleans(),
    weights=st.tuples(*[st.floats(0, 10, allow_nan=False)] * 3).filter(lambda w: sum(w) > 0),
)
def test_every_score_stays_in_unit_interval(
    must_find: list[str],
    forbidden: list[str],
    must_contain: list[str],
    signals: list[str],
    summary: str,
    questions: list[str],
    strict: bool,
    weights: tuple[float, float, float],
) -> None:
    config = SafeConfig.model_validate(
        {"strictAH": strict, "weights": dict(zip(("CR", "AH", "AC"), weights, strict=True))}
    )
    result = score(
        config,
        must_find=must_find,
        forbidden=forbidden,
        must_contain=must_contain,
        signals=signals,
        summary=summary,
        questions=questions,
    )
    assert all(0.0 <= value <= 1.0 for value in result.scores)
    assert len(result.cr.found) + len(result.cr.missing) == len(must_find)
    assert len(result.ac.found) + len(result.ac.missing) == len(must_contain)


def test_blank_phrase_is_rejected_with_its_path() -> None:
    with pytest.raises(ValueError, match=r"forbidden_terms\[1\] is blank"):
        SafeRecord.model_validate(
            {
                "test_id": "x",
                "expectations": {"followup_questions": {"forbidden_terms": ["ok", "  "]}},
                "output": {"signals": [], "summary": "", "followup_questions": []},
            }
        )


def _reference(
    must_find: list[str],
    forbidden: list[str],
    must_contain: list[str],
    signals: list[str],
    summary: str,
    questions: list[str],
) -> tuple[float, float, float]:
    """The specification's formulas written plainly, with Python's ``in``."""
    corpus = "\n".join([*signals, summary]).lower()
    cr = (
        1.0
        if not must_find
        else 0.0
        if not corpus.strip()
        else (sum(p.lower() in corpus for p in must_find) / len(must_find))
    )
    joined = "\n".join(questions).lower()
    ah = (
        1.0
        if not forbidden or not joined.strip()
        else (1 - sum(t.lower() in joined for t in forbidden) / len(forbidden))
    )
    ac = (
        1.0
        if not must_contain
        else 0.0
        if not summary.strip()
        else (sum(p.lower() in summary.lower() for p in must_contain) / len(must_contain))
    )
    return cr, ah, ac


_text = st.text(alphabet="abcAB \nΣσ", max_size=30)
_phr = st.text(alphabet="abcAB Σσ", min_size=1, max_size=4).filter(str.strip)


@settings(max_examples=300, deadline=None)
@given(
    must_find=st.lists(_phr, max_size=4),
    forbidden=st.lists(_phr, max_size=4),
    must_contain=st.lists(_phr, max_size=4),
    signals=st.lists(_text, max_size=3),
    summary=_text,
    questions=st.lists(_text, max_size=3),
)
def test_scores_equal_the_plain_reference_formulas(
    must_find: list[str],
    forbidden: list[str],
    must_contain: list[str],
    signals: list[str],
    summary: str,
    questions: list[str],
) -> None:
    result = score(
        must_find=must_find,
        forbidden=forbidden,
        must_contain=must_contain,
        signals=signals,
        summary=summary,
        questions=questions,
    )
    expected = _reference(must_find, forbidden, must_contain, signals, summary, questions)
    got = (result.scores.CR, result.scores.AH, result.scores.AC)
    assert got == pytest.approx(expected)
