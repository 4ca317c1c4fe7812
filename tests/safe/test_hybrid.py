"""The hybrid matcher, the loop and the automaton all give ``phrase.lower() in target.lower()``.

Targets as the specification defines them: CR the signals and summary joined by newlines, AH
the joined follow-up questions, AC the summary; found phrases in expectation order.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from failproof.safe import SafeRecord
from failproof.safe._hybrid import Engines, RecordHits, match_records, plan

# Small alphabets make overlaps, repeats and case pairs likely; the full one finds Unicode corner
# cases (final sigma, dotted capital I, lone surrogates, characters that lower-case to two).
_ALPHABET = "abAB İıΣσς\n-ẞß"
_text = st.one_of(st.text(alphabet=_ALPHABET, max_size=40), st.text(max_size=30))
_phrase = st.one_of(
    st.text(alphabet=_ALPHABET, min_size=1, max_size=6), st.text(min_size=1, max_size=6)
)
_phrases = st.lists(_phrase.filter(str.strip), max_size=6)


@st.composite
def records(draw: st.DrawFn) -> SafeRecord:
    return SafeRecord.model_validate(
        {
            "test_id": "T",
            "expectations": {
                "signal_generation": {"must_find_signals": draw(_phrases)},
                "followup_questions": {"forbidden_terms": draw(_phrases)},
                "event_summary": {"must_contain_phrases": draw(_phrases)},
            },
            "output": {
                "signals": draw(st.lists(_text, max_size=3)),
                "summary": draw(_text),
                "followup_questions": draw(st.lists(_text, max_size=3)),
            },
        }
    )


def reference(record: SafeRecord) -> RecordHits:
    """The specification's rule, written out: ``phrase.lower() in target.lower()``."""
    out, e = record.output, record.expectations
    corpus = "\n".join([*out.signals, out.summary]).lower()
    questions = "\n".join(out.followup_questions).lower()
    summary = out.summary.lower()
    return RecordHits(
        tuple(p for p in e.must_find_signals if p.lower() in corpus),
        tuple(t for t in e.forbidden_terms if out.followup_questions and t.lower() in questions),
        tuple(p for p in e.must_contain_phrases if p.lower() in summary),
    )


_ENGINES = [Engines(False, False), Engines(True, False), Engines(False, True), Engines(True, True)]


@settings(max_examples=300, deadline=None)
@given(batch=st.lists(records(), min_size=1, max_size=4), picks=st.data())
def test_every_engine_choice_equals_the_specification(batch: list[SafeRecord], picks: Any) -> None:
    expected = [reference(r) for r in batch]
    mixed = picks.draw(
        st.lists(st.sampled_from(_ENGINES), min_size=len(batch), max_size=len(batch))
    )
    assert match_records(batch) == expected  # the hybrid, as planned
    assert match_records(batch, [Engines(False, False)] * len(batch)) == expected  # the loop
    assert match_records(batch, [Engines(True, True)] * len(batch)) == expected  # the automaton
    assert match_records(batch, mixed) == expected


def record(phrases: int, summary_chars: int, terms: int = 5, mention: bool = True) -> SafeRecord:
    """``phrases`` CR and AC phrases, half of them (``mention``) in a summary of about
    ``summary_chars`` characters."""
    words = [f"finding number {i} noted" for i in range(phrases)]
    mentioned = " ".join(words[::2]) if mention else ""
    filler = max(0, summary_chars - len(mentioned))
    summary = ("the patient was reviewed " * (filler // 25 + 1))[:filler]
    return SafeRecord.model_validate(
        {
            "test_id": "T",
            "expectations": {
                "signal_generation": {"must_find_signals": words[: phrases // 2]},
                "followup_questions": {"forbidden_terms": [f"blame {i}" for i in range(terms)]},
                "event_summary": {"must_contain_phrases": words[phrases // 2 :]},
            },
            "output": {
                "signals": words[:3],
                "summary": f"{summary} {mentioned}",
                "followup_questions": ["What was the timeline?", "Who was paged?"],
            },
        }
    )


@pytest.mark.parametrize(
    ("records_", "automaton"),
    [
        pytest.param([record(18, 1500)] * 1000, False, id="spec-sized-records-loop"),
        pytest.param([record(100, 6000)] * 200, True, id="many-phrases-over-long-texts-automaton"),
        pytest.param([record(100, 6000)], False, id="one-such-record-cannot-pay-for-the-build"),
        pytest.param([record(400, 30_000)], True, id="unless-it-is-very-heavy"),
        pytest.param(
            [record(400, 300, terms=0, mention=False)] * 200, False, id="short-texts-loop-always"
        ),
    ],
)
def test_the_plan_follows_the_cost_models(records_: list[SafeRecord], automaton: bool) -> None:
    chosen = plan(records_)
    assert {c.corpus for c in chosen} == {automaton}
    assert not any(c.questions for c in chosen)  # two questions, five terms: always the loop
