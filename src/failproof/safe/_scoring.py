"""Score SAFE v0 records: phrase matching of the batch, then each record's formulas and labels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from failproof.config import SafeConfig, Thresholds, Weights
from failproof.safe._ah import AhMatcher, ah_matchers
from failproof.safe._formulas import (
    ah_score,
    composite_score,
    coverage_score,
    metric_label,
    overall_label,
)
from failproof.safe._hybrid import RecordHits, match_records
from failproof.safe._records import SafeRecord
from failproof.safe._result import MetricLabels, PhraseCheck, SafeResult, SafeScores, SemanticMatch
from failproof.safe._semantic import Embedder, MiniLmEmbedder, SemanticMatcher, split_sentences

__all__ = ["score_record", "score_records"]


class _Exact(NamedTuple):
    """What substring matching found in one record, and which targets are empty."""

    cr: PhraseCheck
    ac: PhraseCheck
    ah_hits: tuple[str, ...]
    cr_empty: bool
    ac_empty: bool
    ah_empty: bool


class _Semantic(NamedTuple):
    cr: tuple[SemanticMatch, ...] = ()
    ac: tuple[SemanticMatch, ...] = ()


def _check(phrases: Sequence[str], found: tuple[str, ...]) -> PhraseCheck:
    """Found and missing phrases, each in expectation order (``found`` is already)."""
    if len(found) == len(phrases):
        return PhraseCheck(found, ())
    hits = set(found)
    return PhraseCheck(found, tuple([p for p in phrases if p not in hits]))


def _exact(record: SafeRecord, hits: RecordHits) -> _Exact:
    output, expect = record.output, record.expectations
    summary_empty = not output.summary.strip()
    return _Exact(
        cr=_check(expect.must_find_signals, hits.cr),
        ac=_check(expect.must_contain_phrases, hits.ac),
        ah_hits=hits.ah,
        cr_empty=summary_empty and not any(s.strip() for s in output.signals),
        ac_empty=summary_empty,
        ah_empty=not any(q.strip() for q in output.followup_questions),
    )


def _notes(exact: _Exact, n_ah: int) -> tuple[str, ...]:
    """The edge cases of sections 1.1 to 1.3 that decided a score, in words."""
    n_cr = len(exact.cr.found) + len(exact.cr.missing)
    n_ac = len(exact.ac.found) + len(exact.ac.missing)
    if n_cr and n_ac and n_ah and not (exact.cr_empty or exact.ac_empty or exact.ah_empty):
        return ()
    rules = (
        (not n_cr, "CR: no must_find_signals, vacuously 1.0"),
        (n_cr > 0 and exact.cr_empty, "CR: empty output, 0.0"),
        (not n_ah, "AH: no forbidden_terms, 1.0"),
        (n_ah > 0 and exact.ah_empty, "AH: no follow-up questions, 1.0"),
        (not n_ac, "AC: no must_contain_phrases, vacuously 1.0"),
        (n_ac > 0 and exact.ac_empty, "AC: empty summary, 0.0"),
    )
    return tuple(text for applies, text in rules if applies)


class _Policy:
    """Thresholds and weights per (archetype, metric_id), resolved once each."""

    def __init__(self, config: SafeConfig) -> None:
        self.config = config
        self._cache: dict[tuple[str, str | None], tuple[Thresholds, Weights]] = {}

    def __call__(self, record: SafeRecord) -> tuple[Thresholds, Weights]:
        key = (record.archetype, record.metric_id)
        if key not in self._cache:
            self._cache[key] = (
                self.config.thresholds_for(record.archetype),
                self.config.weights_for(record.archetype, record.metric_id),
            )
        return self._cache[key]


def _with_semantic(
    phrases: Sequence[str], check: PhraseCheck, matches: tuple[SemanticMatch, ...]
) -> PhraseCheck:
    """``check`` with the semantically matched phrases moved to found, in expectation order."""
    if not matches:
        return check
    found = set(check.found) | {m.phrase for m in matches if m.matched}
    return PhraseCheck(
        tuple(p for p in phrases if p in found), tuple(p for p in phrases if p not in found)
    )


def _finish(
    batch_id: str,
    record: SafeRecord,
    exact: _Exact,
    semantic: _Semantic,
    violations: tuple[str, ...],
    policy: _Policy,
    ah_notes: tuple[str, ...] = (),
) -> SafeResult:
    thresholds, weights = policy(record)
    expect = record.expectations
    n_ah = len(expect.forbidden_terms)
    cr_check = _with_semantic(expect.must_find_signals, exact.cr, semantic.cr)
    ac_check = _with_semantic(expect.must_contain_phrases, exact.ac, semantic.ac)
    n_cr = len(cr_check.found) + len(cr_check.missing)
    n_ac = len(ac_check.found) + len(ac_check.missing)
    cr = coverage_score(len(cr_check.found), n_cr, target_empty=exact.cr_empty)
    ac = coverage_score(len(ac_check.found), n_ac, target_empty=exact.ac_empty)
    strict = policy.config.strict_ah
    ah = ah_score(len(violations), n_ah, target_empty=exact.ah_empty, strict=strict)
    return SafeResult(
        test_id=record.test_id,
        archetype=record.archetype,
        batch_id=batch_id,
        metric_id=record.metric_id,
        scores=SafeScores(cr, ah, ac, composite_score(cr, ah, ac, weights)),
        cr=cr_check,
        ah_violations=violations if not exact.ah_empty else (),
        ac=ac_check,
        label=overall_label(cr, ah, ac, thresholds),
        metric_labels=MetricLabels(
            metric_label(cr, thresholds.CR),
            metric_label(ah, thresholds.AH),
            metric_label(ac, thresholds.AC),
        ),
        notes=_notes(exact, n_ah) + ah_notes,
        cr_semantic=semantic.cr,
        ac_semantic=semantic.ac,
    )


def _cr_sentences(record: SafeRecord) -> list[str]:
    signals = [s.strip() for s in record.output.signals if s.strip()]
    return signals + split_sentences(record.output.summary)


def _semantic_pass(
    records: Sequence[tuple[str, SafeRecord]], exact: Sequence[_Exact], matcher: SemanticMatcher
) -> list[_Semantic]:
    """Semantic matches for every phrase exact matching missed (CR and AC); one embedding batch."""
    jobs = []
    for (_, record), hits in zip(records, exact, strict=True):
        cr_targets = _cr_sentences(record) if hits.cr.missing else []
        ac_targets = split_sentences(record.output.summary) if hits.ac.missing else []
        jobs.append((hits.cr.missing, cr_targets, hits.ac.missing, ac_targets))
    matcher.prepare(text for job in jobs for part in job for text in part)
    return [
        _Semantic(tuple(matcher.best(cr_p, cr_s)), tuple(matcher.best(ac_p, ac_s)))
        for cr_p, cr_s, ac_p, ac_s in jobs
    ]


def score_records(
    records: Sequence[tuple[str, SafeRecord]],
    config: SafeConfig,
    *,
    embedder: Embedder | None = None,
    ah: AhMatcher | None = None,
) -> list[SafeResult]:
    """Score (batch_id, record) pairs: every formula, edge case and label of the specification.

    Phrases are matched by the hybrid of `failproof.safe._matching` (a loop per record for few
    phrases, one automaton for the records with many); with ``config.match == "semantic"``
    the phrases exact matching missed are compared by embeddings (``embedder``, by default
    all-MiniLM-L6-v2 from the ``semantic`` extra). ``ah`` decides AH violations (by default the
    matcher ``config.ah_matcher`` names, made for this call and closed after it).
    """
    if ah is None:
        own = ah_matchers.get(config.ah_matcher).from_settings(config, None)
        try:
            return score_records(records, config, embedder=embedder, ah=own)
        finally:
            own.close()
    ah.prepare([record for _, record in records])
    found = match_records([record for _, record in records])
    exact = [_exact(record, hits) for (_, record), hits in zip(records, found, strict=True)]
    if config.match == "semantic":
        matcher = SemanticMatcher(embedder or MiniLmEmbedder(), config.similarity)
        semantic = _semantic_pass(records, exact, matcher)
    else:
        semantic = [_Semantic()] * len(records)
    policy = _Policy(config)
    return [
        _finish(
            batch_id,
            record,
            hits,
            extra,
            ah.violations(record, hits.ah_hits),
            policy,
            ah.notes(record),
        )
        for (batch_id, record), hits, extra in zip(records, exact, semantic, strict=True)
    ]


def score_record(
    record: SafeRecord,
    config: SafeConfig,
    *,
    batch_id: str = "",
    embedder: Embedder | None = None,
    ah: AhMatcher | None = None,
) -> SafeResult:
    """Score one record (see `score_records`)."""
    return score_records([(batch_id, record)], config, embedder=embedder, ah=ah)[0]
