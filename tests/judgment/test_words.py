"""Content words: what a prompt is about, and which of its words an answer uses."""

from __future__ import annotations

from failproof.judgment._profile import REACH, profile_text
from failproof.judgment._words import content_stems


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
