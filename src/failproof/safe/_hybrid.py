"""SAFE phrase matching of a batch: a loop per record for few phrases, one automaton for many.

Each record has two texts: its CR corpus (``"\\n".join([*signals, summary])``, with the summary,
AC's target, at its end) and its joined follow-up questions (AH's target). For each, `plan`
predicts with the measured cost models of `failproof.safe._matching` whether the loop
(``phrase.lower() in text``, one substring search per phrase) or one scan of the batch's
Aho-Corasick automaton is cheaper; the automaton is built once, from the phrases of the texts
that take it, and only when its build pays off. The result is exactly
``phrase.lower() in target.lower()`` whichever engine a text takes (a property test holds the
hybrid, the loop and the automaton to it).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from failproof.safe._matching import (
    BUILD_COST,
    LOOP_COST,
    MARGIN,
    SCAN_COST,
    PhraseIndex,
    cost,
    fewest_phrases,
)
from failproof.safe._records import SafeRecord

__all__ = ["Engines", "RecordHits", "match_records", "plan"]


class RecordHits(NamedTuple):
    """The phrases of a record that occur in their target, in expectation order (repeats kept):
    must_find_signals in the corpus, forbidden_terms in the questions, must_contain_phrases in
    the summary."""

    cr: tuple[str, ...]
    ah: tuple[str, ...]
    ac: tuple[str, ...]


class Engines(NamedTuple):
    """Whether a record's corpus and its questions take the automaton (else the loop)."""

    corpus: bool
    questions: bool


_LOOPS = Engines(False, False)
_new = tuple.__new__  # a NamedTuple without its Python-level constructor: the per-record path


def _corpus_phrases(record: SafeRecord) -> int:
    """CR and AC phrases (read from the fields, not the properties: this runs for every record)."""
    e = record.expectations
    return len(e.signal_generation.must_find_signals) + len(e.event_summary.must_contain_phrases)


def _few(record: SafeRecord, fewest: float, margin: float) -> bool:
    """Whether both texts of ``record`` surely loop: too few phrases for the automaton to win on
    any text, or a corpus too short for its phrases (the common cases, decided cheaply)."""
    out = record.output
    if len(record.expectations.followup_questions.forbidden_terms) >= fewest:
        return False
    n_corpus = _corpus_phrases(record)
    if n_corpus < fewest:
        return True
    chars = len(out.summary) + sum(map(len, out.signals)) + len(out.signals)
    return cost(SCAN_COST, n_corpus, chars) * margin >= cost(LOOP_COST, n_corpus, chars)


class _Choice(NamedTuple):
    engines: Engines
    loop: float  # predicted microseconds of the chosen texts by the loop
    scan: float  # ... and by the automaton's scan


_NONE = _Choice(_LOOPS, 0.0, 0.0)


def _choose(record: SafeRecord, fewest: float, margin: float) -> _Choice:
    """The record's texts the automaton is predicted ``margin`` times cheaper for, and their
    predicted loop and scan microseconds."""
    out, expect = record.output, record.expectations
    n_corpus, n_terms = _corpus_phrases(record), len(expect.followup_questions.forbidden_terms)
    texts = []
    if n_corpus >= fewest:
        texts.append(
            (0, n_corpus, len(out.summary) + sum(map(len, out.signals)) + len(out.signals))
        )
    if n_terms >= fewest and out.followup_questions:
        questions = out.followup_questions
        texts.append((1, n_terms, sum(map(len, questions)) + len(questions)))
    picks, loop, scan = [False, False], 0.0, 0.0
    for which, phrases, chars in texts:
        by_loop, by_scan = cost(LOOP_COST, phrases, chars), cost(SCAN_COST, phrases, chars)
        if by_scan * margin < by_loop:
            picks[which], loop, scan = True, loop + by_loop, scan + by_scan
    return _Choice(Engines(*picks), loop, scan) if loop else _NONE


def plan(records: Sequence[SafeRecord], margin: float = MARGIN) -> list[Engines]:
    """Which texts of each record take the automaton.

    A text is a candidate when its scan is predicted ``margin`` times cheaper than its loop;
    the candidates take the automaton when, with its build (per distinct phrase) added, they
    are still ``margin`` times cheaper together. Otherwise every text loops.
    """
    fewest = fewest_phrases(margin)
    choices = [_NONE if _few(r, fewest, margin) else _choose(r, fewest, margin) for r in records]
    heavy = [(r, c.engines) for r, c in zip(records, choices, strict=True) if c.loop]
    if not heavy:
        return [_LOOPS] * len(records)
    loop, scan = sum(c.loop for c in choices), sum(c.scan for c in choices)
    largest = max(_count(record, chosen) for record, chosen in heavy)
    if (BUILD_COST * largest + scan) * margin >= loop:  # cannot pay even for one record's phrases
        return [_LOOPS] * len(records)
    if _build_pays(heavy, loop, scan, margin):
        return [c.engines for c in choices]
    return [_LOOPS] * len(records)


def _count(record: SafeRecord, chosen: Engines) -> int:
    """The phrases of the record's texts that ``chosen`` puts on the automaton."""
    terms = len(record.expectations.forbidden_terms) if chosen.questions else 0
    return (_corpus_phrases(record) if chosen.corpus else 0) + terms


def _build_pays(
    heavy: Sequence[tuple[SafeRecord, Engines]], loop: float, scan: float, margin: float
) -> bool:
    """Whether the automaton, built from the heavy texts' distinct phrases, still wins."""
    distinct: set[str] = set()
    for record, chosen in heavy:  # set.update: C-level, this may see many phrases
        e = record.expectations
        if chosen.corpus:
            distinct.update(e.must_find_signals)
            distinct.update(e.must_contain_phrases)
        if chosen.questions:
            distinct.update(e.forbidden_terms)
    return (BUILD_COST * len(distinct) + scan) * margin < loop


def _automaton_phrases(records: Sequence[SafeRecord], engines: Sequence[Engines]) -> Iterator[str]:
    for record, chosen in zip(records, engines, strict=True):
        e = record.expectations
        if chosen.corpus:
            yield from e.must_find_signals
            yield from e.must_contain_phrases
        if chosen.questions:
            yield from e.forbidden_terms


def match_records(
    records: Sequence[SafeRecord], engines: Sequence[Engines] | None = None
) -> list[RecordHits]:
    """`RecordHits` of every record, each text by the engine ``engines`` (default `plan`) says."""
    chosen = plan(records) if engines is None else engines
    if not any(c.corpus or c.questions for c in chosen):
        return [_by_loop(r) for r in records]
    index = PhraseIndex(_automaton_phrases(records, chosen))
    return [
        _mixed(r, c, index) if c != _LOOPS else _by_loop(r)
        for r, c in zip(records, chosen, strict=True)
    ]


def _by_loop(record: SafeRecord) -> RecordHits:
    cr, ac = _corpus_by_loop(record)
    return _new(RecordHits, (cr, _questions_by_loop(record), ac))


def _mixed(record: SafeRecord, engines: Engines, index: PhraseIndex) -> RecordHits:
    """A record with one text (or both) on the automaton."""
    if engines.corpus:
        cr, ac = _corpus_by_automaton(index, record)
    else:
        cr, ac = _corpus_by_loop(record)
    if engines.questions:
        return RecordHits(cr, _questions_by_automaton(index, record), ac)
    return RecordHits(cr, _questions_by_loop(record), ac)


Pair = tuple[tuple[str, ...], tuple[str, ...]]


def _corpus_by_loop(record: SafeRecord) -> Pair:
    """CR and AC hits by the loop: the summary lower-cased once and reused inside the corpus
    (lower-casing never joins across ``"\\n"``: it is neither cased nor case-ignorable)."""
    output, expect = record.output, record.expectations
    summary = output.summary.lower()
    corpus = "\n".join(output.signals).lower() + "\n" + summary if output.signals else summary
    cr = tuple([p for p in expect.signal_generation.must_find_signals if p.lower() in corpus])
    return cr, tuple([p for p in expect.event_summary.must_contain_phrases if p.lower() in summary])


def _questions_by_loop(record: SafeRecord) -> tuple[str, ...]:
    terms = record.expectations.followup_questions.forbidden_terms
    questions = record.output.followup_questions
    if not terms or not questions:
        return ()
    text = "\n".join(questions).lower()
    return tuple([t for t in terms if t.lower() in text])


def _corpus_by_automaton(index: PhraseIndex, record: SafeRecord) -> Pair:
    output, expect, ids = record.output, record.expectations, index.ids
    hits = index.scan(output.summary, "\n".join(output.signals) if output.signals else None)
    cr = tuple([p for p in expect.must_find_signals if ids[p] in hits.anywhere])
    return cr, tuple([p for p in expect.must_contain_phrases if ids[p] in hits.in_tail])


def _questions_by_automaton(index: PhraseIndex, record: SafeRecord) -> tuple[str, ...]:
    terms, questions = record.expectations.forbidden_terms, record.output.followup_questions
    if not terms or not questions:
        return ()
    found = index.scan("\n".join(questions)).anywhere
    return tuple([t for t in terms if index.ids[t] in found])
