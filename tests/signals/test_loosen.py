"""The set finds candidates with loosened patterns; every candidate is confirmed by its exact
pattern, so what a scan reports is what the patterns as written match."""

from __future__ import annotations

import pytest
import re2
from hypothesis import given, settings
from hypothesis import strategies as st

from failproof.signals import SignalLibrary, SignalMatcher, load_library
from failproof.signals._library import compile_options
from failproof.signals._loosen import loosened
from failproof.signals._schema import Pattern


@pytest.mark.parametrize(
    ("regex", "loose"),
    [
        ("a{0,1000}b", "a*b"),
        ("a{2,50}", "a+"),
        ("a{3,}", "a+"),
        ("a{0,}", "a*"),
        ("a{12}", "a+"),
        ("a{0,200}?b", "a*?b"),
        ("(?:ab|cd){1,120}", "(?:ab|cd)+"),
        ("a{1,8}b{5}c{0,8}", "a{1,8}b{5}c{0,8}"),  # small counts stay as written
    ],
)
def test_a_large_counted_repetition_is_loosened(regex: str, loose: str) -> None:
    assert loosened(regex) == loose


@pytest.mark.parametrize(
    ("regex", "loose"),
    [
        (r"\{0,100}", r"\{0,100}"),  # an escaped brace is a literal
        (r"\x{093C}{0,20}", r"\x{093C}*"),  # a braced escape is one atom
        (r"\p{Greek}{2,30}", r"\p{Greek}+"),
        (r"\pL{2,30}", r"\pL+"),
        ("[{]{0,50}", "[{]*"),  # a brace in a class is a member
        ("[^]{]{0,9}", "[^]{]*"),  # so is a leading ]
        ("[[:alpha:]{]{0,100}", "[[:alpha:]{]*"),
        (r"[\]{]{0,40}", r"[\]{]*"),
        (r"\Qa{0,100}\E{0,30}", r"\Qa{0,100}\E*"),  # quoted text is text
        ("a{,100}", "a{,100}"),  # not a repetition in RE2: a literal
        ("", ""),
    ],
)
def test_only_the_patterns_own_repetitions_are_rewritten(regex: str, loose: str) -> None:
    assert loosened(regex) == loose


BUILTIN = load_library()
SNIPPETS = [e for p in BUILTIN for e in p.examples] + ["", "\n", " é ¿ "]


def _search(regex: str, text: str) -> bool:
    return re2.compile(regex, compile_options()).search(text) is not None


@pytest.mark.parametrize("pattern", [pytest.param(p, id=p.id) for p in BUILTIN])
def test_every_built_in_pattern_loosened_compiles_and_still_finds_its_examples(
    pattern: Pattern,
) -> None:
    for example in pattern.examples:
        assert _search(loosened(pattern.regex), example)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(SNIPPETS), min_size=1, max_size=6))
def test_a_loosened_pattern_matches_every_text_its_exact_pattern_matches(
    parts: list[str],
) -> None:
    text = " ".join(parts)
    for pattern in BUILTIN:
        if pattern.regex != loosened(pattern.regex) and _search(pattern.regex, text):
            assert _search(loosened(pattern.regex), text), pattern.id


def _library(regex: str) -> SignalLibrary:
    pattern = Pattern.model_validate(
        {"id": "unsafe.test.near", "label": "near", "kind": "unsafe", "regex": regex}
    )
    return SignalLibrary(patterns=(pattern,))


def test_a_candidate_the_exact_pattern_rejects_is_not_reported() -> None:
    matcher = SignalMatcher(_library(r"start[\s\S]{0,20}end"))
    near, far = "start" + "x" * 20 + "end", "start" + "x" * 21 + "end"

    assert [h.id for h in matcher.scan(near).hits] == ["unsafe.test.near"]
    assert matcher.matching_ids(near) == ["unsafe.test.near"]
    assert matcher.scan(far).hits == ()  # the loosened start[\s\S]*end matches; the pattern not
    assert matcher.matching_ids(far) == []
