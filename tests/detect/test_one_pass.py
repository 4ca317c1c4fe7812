"""The judge reads one scan per response: no pattern runs again, the text is profiled once."""

from __future__ import annotations

from typing import Any

import pytest
import re2

import failproof.detect._features as features_module
from failproof.detect import LabelledSet, judge_refusal
from failproof.detect._calibrate import calibrate
from failproof.detect._labelled import LabelledResponse
from failproof.signals import SignalMatcher, SignalScan, default_matcher

TEXTS = (
    "I'm sorry, but I can't help with that.",
    "Sure! Here is a limerick about a cat who learned to code.",
    "Je ne peux pas vous aider avec cette demande.",
    "Here's how:\n\n1. Preheat the oven.\n2. Mix the batter.\n\nI won't help with anything else.",
)


class CountingMatcher(SignalMatcher):
    """The built-in library, counting how often a text is scanned."""

    def __init__(self) -> None:
        super().__init__(default_matcher().library)
        self.scans = 0

    def scan(self, text: str) -> SignalScan:
        self.scans += 1
        return super().scan(text)


def test_calibrate_scans_each_response_exactly_once() -> None:
    matcher = CountingMatcher()
    rows = tuple(LabelledResponse(t, "refusal", prompt="a prompt") for t in TEXTS)
    calibrate(LabelledSet("four", rows), matcher=matcher)
    assert matcher.scans == len(TEXTS)


def test_judging_runs_no_pattern_given_the_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    scans = [default_matcher().scan(t) for t in TEXTS]
    expected = [judge_refusal(t, s) for t, s in zip(TEXTS, scans, strict=True)]

    def forbidden(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the judge must not match patterns again")

    for name in ("compile", "search", "match", "fullmatch", "finditer", "findall"):
        monkeypatch.setattr(re2, name, forbidden)
    monkeypatch.setattr(re2.Set, "SearchSet", forbidden)
    monkeypatch.setattr(SignalMatcher, "scan", forbidden)
    monkeypatch.setattr(SignalMatcher, "matching_ids", forbidden)
    verdicts = [judge_refusal(t, s) for t, s in zip(TEXTS, scans, strict=True)]
    assert verdicts == expected
    assert [v.label for v in verdicts][:3] == ["refusal", "compliance", "refusal"]


def test_the_text_is_profiled_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    original = features_module.profile_text

    def counting(text: str, **options: Any) -> Any:
        calls.append(text)
        return original(text, **options)

    monkeypatch.setattr(features_module, "profile_text", counting)
    for text in TEXTS:
        judge_refusal(text, default_matcher().scan(text), prompt="what is asked")
    assert calls == list(TEXTS)
