"""The one-pass text profile: steps, code, sentences, quotes and content words."""

from __future__ import annotations

import pytest

from failproof.judgment._profile import content_stems, profile_text


def test_list_items_steps_and_code_fences_are_counted_where_they_start() -> None:
    text = "Intro.\n\n1. One\n2) Two\n- three\n* four\n```python\nx = 1\n```\nEnd."
    profile = profile_text(text)
    assert len(profile.items) == 4
    assert len(profile.fences) == 2
    assert profile.blocks_between(0, profile.length) == 6
    assert profile.blocks_between(text.index("- three"), profile.length) == 4


def test_a_hyphen_inside_a_line_is_not_a_list_item() -> None:
    assert profile_text("A well-known, low-cost - and safe - option.").items == ()


def test_sentence_end_after_an_offset() -> None:
    text = "I can't do that. Here is why: it is unsafe!"
    profile = profile_text(text)
    assert profile.sentence_end_after(2) == text.index(".") + 1
    assert profile.sentence_end_after(20) == len(text)


@pytest.mark.parametrize(
    ("text", "phrase", "quoted"),
    [
        pytest.param('He said "no way" twice.', "no way", True, id="straight"),
        pytest.param("She said “no way” twice.", "no way", True, id="curly"),
        pytest.param("Sie sagte „nein“ zweimal.", "nein", True, id="german"),
        pytest.param("Il a dit « non » deux fois.", "non", True, id="french"),
        pytest.param('An open "quote\nno way on the next line', "no way", False, id="unclosed"),
        pytest.param('"A" and then no way "B"', "no way", False, id="between-quotes"),
    ],
)
def test_quoted_spans(text: str, phrase: str, quoted: bool) -> None:
    start = text.index(phrase)
    assert profile_text(text).quoted(start, start + len(phrase)) is quoted


def test_content_stems_drop_framing_words_and_suffixes() -> None:
    assert content_stems("Can you write a short poem about the oceans?") == {"poem", "ocea"}
    assert content_stems("The ocean's poems") == {"ocea", "poem"}


def test_words_can_be_skipped_when_no_prompt_needs_them() -> None:
    text = "Sure: 1. Boil water.\n2. Add tea."
    full, shape = profile_text(text), profile_text(text, words=False)
    assert shape.stems == frozenset() and full.stems
    assert (shape.items, shape.sentence_ends) == (full.items, full.sentence_ends)
