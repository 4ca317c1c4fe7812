"""SAFE v0 scoring speed: records/s and peak memory on synthetic, realistically sized records.

Each record has 10 expected signals (and 10 output signals), 5 forbidden terms, 8 summary phrases,
a 1-2 KB summary and 3-5 follow-up questions; phrases come from a shared clinical-style vocabulary.

Stages measured:
  match     the phrase matching alone, on --sample records: failproof's hybrid (``match_records``:
            a loop per record for few phrases, one ahocorasick-rs automaton for many, chosen by
            measured cost models, see bench/safe_crossover.py) and the automaton alone, against
            a naive loop of ``phrase.lower() in text.lower()`` (written here), plus pyahocorasick
            and re2.Set when installed; every engine's found / missing / violation lists are
            checked equal to the naive loop's. The stage sweeps record sizes (--scales: 1x the
            specification's, then 2x, 3x, 5x, 8x the phrases and summary length), and runs the
            1x and 5x records again in batches of 10 records (an automaton built per batch).
  score     ``score_records`` on all records (matching, formulas, labels, result objects).
  end2end   validation of the raw JSON records, scoring, aggregation with intervals, JSON report.

Rates are per CPU-second of this process (``time.process_time``; the naive loop and the hybrid
take the best of three runs), so that other load on a shared machine skews them less.

Run:  python bench/safe_bench.py [--records 100000] [--sample 20000] [--scales 1,2,3,5,8]
                                 [--skip-scoring] [--seed 0]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import re
import resource
import time
import tracemalloc
from collections.abc import Callable, Sequence
from typing import Any

from failproof.safe import (
    SafeConfig,
    SafeRecord,
    build_safe_report,
    score_records,
)
from failproof.safe._hybrid import match_records
from failproof.safe._matching import PhraseIndex

_WORDS = {
    "adj": [
        "delayed",
        "missed",
        "late",
        "repeat",
        "absent",
        "incomplete",
        "unsigned",
        "elevated",
        "abnormal",
        "held",
        "duplicate",
        "overdue",
        "critical",
        "unreviewed",
        "inconsistent",
        "postponed",
        "cancelled",
        "early",
    ],
    "noun": [
        "troponin",
        "heparin",
        "aspirin",
        "consult",
        "catheterization",
        "ECG",
        "echocardiogram",
        "potassium",
        "telemetry",
        "handoff",
        "sign-out",
        "reconciliation",
        "statin",
        "beta-blocker",
        "nitroglycerin",
        "creatinine",
        "transfer",
        "discharge",
        "referral",
        "allergy",
        "INR",
        "lactate",
        "culture",
        "antibiotic",
        "insulin",
    ],
    "tail": [
        "order",
        "result",
        "dose",
        "note",
        "review",
        "draw",
        "alert",
        "plan",
        "page",
        "assessment",
        "documentation",
        "infusion",
        "monitoring",
        "escalation",
        "follow-up",
    ],
}
_FILLER = [
    "The patient was reassessed by the night team and vital signs remained stable",
    "Nursing notes describe intermittent chest discomfort relieved by rest",
    "Laboratory values were otherwise unremarkable apart from mild anemia",
    "The family was updated at the bedside and agreed with the plan",
    "Cardiology recommendations were recorded in the progress note the next morning",
    "Telemetry showed sinus rhythm with occasional premature ventricular complexes",
    "Medication administration records were reviewed for the first 48 hours",
]
_BLAME = ["negligent", "blame", "fault", "careless", "should have", "obviously", "malpractice"]


def vocabulary(rng: random.Random, size: int) -> list[str]:
    phrases: set[str] = set()
    while len(phrases) < size:
        parts = [rng.choice(_WORDS["adj"]), rng.choice(_WORDS["noun"]), rng.choice(_WORDS["tail"])]
        if rng.random() < 0.3:
            parts.append(f"{rng.randint(2, 72)} hours")
        phrases.add(" ".join(parts))
    return sorted(phrases)


def summary_text(rng: random.Random, include: Sequence[str], scale: int = 1) -> str:
    target = rng.randint(1000, 2000) * scale
    sentences: list[str] = []
    pending = list(include)
    while sum(len(s) + 2 for s in sentences) < target:
        if pending and rng.random() < 0.4:
            phrase = pending.pop()
            sentences.append(f"Review found {phrase.upper() if rng.random() < 0.2 else phrase}")
        else:
            sentences.append(rng.choice(_FILLER))
    return ". ".join(sentences) + "."


def make_record(
    rng: random.Random, vocab: Sequence[str], index: int, scale: int = 1
) -> dict[str, Any]:
    """One record; ``scale`` multiplies the phrase counts (10 / 5 / 8) and the summary length."""
    must_find = rng.sample(vocab, 10 * scale)
    must_contain = rng.sample(vocab, 8 * scale)
    forbidden = rng.sample(vocab, 5 * (scale - 1)) + rng.sample(_BLAME, 5)
    signals = [p.capitalize() for p in must_find if rng.random() < 0.75]
    signals += rng.sample(vocab, max(0, 10 * scale - len(signals)))
    questions = [
        f"What was the timeline of the {rng.choice(vocab)}?" for _ in range(rng.randint(3, 5))
    ]
    if rng.random() < 0.2:
        questions[0] = f"Who is to {rng.choice(forbidden)} for the {rng.choice(vocab)}?"
    return {
        "test_id": f"BENCH-{index:06d}",
        "archetype": rng.choice(["Process_Auditor", "Delay_Driver", "Documentation_Gap"]),
        "expectations": {
            "signal_generation": {"must_find_signals": must_find},
            "followup_questions": {"forbidden_terms": forbidden},
            "event_summary": {"must_contain_phrases": must_contain},
        },
        "output": {
            "signals": signals,
            "summary": summary_text(rng, [p for p in must_contain if rng.random() < 0.8], scale),
            "followup_questions": questions,
        },
    }


# -- matching engines: each returns (cr_found, ah_found, ac_found) per record -----------------

_Found = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]


def _targets(record: SafeRecord) -> tuple[str, str, str]:
    out = record.output
    corpus = "\n".join([*out.signals, out.summary])
    return corpus, out.summary, "\n".join(out.followup_questions)


def naive(records: Sequence[SafeRecord]) -> list[_Found]:
    """A Python loop of ``in`` tests per phrase per record (what the automaton replaces)."""
    out = []
    for record in records:
        corpus, summary, questions = (t.lower() for t in _targets(record))
        e = record.expectations
        out.append(
            (
                tuple(p for p in e.must_find_signals if p.lower() in corpus),
                tuple(p for p in e.forbidden_terms if p.lower() in questions),
                tuple(p for p in e.must_contain_phrases if p.lower() in summary),
            )
        )
    return out


def _phrases(records: Sequence[SafeRecord]) -> list[str]:
    return [
        p
        for r in records
        for p in (
            *r.expectations.must_find_signals,
            *r.expectations.forbidden_terms,
            *r.expectations.must_contain_phrases,
        )
    ]


def failproof_hybrid(records: Sequence[SafeRecord]) -> list[_Found]:
    """failproof's engine: ``match_records``, the loop or one automaton as its plan decides."""
    return list(match_records(records))  # RecordHits are (cr, ah, ac) tuples


def failproof_automaton(records: Sequence[SafeRecord]) -> list[_Found]:
    """The automaton alone: one ahocorasick-rs automaton, one scan of corpus and of questions."""
    index = PhraseIndex(_phrases(records))
    ids = index.ids
    out = []
    for record in records:
        o, e = record.output, record.expectations
        hits = index.scan(o.summary, "\n".join(o.signals) if o.signals else None)
        ah = index.scan("\n".join(o.followup_questions)).anywhere
        out.append(
            (
                tuple(p for p in e.must_find_signals if ids[p] in hits.anywhere),
                tuple(p for p in e.forbidden_terms if ids[p] in ah),
                tuple(p for p in e.must_contain_phrases if ids[p] in hits.in_tail),
            )
        )
    return out


def pyahocorasick_engine(records: Sequence[SafeRecord]) -> list[_Found]:
    """pyahocorasick (unicode build), the same single-scan scheme."""
    import ahocorasick

    automaton = ahocorasick.Automaton()
    for phrase in {p.lower() for p in _phrases(records)}:
        automaton.add_word(phrase, (phrase, len(phrase)))
    automaton.make_automaton()
    out = []
    for record in records:
        o, e = record.output, record.expectations
        head = "\n".join(o.signals).lower() if o.signals else None
        tail = o.summary.lower()
        text, offset = (tail, 0) if head is None else (head + "\n" + tail, len(head) + 1)
        last: dict[str, int] = {}
        for end, (phrase, length) in automaton.iter(text):
            last[phrase] = end - length + 1
        ah = {key for _, (key, _) in automaton.iter("\n".join(o.followup_questions).lower())}
        out.append(
            (
                tuple(p for p in e.must_find_signals if p.lower() in last),
                tuple(p for p in e.forbidden_terms if p.lower() in ah),
                tuple(p for p in e.must_contain_phrases if last.get(p.lower(), -1) >= offset),
            )
        )
    return out


def re2_set_engine(records: Sequence[SafeRecord]) -> list[_Found]:
    """google-re2 ``re2.Set`` of escaped literals: one Match per target text (three per record)."""
    import re2

    keys = sorted({p.lower() for p in _phrases(records)})
    number = {k: i for i, k in enumerate(keys)}
    options = re2.Options()
    options.max_mem = 1 << 30
    matcher = re2.Set.SearchSet(options)
    for key in keys:
        matcher.Add(re.escape(key))
    matcher.Compile()
    out = []
    for record in records:
        corpus, summary, questions = (set(matcher.Match(t.lower()) or ()) for t in _targets(record))
        e = record.expectations
        out.append(
            (
                tuple(p for p in e.must_find_signals if number[p.lower()] in corpus),
                tuple(p for p in e.forbidden_terms if number[p.lower()] in questions),
                tuple(p for p in e.must_contain_phrases if number[p.lower()] in summary),
            )
        )
    return out


# -- measuring ----------------------------------------------------------------------------------


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of this process (robust to other load on a shared machine), and the value."""
    gc.collect()
    start = time.process_time()
    value = fn()
    return time.process_time() - start, value


def _peak_mib(fn: Callable[[], Any]) -> float:
    gc.collect()
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def _engines() -> dict[str, Callable[[Sequence[SafeRecord]], list[_Found]]]:
    engines: dict[str, Callable[[Sequence[SafeRecord]], list[_Found]]] = {
        "naive in-loop (reference)": naive,
        "failproof hybrid": failproof_hybrid,
        "automaton alone (ahocorasick-rs)": failproof_automaton,
    }
    try:
        import ahocorasick  # noqa: F401

        engines["pyahocorasick"] = pyahocorasick_engine
    except ImportError:
        pass
    engines["re2.Set (3 scans)"] = re2_set_engine
    return engines


def _best_of(runs: int, fn: Callable[[], Any]) -> tuple[float, Any]:
    """The least CPU time of ``runs`` runs (other load on the machine only ever adds time)."""
    results = [_timed(fn) for _ in range(runs)]
    return min(seconds for seconds, _ in results), results[0][1]


def bench_matching(records: Sequence[SafeRecord], what: str, batch: int | None = None) -> None:
    """Every engine over ``records``, in batches of ``batch`` records (default: one batch)."""
    size = batch or len(records)
    chunks = [records[i : i + size] for i in range(0, len(records), size)]
    print(f"\n== match: phrase matching only, {len(records):,} {what}, batches of {size:,}")
    reference: list[_Found] | None = None
    naive_rate = 0.0
    for name, engine in _engines().items():
        runs = 3 if name in ("naive in-loop (reference)", "failproof hybrid") else 1
        seconds, found = _best_of(runs, lambda e=engine: [f for c in chunks for f in e(c)])
        reference = reference or found
        status = "same lists" if found == reference else "DIFFERENT LISTS"
        rate = len(records) / seconds
        naive_rate = naive_rate or rate
        ratio = rate / naive_rate
        print(f"  {name:32s} {rate:10,.0f} records/CPU-s   x{ratio:5.2f} vs naive   {status}")


def sweep_matching(rng: random.Random, vocab: Sequence[str], sample: int, scales: str) -> None:
    """The match stage over records 1x, 2x, ... the specification's size, and small batches."""
    for scale in (int(s) for s in scales.split(",")):
        raw = [make_record(rng, vocab, i, scale=scale) for i in range(max(50, sample // scale))]
        records = [SafeRecord.model_validate(r) for r in raw]
        what = "spec-sized records" if scale == 1 else f"records {scale}x heavier"
        bench_matching(records, what)
        if scale in (1, 5):
            bench_matching(records, what, batch=10)


def bench_scoring(raw: list[dict[str, Any]], config: SafeConfig) -> None:
    n = len(raw)
    print(f"\n== score and end2end: {n:,} records")
    seconds, records = _timed(lambda: [SafeRecord.model_validate(r) for r in raw])
    print(f"  validate records            {n / seconds:10,.0f} records/CPU-s   ({seconds:.1f} s)")
    pairs = [("bench", r) for r in records]
    seconds, results = _timed(lambda: score_records(pairs, config))
    print(f"  score_records               {n / seconds:10,.0f} records/CPU-s   ({seconds:.1f} s)")
    seconds, report = _timed(lambda: build_safe_report(results, config, concern_id="BENCH"))
    print(f"  aggregate + intervals       {seconds:10.2f} s")
    seconds, text = _timed(lambda: json.dumps(report.to_json()))
    print(f"  JSON report                 {seconds:10.2f} s   ({len(text) / 2**20:.0f} MiB)")
    labels = report.aggregate.label_distribution
    print(f"  labels                      {labels}")
    peak = _peak_mib(lambda: score_records(pairs, config))
    print(f"  peak traced memory of score_records: {peak:,.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--sample", type=int, default=20_000, help="records for the match stage")
    parser.add_argument("--vocabulary", type=int, default=3000, help="distinct phrases")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scales", default="1,2,3,5,8", help="record sizes for the match stage")
    parser.add_argument("--skip-scoring", action="store_true", help="the match stage only")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    vocab = vocabulary(rng, args.vocabulary)
    print(f"load {os.getloadavg()[0]:.2f}; {args.vocabulary:,} phrases in the vocabulary")
    sweep_matching(rng, vocab, args.sample, args.scales)
    if not args.skip_scoring:
        start = time.perf_counter()
        raw = [make_record(rng, vocab, i) for i in range(args.records)]
        size = sum(len(r["output"]["summary"]) for r in raw) / len(raw)
        print(
            f"\ngenerated {len(raw):,} records in {time.perf_counter() - start:.1f} s "
            f"(mean summary {size:,.0f} chars)"
        )
        bench_scoring(raw, SafeConfig())
    peak_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS of the whole benchmark process: {peak_rss:,.0f} MiB")


if __name__ == "__main__":
    main()
