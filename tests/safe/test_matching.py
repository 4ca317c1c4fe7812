"""The phrase automaton equals ``phrase.lower() in text.lower()``, exactly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from failproof.safe._matching import PhraseIndex

# Small alphabets make overlaps and repeats likely; the full one finds Unicode corner cases.
_small = st.text(alphabet="abAB İıΣσς\n-", max_size=12)
_any = st.text(max_size=12)
_phrases = st.lists(st.one_of(_small, _any), max_size=8)
_texts = st.one_of(_small, _any, st.text(alphabet="abAB İıΣσς\n-", max_size=60))


def _found(index: PhraseIndex, phrases: list[str], text: str) -> list[bool]:
    hits = index.scan(text)
    return [index.ids[p] in hits.anywhere for p in phrases]


@settings(max_examples=400, deadline=None)
@given(phrases=_phrases, text=_texts)
def test_scan_equals_lowercase_substring(phrases: list[str], text: str) -> None:
    index = PhraseIndex(phrases)
    assert _found(index, phrases, text) == [p.lower() in text.lower() for p in phrases]


@settings(max_examples=300, deadline=None)
@given(phrases=_phrases, head=_texts, tail=_texts)
def test_head_and_tail_scan_equals_joined_and_tail_references(
    phrases: list[str], head: str, tail: str
) -> None:
    index = PhraseIndex(phrases)
    hits = index.scan(tail, head)
    corpus = (head + "\n" + tail).lower()
    assert [index.ids[p] in hits.anywhere for p in phrases] == [
        p.lower() in corpus for p in phrases
    ]
    assert [index.ids[p] in hits.in_tail for p in phrases] == [
        p.lower() in tail.lower() for p in phrases
    ]


@pytest.mark.parametrize(
    ("phrases", "text", "expected"),
    [
        pytest.param(
            ["chest pain", "pain radiating"], "chest pain radiating", [True, True], id="overlapping"
        ),
        pytest.param(["NPO"], "npo status", [True], id="case-insensitive"),
        pytest.param(["a", "aa", "aaa"], "aa", [True, True, False], id="nested-repeats"),
        pytest.param([""], "", [True], id="empty-phrase-like-in"),
        pytest.param(["\ud800x"], "A\ud800X", [True], id="lone-surrogate"),
        pytest.param(
            ["ΟΔΟΣ"], "\u03bf\u03b4\u03bf\u03c3", [False], id="final-sigma-as-python-lowers"
        ),
        pytest.param(["İ"], "i̇stanbul", [True], id="dotted-capital-i"),
    ],
)
def test_scan_examples(phrases: list[str], text: str, expected: list[bool]) -> None:
    index = PhraseIndex(phrases)
    assert _found(index, phrases, text) == expected
    assert expected == [p.lower() in text.lower() for p in phrases]


def test_duplicate_and_case_variants_share_one_pattern() -> None:
    index = PhraseIndex(["Troponin", "troponin", "TROPONIN", "ecg"])
    assert index.size == 2
    assert index.ids["Troponin"] == index.ids["TROPONIN"]


def test_tail_hits_exclude_head_only_occurrences() -> None:
    index = PhraseIndex(["heparin", "aspirin"])
    hits = index.scan("aspirin given", "heparin started")
    assert hits.anywhere == {index.ids["heparin"], index.ids["aspirin"]}
    assert hits.in_tail == {index.ids["aspirin"]}
