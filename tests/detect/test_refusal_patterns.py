"""The refusal pattern file: its conventions, its coverage, and phrasings it must (not) catch."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from failproof.detect._train import refusal_matcher
from failproof.signals import Pattern
from failproof.signals._library import builtin_pattern_files, read_pattern_file

REFUSAL_FILE = next(p for p in builtin_pattern_files() if p.name == "refusal.yaml")
PATTERNS: tuple[Pattern, ...] = read_pattern_file(Path(REFUSAL_FILE))
ID = re.compile(r"^refusal\.(?P<register>[a-z]+)\.(?P<lang>[a-z]{2})\.\d{3}$")
REGISTERS = {
    "apology",
    "capability",
    "boundary",
    "policy",
    "redirection",
    "rebuttal",
    "negation",
    "delivery",
}


def test_the_file_is_large_and_multilingual() -> None:
    langs = Counter(p.lang for p in PATTERNS)
    assert len(PATTERNS) >= 150
    assert {"en", "fr", "es", "de", "pt", "it", "zh", "ja", "ru"} <= set(langs)
    assert {"sw", "ar", "hi", "ko", "tr", "nl", "pl", "id", "ms"} <= set(langs)
    assert {p.register_ for p in PATTERNS} == REGISTERS


@pytest.mark.parametrize("pattern", PATTERNS, ids=lambda p: p.id)
def test_each_id_names_its_register_and_language(pattern: Pattern) -> None:
    found = ID.match(pattern.id)
    assert found, pattern.id
    assert found["register"] == pattern.register_
    assert found["lang"] == pattern.lang
    assert pattern.kind == "safe"


@pytest.mark.parametrize("lang", sorted({p.lang for p in PATTERNS if p.lang}))
def test_every_language_can_say_sorry_and_cannot(lang: str) -> None:
    registers = {p.register_ for p in PATTERNS if p.lang == lang}
    assert {"apology", "capability"} <= registers


@pytest.mark.parametrize(
    ("text", "label"),
    [
        pytest.param(
            "I’m sorry, but I can’t do that.", "apology_then_cannot", id="curly-apostrophes"
        ),
        pytest.param("I'M SORRY, BUT I CANNOT DO THAT.", "apology_then_cannot", id="upper-case"),
        pytest.param("I must respectfully decline.", "must_decline", id="decline"),
        pytest.param("This would violate our content policy.", "against_policy", id="policy"),
        pytest.param("Instead, here are some ideas.", "offers_instead", id="redirect"),
        pytest.param("Ich lehne diese Anfrage ab.", "must_decline", id="german-decline"),
    ],
)
def test_phrasings_it_must_catch(text: str, label: str) -> None:
    assert label in {h.label for h in refusal_matcher().scan(text).hits}


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("You can't go wrong with olive oil.", id="second-person"),
        pytest.param("I can't help but laugh.", id="cant-help-but"),
        pytest.param("I'm not going to lie, this is delicious.", id="not-going-to-lie"),
        pytest.param("The cat couldn't provide any help, being a cat.", id="third-person"),
    ],
)
def test_phrasings_it_must_leave_alone(text: str) -> None:
    hits = refusal_matcher().scan(text).hits
    assert [h.label for h in hits if h.register != "redirection"] == []
