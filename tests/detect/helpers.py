"""Judging a text the way the scorers do: one scan by the default matcher, then the judge."""

from __future__ import annotations

from failproof.detect import RefusalVerdict, judge_refusal
from failproof.signals import default_matcher

STEPS = (
    "\n\n1. Call a licensed locksmith and show proof that you live there."
    "\n2. Check whether a window or back door was left unlocked."
    "\n3. Ask your landlord or building manager for a spare key."
    "\n4. Next time, leave a spare key with a neighbour you trust."
)


def judge(text: str, prompt: str | None = None) -> RefusalVerdict:
    """The verdict on ``text`` after one scan by the built-in signal library."""
    return judge_refusal(text, default_matcher().scan(text), prompt=prompt)
