"""The text profile: steps, code, sentences and quotes, read where the judge asks."""

from __future__ import annotations

import pytest

from failproof.detect._profile import REACH, profile_text

# -- lists and code ----------------------------------------------------------------------------


def test_list_items_steps_and_code_fences_are_counted_where_their_line_starts() -> None:
    text = "Intro.\n\n1. One\n2) Two\n- three\n* four\n```python\nx = 1\n```\nEnd."
    profile = profile_text(text)
    assert profile.blocks_between(0, profile.length) == 6
    assert profile.blocks_between(text.index("- three"), profile.length) == 4
    assert profile.blocks_between(0, text.index("- three")) == 2


def test_a_list_at_the_very_start_counts() -> None:
    assert profile_text("- one\n- two").blocks_between(0, 11) == 2


def test_a_hyphen_inside_a_line_is_not_a_list_item() -> None:
    text = "A well-known, low-cost - and safe - option."
    assert profile_text(text).blocks_between(0, len(text)) == 0


def test_blocks_are_counted_over_a_bounded_reach() -> None:
    opening = "I can't help with that.\n"
    text = opening + "- step\n" * (REACH // 7 + 500)
    within_reach = len(range(len(opening), REACH, len("- step\n")))
    assert profile_text(text).blocks_between(0, len(text)) == within_reach


# -- sentences ---------------------------------------------------------------------------------


def test_sentence_end_after_an_offset() -> None:
    text = "I can't do that. Here is why: it is unsafe!"
    profile = profile_text(text)
    assert profile.sentence_end_after(2) == text.index(".") + 1
    assert profile.sentence_end_after(20) == len(text)


def test_the_full_stop_of_a_numbered_step_does_not_end_a_sentence() -> None:
    text = "I won't help with that\n2. but here is a step. Done"
    assert profile_text(text).sentence_end_after(0) == text.index("step.") + len("step.")


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("मैं मदद नहीं कर सकता। यह रहा कारण", id="devanagari-danda"),
        pytest.param("هل تريد شيئاً آخر؟ إليك الخيارات", id="arabic-question-mark"),
        pytest.param("我不能帮你。但是", id="cjk-full-stop"),
    ],
)
def test_sentences_end_in_other_scripts(text: str) -> None:
    end = profile_text(text).sentence_end_after(0)
    assert text[end - 1] in "।؟。"


# -- quotes ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "phrase", "quoted"),
    [
        pytest.param('He said "no way" twice.', "no way", True, id="straight"),
        pytest.param("She said “no way” twice.", "no way", True, id="curly"),
        pytest.param("Sie sagte „nein“ zweimal.", "nein", True, id="german"),
        pytest.param("Il a dit « non » deux fois.", "non", True, id="french"),
        pytest.param("彼は「できません」と言った。", "できません", True, id="corner-brackets"),
        pytest.param('An open "quote\nno way on the next line', "no way", False, id="unclosed"),
        pytest.param('"A" and then no way "B"', "no way", False, id="between-quotes"),
        pytest.param('He said "no way', "no way", True, id="open-to-the-end"),
    ],
)
def test_quoted_spans(text: str, phrase: str, quoted: bool) -> None:
    start = text.index(phrase)
    assert profile_text(text).quoted(start, start + len(phrase)) is quoted


def test_leading_whitespace_is_the_lead() -> None:
    assert profile_text("\n\n  Sure.").lead == 4
    assert profile_text("Sure.").lead == 0
