"""Whether a model asked to write something (attack prompts, test cases) declined instead."""

from __future__ import annotations

from failproof.detect._judge import judge_refusal
from failproof.signals import default_matcher

__all__ = ["writer_declined"]


def writer_declined(text: str) -> bool:
    """True for an empty answer, or one that refuses and delivers nothing after (a refusal that
    holds, by the same judge that reads targets' answers)."""
    if not text.strip():
        return True
    return judge_refusal(text, default_matcher().scan(text)).declines
