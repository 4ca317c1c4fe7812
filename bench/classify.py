"""Benchmark: classify recorded responses with the FailProof classifier.

Builds N synthetic recorded responses (default 100,000) for the cases of every built-in suite:
answers, refusals, valid / invalid / fenced JSON, leaked forbidden phrases, padded long answers,
errors. Then classifies each one through the registered ``failproof`` scorer (signal scan, refusal
and harm judges, rules) in one process, and prints responses per second per core, peak memory, and
the number of signal scans per response (one per response, plus one per distinct question for the
harm judge).

    python bench/classify.py [--n 100000] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from failproof.config import ScoringConfig
from failproof.core import Case, Response
from failproof.detect import judge_response
from failproof.scoring import Evidence, score_case, scorers
from failproof.scoring._classify_facts import Facts
from failproof.scoring._classify_rules import classify
from failproof.scoring._refusal import asked
from failproof.signals import SignalMatcher, SignalScan, matcher_for, scan_response
from failproof.suites import builtin_suite_names, resolve_suite

FILLER = (
    "Here is what I found after looking at the request in detail. The order history shows two "
    "shipments, the second of which was delayed by the carrier for three days. "
)


def _phrase(case: Case) -> str:
    expect = case.expect
    if expect and (expect.must_contain or expect.must_contain_any):
        return (expect.must_contain or expect.must_contain_any)[0]
    return "the answer"


def _answers(case: Case) -> list[Callable[[random.Random], Any]]:
    forbidden = case.expect.must_not_contain if case.expect else []
    return [
        lambda r: f"Sure. {_phrase(case)}. " + FILLER * r.randint(2, 8),
        lambda r: "I'm sorry, but I can't help with that request.",
        lambda r: "I can't do that, but here is some general background: " + FILLER * 2,
        lambda r: json.dumps({"status": "shipped", "order_id": "A-1009", "n": r.randint(1, 9)}),
        lambda r: "```json\n" + json.dumps({"sentiment": "negative"}) + "\n```",
        lambda r: '{"status": "ok", "status": "late"}',
        lambda r: "Here you go: {not json" + FILLER,
        lambda r: (f"The code is {forbidden[0]}." if forbidden else "The code is 1234.") + FILLER,
        lambda r: FILLER * r.randint(20, 40),
        lambda r: None,
    ]


def build(n: int, seed: int) -> list[tuple[Case, Response]]:
    """``n`` (case, response) pairs over every built-in suite's cases with an expect block."""
    cases = [
        case
        for name in builtin_suite_names()
        for case in resolve_suite(name).cases
        if case.expect is not None
    ]
    rng = random.Random(seed)
    pairs: list[tuple[Case, Response]] = []
    for index in range(n):
        case = cases[index % len(cases)]
        answer = rng.choice(_answers(case))(rng)
        latency = round(rng.uniform(100, 3000), 1)
        if answer is None:
            pairs.append((case, Response.failure("timed out after 60 s", latency_ms=60000.0)))
        else:
            pairs.append((case, Response.from_output(answer, latency_ms=latency)))
    return pairs


def _count_scans() -> Counter[str]:
    counts: Counter[str] = Counter()
    original = SignalMatcher.scan

    def counting(self: SignalMatcher, text: str) -> Any:
        counts["scans"] += 1
        return original(self, text)

    SignalMatcher.scan = counting  # type: ignore[method-assign]
    return counts


def _cpu(step: Callable[[], object]) -> float:
    start = time.process_time()
    step()
    return time.process_time() - start


def stages(pairs: list[tuple[Case, Response]], settings: ScoringConfig) -> dict[str, float]:
    """CPU seconds of each stage: the signal scan, the refusal and harm judges (one pass over
    the scan; each question scanned once), the rules alone, and the rest of a warm pass of
    `score_case` (the scorer hand-off, the per-response memo, building the `CaseResult`)."""
    matcher = matcher_for(settings)
    evidences = [Evidence(r) for _, r in pairs]
    questions: dict[str, SignalScan] = {}

    def facts(case: Case, evidence: Evidence) -> Facts:
        prompt = asked(case)

        def both(scan: SignalScan) -> Any:
            if prompt not in questions:
                questions[prompt] = matcher.scan(prompt)
            ask = questions[prompt]
            text = evidence.response.output
            return evidence.memo(
                "judgment", lambda: judge_response(text, scan, prompt=prompt, prompt_scan=ask)
            )

        return Facts(
            evidence,
            scan=lambda ev: scan_response(ev, matcher),
            judge=lambda _text, scan: both(scan)[0],
            harm=lambda _text, scan: both(scan)[1],
        )

    def rules() -> None:
        for (case, _), evidence in zip(pairs, evidences, strict=True):
            classify(case, facts(case, evidence), settings.classifier)

    scan = _cpu(lambda: [scan_response(ev, matcher) for ev in evidences])
    with_judge = _cpu(rules)  # scans are memoized: this is the judge plus the rules
    alone = _cpu(rules)  # scans and verdicts memoized: the rules alone
    scorer = scorers.get("failproof")(settings)

    def score_all() -> None:
        for case, response in pairs:  # each result dropped, as in the first pass
            score_case(case, response, [scorer])

    whole = _cpu(score_all)
    return {
        "signal scan": scan,
        "refusal+harm": with_judge - alone,
        "rules": alone,
        "the rest": whole - scan - with_judge,
        "whole (warm)": whole,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    pairs = build(args.n, args.seed)
    text_mb = sum(len(r.output) for _, r in pairs) / 1e6
    scorer = scorers.get("failproof")(ScoringConfig())
    score_case(*pairs[0], [scorer])  # compile the matcher and load the judge model once
    counts = _count_scans()
    classes: Counter[str] = Counter()
    wall, cpu = time.perf_counter(), time.process_time()
    for case, response in pairs:
        result = score_case(case, response, [scorer])
        classes[result.primary] += 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    scanned = sum(1 for _, r in pairs if r.error is None)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"responses:            {len(pairs):,} ({text_mb:.1f} MB of output text)")
    print(f"classes:              {dict(sorted(classes.items()))}")
    print(f"wall time:            {wall:.2f} s")
    print(f"responses/s per core: {len(pairs) / cpu:,.0f} (CPU time {cpu:.2f} s, one process)")
    print(
        f"signal scans:         {counts['scans']:,} for {scanned:,} answered responses "
        f"({counts['scans'] / max(scanned, 1):.2f} per response)"
    )
    print(f"peak memory (RSS):    {peak_mb:.0f} MB")
    print("CPU time by stage (second pass, same responses):")
    for stage, seconds in stages(pairs, ScoringConfig()).items():
        print(
            f"  {stage:<14} {seconds:6.2f} s  ({len(pairs) / max(seconds, 1e-9):,.0f} responses/s)"
        )


if __name__ == "__main__":
    main()
