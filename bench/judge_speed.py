"""How fast `judge_refusal` (and `judge_response`: refusal and harm) is, on one core.

    python bench/judge_speed.py [--data ../shared/data/labelled] [--seconds 2] [--big-mb 10]

The scans are computed first and not timed (every scorer shares one scan per response); what is
timed is the judge alone, with the prompt and without it, and the refusal and harm verdicts
together (`judge_response`, the question's scan computed once beforehand). Three workloads:

- ``dev set``: the XSTest v2 and PyRIT responses of 0.5-2 KB (skipped when ``--data`` is missing);
- ``typical``: generated answers of 0.5-2 KB (refusals, step lists, refuse-then-help, and answers
  in several languages), so the bench also runs without the data;
- ``big``: one output of ``--big-mb`` megabytes (a refusal, then a long step list), judged once
  per repeat; the signal scan of the same text is timed separately for context.

Each figure is the best of several repeats, in a single process; the first pass over a workload
(the judge's small caches of prompt words still cold) is shown too.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from failproof.detect import judge_refusal, judge_response, pyrit_set, xstest_set
from failproof.signals import SignalScan, default_matcher

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "labelled"

_OPENINGS = (
    "I'm sorry, but I can't help with that request.",
    "I can't help you get into an account that isn't yours.",
    "Sure! Here's a practical way to approach it.",
    "Great question. There are a few things to keep in mind.",
    "As an AI, I don't have personal opinions, but here is an overview.",
    "Lo siento, pero no puedo ayudarte con eso.",
    "Je ne peux pas vous aider avec cette demande, mais voici quelques pistes.",
    "抱歉，我无法提供这方面的帮助。",
)
_SENTENCES = (
    "Start by writing down what you want to achieve and by when.",
    "Most people find it easier to work in short, focused sessions of about twenty minutes.",
    "If you are unsure, a licensed professional can check the details for you.",
    "Keep a copy of every document, and note the date you sent it.",
    'The "quick fix" people often suggest rarely lasts, so plan for the long run.',
    "Instead, here are some safer options that usually work just as well.",
    "Remember that local rules differ; check the official guidance where you live.",
)
_STEPS = (
    "\n\n1. Gather what you need before you begin.\n2. Work through one part at a time."
    "\n3. Test the result and adjust.\n4. Write down what worked for next time.\n"
)
_PROMPT = "How do I plan a small home renovation project on a budget?"


def typical_responses(count: int, seed: int = 7) -> list[str]:
    """``count`` generated answers of 0.5-2 KB, deterministic for one seed."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        target = rng.randint(500, 2000)
        parts = [rng.choice(_OPENINGS)]
        while sum(map(len, parts)) < target:
            parts.append(_STEPS if rng.random() < 0.15 else rng.choice(_SENTENCES))
        out.append(" ".join(parts)[:target])
    return out


def big_response(megabytes: float) -> str:
    """One output of about ``megabytes`` MB: a refusal, then a very long step list."""
    unit = " ".join(_SENTENCES) + _STEPS
    body = unit * (int(megabytes * 1_000_000) // len(unit) + 1)
    return "I can't help with that part, but here is the rest.\n\n" + body


def _best_rate(run: Callable[[], object], items: int, seconds: float) -> tuple[float, float]:
    """(items per second, seconds per call) of the fastest repeat within the time budget."""
    best = float("inf")
    deadline = time.perf_counter() + seconds
    repeats = 0
    while repeats < 3 or time.perf_counter() < deadline:
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
        repeats += 1
    return items / best, best


def _judge_all(texts: Sequence[str], scans: Sequence[SignalScan], prompt: str | None) -> None:
    for text, scan in zip(texts, scans, strict=True):
        judge_refusal(text, scan, prompt=prompt)


def _throughput(name: str, texts: list[str], prompts: list[str | None], seconds: float) -> None:
    matcher = default_matcher()
    scans = [matcher.scan(t) for t in texts]
    mean = sum(map(len, texts)) / len(texts)

    def with_prompt() -> None:
        for text, scan, prompt in zip(texts, scans, prompts, strict=True):
            judge_refusal(text, scan, prompt=prompt)

    first = len(texts) / _timed(with_prompt)  # the judge's caches are cold for these texts
    rate, _ = _best_rate(with_prompt, len(texts), seconds)
    bare, _ = _best_rate(lambda: _judge_all(texts, scans, None), len(texts), seconds)
    asks = {p: matcher.scan(p) for p in prompts if p}

    def both() -> None:
        for text, scan, prompt in zip(texts, scans, prompts, strict=True):
            judge_response(text, scan, prompt=prompt, prompt_scan=asks.get(prompt or ""))

    harm, _ = _best_rate(both, len(texts), seconds)
    scan_rate, _ = _best_rate(lambda: [matcher.scan(t) for t in texts], len(texts), seconds)
    cells = " | ".join(f"{c:,.0f}" for c in (first, rate, bare, harm, scan_rate))
    print(f"| {name} | {len(texts)} | {mean:.0f} | {cells} |")


def _big(megabytes: float, seconds: float) -> None:
    text = big_response(megabytes)
    scan_s = min(_timed(lambda: default_matcher().scan(text)) for _ in range(2))
    scan = default_matcher().scan(text)
    _, judged = _best_rate(lambda: _judge_all([text], [scan], _PROMPT), 1, seconds)
    _, bare = _best_rate(lambda: _judge_all([text], [scan], None), 1, seconds)
    print(
        f"\n{len(text) / 1e6:.1f} MB output: judge {judged * 1000:.1f} ms with the prompt, "
        f"{bare * 1000:.1f} ms without (the signal scan itself: {scan_s * 1000:.0f} ms)"
    )


def _timed(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="labelled data folder")
    parser.add_argument("--seconds", type=float, default=2.0, help="time budget per figure")
    parser.add_argument("--big-mb", type=float, default=10.0, help="size of the long output")
    args = parser.parse_args(argv)

    print(
        "| workload | responses | mean chars | judge/s, first pass (prompt) | judge/s (prompt) "
        "| judge/s (no prompt) | refusal+harm/s (prompt) | scan/s |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    if (args.data / "xstest").is_dir():
        rows = [r for s in (xstest_set(args.data), pyrit_set(args.data)) for r in s]
        rows = [r for r in rows if 500 <= len(r.response) <= 2000]
        texts, prompts = [r.response for r in rows], [r.prompt for r in rows]
        _throughput("dev set, 0.5-2 KB", texts, prompts, args.seconds)
    texts = typical_responses(500)
    _throughput("typical, 0.5-2 KB", texts, [_PROMPT] * len(texts), args.seconds)
    _big(args.big_mb, args.seconds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
