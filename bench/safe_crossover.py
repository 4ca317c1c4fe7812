"""Benchmark: where SAFE phrase matching should switch from the loop to the automaton.

Sweeps the phrases per text and the text size on SAFE records: CR + AC phrases over a record's
signals and summary (summaries of ~1.5, 3, 6 and 12 KB), and AH terms over its follow-up
questions (~0.25 KB). Each cell is a batch of --records records; phrases come from the same
clinical-style vocabulary as ``bench/safe_bench.py`` (--vocabulary phrases shared by the batch,
about 80% of a record's AC phrases in its summary, its signals mostly its CR phrases). Per cell
it prints the records per CPU-second of the loop and of the automaton (its build for the batch
counted in), and their ratio.

The loop's work grows with phrases x characters (one substring search of the text per phrase),
the automaton's scan with characters plus phrases, its build with the distinct phrases: no
single phrase count is the cross-over. The benchmark fits, in microseconds per text (least
squares on relative error), ``a + b * phrases + c * phrases * chars + d * chars`` for the loop
and for the scan, and the build per distinct phrase; prints the fit beside the models failproof
ships (``LOOP_COST``, ``SCAN_COST``, ``BUILD_COST`` in ``failproof.safe._matching``, set from this
benchmark), the cells where failproof's ``plan`` took the automaton although the loop was
faster, and the cross-over per text size.

    python bench/safe_crossover.py [--records 300] [--vocabulary 3000] [--seed 0]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
from safe_bench import summary_text, vocabulary

from failproof.safe import SafeRecord
from failproof.safe._hybrid import Engines, match_records, plan
from failproof.safe._matching import (
    BUILD_COST,
    LOOP_COST,
    MARGIN,
    SCAN_COST,
    Model,
    PhraseIndex,
    cost,
)

COUNTS = (2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256)
#: text kinds: (name, summary scale; 0 = follow-up questions)
KINDS = (
    ("questions ~0.25 KB", 0),
    ("summary ~1.5 KB", 1),
    ("summary ~3 KB", 2),
    ("summary ~6 KB", 4),
    ("summary ~12 KB", 8),
)


def make_record(rng: random.Random, vocab: Sequence[str], n: int, scale: int) -> SafeRecord:
    """A record with ``n`` phrases to find in one text: its questions (scale 0) or its corpus."""
    phrases = rng.sample(vocab, n)
    questions = [f"What was the timeline of the {rng.choice(vocab)}?" for _ in range(4)]
    if scale == 0:
        questions[0] = f"Who is to blame for the {rng.choice(phrases)}?"
        cr, ac, terms, summary, signals = [], [], phrases, "", []
    else:
        cr, ac, terms = phrases[: n * 5 // 9], phrases[n * 5 // 9 :], []
        summary = summary_text(rng, [p for p in ac if rng.random() < 0.8], scale)
        signals = [p.capitalize() for p in cr if rng.random() < 0.75]
    return SafeRecord.model_validate(
        {
            "test_id": "X",
            "expectations": {
                "signal_generation": {"must_find_signals": cr},
                "followup_questions": {"forbidden_terms": terms},
                "event_summary": {"must_contain_phrases": ac},
            },
            "output": {"signals": signals, "summary": summary, "followup_questions": questions},
        }
    )


def _cpu(fn: Callable[[], Any], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


class Cell(NamedTuple):
    """One batch: the text's phrases and characters, and per-record microseconds."""

    phrases: int
    chars: float
    loop_us: float
    scan_us: float
    build_us: float  # the whole batch's
    distinct: int
    records: int
    planned: bool  # failproof's plan took the automaton for this batch

    @property
    def automaton_us(self) -> float:
        return self.scan_us + self.build_us / self.records


def _texts_chars(record: SafeRecord) -> int:
    out = record.output
    if record.expectations.forbidden_terms:
        return sum(map(len, out.followup_questions)) + len(out.followup_questions)
    return len(out.summary) + sum(map(len, out.signals)) + len(out.signals)


def measure(records: list[SafeRecord], questions: bool) -> Cell:
    engines = [Engines(not questions, questions)] * len(records)
    loops = [Engines(False, False)] * len(records)
    assert match_records(records, engines) == match_records(records, loops)
    e = records[0].expectations
    phrases = [p for r in records for p in (*r.expectations.must_find_signals,
               *r.expectations.must_contain_phrases, *r.expectations.forbidden_terms)]  # fmt: skip
    build = _cpu(lambda: PhraseIndex(phrases))
    both = _cpu(lambda: match_records(records, engines))
    size = len(records)
    n = len(e.must_find_signals) + len(e.must_contain_phrases) + len(e.forbidden_terms)
    return Cell(
        phrases=n,
        chars=sum(map(_texts_chars, records)) / size,
        loop_us=_cpu(lambda: match_records(records, loops)) / size * 1e6,
        scan_us=max(both - build, 0.0) / size * 1e6,
        build_us=build * 1e6,
        distinct=len(set(phrases)),
        records=size,
        planned=any(c.corpus or c.questions for c in plan(records)),
    )


def sweep(kind: str, scale: int, vocab: Sequence[str], size: int, seed: int) -> list[Cell]:
    """Prints one table; returns its cells."""
    rng = random.Random(seed)
    print(f"\n== {kind}")
    print(
        f"  {'phrases':>7} {'chars':>7} {'loop rec/s':>11} {'automaton rec/s':>16}"
        f" {'automaton/loop':>15} {'build share':>12} {'plan':>10}"
    )
    cells: list[Cell] = []
    for n in COUNTS:
        cell = measure([make_record(rng, vocab, n, scale) for _ in range(size)], scale == 0)
        cells.append(cell)
        print(
            f"  {n:>7} {cell.chars:>7,.0f} {1e6 / cell.loop_us:>11,.0f}"
            f" {1e6 / cell.automaton_us:>16,.0f} {cell.loop_us / cell.automaton_us:>14.2f}x"
            f" {cell.build_us / size / cell.automaton_us:>11.0%}"
            f" {'automaton' if cell.planned else 'loop':>10}"
        )
    return cells


def fit(cells: Sequence[Cell], times: Sequence[float], columns: Sequence[int]) -> Model:
    """Least squares on relative error of ``a + b n + c n chars + d chars`` (the given terms)."""
    n = np.array([c.phrases for c in cells], dtype=float)
    chars = np.array([c.chars for c in cells])
    terms = np.c_[np.ones_like(n), n, n * chars, chars]
    t = np.array(times)
    coef = np.zeros(4)
    cols = list(columns)
    coef[cols] = np.linalg.lstsq(terms[:, cols] / t[:, None], np.ones_like(t), rcond=None)[0]
    a, b, c, d = (float(max(0.0, x)) for x in coef)
    return a, b, c, d


def _crossover(loop: Model, scan: Model, build: float, chars: int, share: float) -> str:
    """Smallest phrase count the automaton takes; ``share`` new phrases per phrase matched."""
    for n in range(1, 2000):
        if (build * n * share + cost(scan, n, chars)) * MARGIN < cost(loop, n, chars):
            return str(n)
    return "never"


def _model(model: Model) -> str:
    return "({:.3g}, {:.3g}, {:.3g}, {:.3g})".format(*model)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--records", type=int, default=300, help="records per batch (cell)")
    parser.add_argument("--vocabulary", type=int, default=3000, help="distinct phrases")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    vocab = vocabulary(random.Random(args.seed), args.vocabulary)
    print(f"load {os.getloadavg()[0]:.2f}")
    cells = [c for kind, scale in KINDS for c in sweep(kind, scale, vocab, args.records, args.seed)]
    loop = fit(cells, [c.loop_us for c in cells], (0, 1, 2))
    scan = fit(cells, [c.scan_us for c in cells], (0, 1, 3))
    build = sum(c.build_us for c in cells) / sum(c.distinct for c in cells)
    print("\nmicroseconds: per text a + b*phrases + c*phrases*chars + d*chars; build per phrase")
    print(f"  fitted here      loop {_model(loop)}  scan {_model(scan)}  build {build:.3g}")
    print(
        f"  failproof ships  loop {_model(LOOP_COST)}  scan {_model(SCAN_COST)}"
        f"  build {BUILD_COST:.3g}  (margin {MARGIN})"
    )
    wrong = [
        f"{c.phrases} phrases / {c.chars:,.0f} chars ({c.automaton_us / c.loop_us:.2f}x the time)"
        for c in cells
        if c.planned and c.automaton_us > c.loop_us
    ]
    faster = sum(c.automaton_us < c.loop_us for c in cells)
    print(f"  the automaton was faster in {faster} of {len(cells)} cells; failproof's plan took")
    print(f"  it in {sum(c.planned for c in cells)}, slower than the loop in: {wrong or 'none'}")
    print("\ncross-over, phrases per text (with the margin), a batch sharing 3,000 phrases over")
    print("100,000 records, and the worst case (every phrase new to the batch):")
    for chars in (250, 1000, 1800, 3300, 6300, 12300):
        row = []
        for share in (3000 / 100_000 / 23, 1.0):
            row += [_crossover(loop, scan, build, chars, share)]
            row += [_crossover(LOOP_COST, SCAN_COST, BUILD_COST, chars, share)]
        print(
            f"  {chars:>6,} chars: shared {row[0]:>5} fitted, {row[1]:>5} failproof;"
            f" worst {row[2]:>5} fitted, {row[3]:>5} failproof"
        )


if __name__ == "__main__":
    main()
