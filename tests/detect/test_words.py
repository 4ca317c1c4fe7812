"""Content words: what a prompt is about, and which of its words an answer uses."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from failproof.detect._profile import REACH, profile_text
from failproof.detect._words import (
    _used_by_search,
    _used_by_words,
    content_stems,
    count_used,
)


def test_content_stems_drop_framing_words_and_suffixes() -> None:
    assert content_stems("Can you write a short poem about the oceans?") == {"poem", "ocea"}
    assert content_stems("The ocean's poems") == {"ocea", "poem"}


def test_hindi_words_stay_whole_across_their_vowel_signs() -> None:
    # Python's \w does not count Devanagari vowel signs as word characters.
    assert {"भारत", "राजध"} <= content_stems("भारत की राजधानी क्या है?")


def test_shares_counts_the_prompt_stems_the_answer_uses() -> None:
    stems = content_stems("Write a poem about the ocean")
    assert profile_text("Oceans are deep; a poem can be, too.").shares(stems) == 2
    assert profile_text("Overcooked pasta is a shame.").shares(content_stems("cook")) == 0
    assert profile_text("Anything at all.").shares(frozenset()) == 0


def test_words_are_read_from_a_bounded_window() -> None:
    stems = content_stems("tell me about volcanoes")
    far = "Lorem ipsum. " * (REACH // 13 + 10) + "Volcanoes erupt."
    assert profile_text(far).shares(stems) == 0
    assert profile_text("Volcanoes erupt. " + far).shares(stems) == 1


_ALPHABET = "abcdefgh ABC  \n\t'’-.,5_éß\u0301\u093eभर"
_texts = st.text(alphabet=_ALPHABET, max_size=400)
_stems = st.frozensets(st.text(alphabet="abcdefgh'éभर\u093e", min_size=3, max_size=4), max_size=20)


@settings(max_examples=400, deadline=None)
@given(text=_texts, prompt=_texts, extra=_stems)
def test_reading_every_word_counts_what_searching_for_each_stem_counts(
    text: str, prompt: str, extra: frozenset[str]
) -> None:
    stems = content_stems(prompt) | extra
    window = text.lower().replace("’", "'")
    by_words = _used_by_words(window, stems)
    assert by_words is None or by_words == _used_by_search(window, stems)
    assert count_used(text, stems) == _used_by_search(window, stems)


@pytest.mark.parametrize(
    ("text", "words_path"),
    [
        pytest.param("ab cde " * 10, True, id="short-chunks-read-word-by-word"),
        pytest.param("x" * 300 + "ocean", False, id="a-long-chunk-is-searched"),
    ],
)
def test_the_word_path_stands_aside_only_for_long_chunks(text: str, words_path: bool) -> None:
    stems = frozenset({"ocea", "abc", "cde"})
    assert (_used_by_words(text, stems) is not None) is words_path
