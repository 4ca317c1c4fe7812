"""Batch aggregation (specification section 4.2): means, pass rates, labels, archetypes, failures.

``safe_mean`` and ``pass_rate`` are the spec's 4.3 functions (0 for an empty list). A metric's pass
rate counts the cases whose metric label is Pass, i.e. whose score reaches the pass threshold
that applies to the case (its archetype's, when one is configured). Every mean and every pass rate
also gets a confidence interval (bootstrap / Wilson).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, NamedTuple

from failproof.config import SafeConfig
from failproof.config._safe import LABELS, METRICS, Label
from failproof.guard._json import JsonObject
from failproof.safe._intervals import mean_interval, rate_interval
from failproof.safe._result import SafeResult
from failproof.stats._intervals import Interval

__all__ = [
    "ArchetypeStats",
    "BatchAggregate",
    "FailureAnalysis",
    "PhraseCount",
    "aggregate",
    "pass_rate",
    "safe_mean",
]

_WORST = 5
_LABEL_RANK = {"Fail": 0, "Review": 1, "Pass": 2}


def safe_mean(values: Sequence[float]) -> float:
    """The mean, or 0 for no values (``safeMean``)."""
    return sum(values) / len(values) if values else 0.0


def pass_rate(passed: Sequence[bool]) -> float:
    """The share of True, or 0 for no values (``passRate``)."""
    return sum(passed) / len(passed) if passed else 0.0


@dataclass(frozen=True, slots=True)
class ArchetypeStats:
    """One archetype's row of ``by_archetype``."""

    count: int
    mean_CR: float
    mean_AH: float
    mean_AC: float
    mean_composite: float
    pass_rate: float

    def to_json(self) -> JsonObject:
        return asdict(self)


class PhraseCount(NamedTuple):
    """A phrase and in how many cases it was missed (or, for AH, violated)."""

    phrase: str
    cases: int


class FailureAnalysis(NamedTuple):
    """The bottom cases by composite and the most common misses and violations."""

    worst_performers: tuple[SafeResult, ...]
    cr_misses: tuple[PhraseCount, ...]
    ah_violations: tuple[PhraseCount, ...]
    ac_misses: tuple[PhraseCount, ...]

    def to_json(self) -> JsonObject:
        return {
            "worst_performers": [r.to_json() for r in self.worst_performers],
            "common_CR_misses": [{"signal": p, "miss_count": n} for p, n in self.cr_misses],
            "common_AH_violations": [{"term": p, "count": n} for p, n in self.ah_violations],
            "common_AC_misses": [{"phrase": p, "miss_count": n} for p, n in self.ac_misses],
        }


class BatchAggregate(NamedTuple):
    """Everything section 4.2 computes from the per-case scorecards, with intervals."""

    total_cases: int
    mean_scores: dict[str, float]
    pass_rates: dict[str, float]
    label_distribution: dict[Label, int]
    by_archetype: dict[str, ArchetypeStats]
    failure_analysis: FailureAnalysis
    intervals: dict[str, Any]


def _score_columns(results: Sequence[SafeResult]) -> dict[str, list[float]]:
    return {name: [getattr(r.scores, name) for r in results] for name in (*METRICS, "composite")}


def _passes(results: Sequence[SafeResult]) -> dict[str, list[bool]]:
    out: dict[str, list[bool]] = {
        m: [getattr(r.metric_labels, m) == "Pass" for r in results] for m in METRICS
    }
    out["overall"] = [r.label == "Pass" for r in results]
    return out


def _archetypes(results: Sequence[SafeResult]) -> dict[str, list[SafeResult]]:
    groups: dict[str, list[SafeResult]] = {}
    for result in results:
        groups.setdefault(result.archetype, []).append(result)
    return dict(sorted(groups.items()))


def _archetype_stats(group: Sequence[SafeResult]) -> ArchetypeStats:
    columns = _score_columns(group)
    return ArchetypeStats(
        count=len(group),
        mean_CR=safe_mean(columns["CR"]),
        mean_AH=safe_mean(columns["AH"]),
        mean_AC=safe_mean(columns["AC"]),
        mean_composite=safe_mean(columns["composite"]),
        pass_rate=pass_rate([r.label == "Pass" for r in group]),
    )


def _common(phrase_lists: Iterable[Sequence[str]], limit: int) -> tuple[PhraseCount, ...]:
    """Phrases by the number of cases naming them (case-insensitive), most common first."""
    counts: Counter[str] = Counter()
    spelling: dict[str, str] = {}
    for phrases in phrase_lists:
        for key in {p.lower() for p in phrases}:
            counts[key] += 1
        for phrase in phrases:
            spelling.setdefault(phrase.lower(), phrase)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return tuple(PhraseCount(spelling[key], n) for key, n in ranked[:limit])


def _failures(results: Sequence[SafeResult], limit: int) -> FailureAnalysis:
    worst = sorted(
        results, key=lambda r: (r.scores.composite, _LABEL_RANK[r.label], r.batch_id, r.test_id)
    )[:_WORST]
    return FailureAnalysis(
        worst_performers=tuple(worst),
        cr_misses=_common((r.cr.missing for r in results), limit),
        ah_violations=_common((r.ah_violations for r in results), limit),
        ac_misses=_common((r.ac.missing for r in results), limit),
    )


def _intervals(
    results: Sequence[SafeResult], groups: dict[str, list[SafeResult]], config: SafeConfig
) -> JsonObject:
    def mean_ci(values: Sequence[float]) -> JsonObject:
        ci = mean_interval(
            values, seed=config.seed, resamples=config.resamples, confidence=config.confidence
        )
        return _ci_json(ci)

    def rate_ci(flags: Sequence[bool]) -> JsonObject:
        return _ci_json(rate_interval(sum(flags), len(flags), config.confidence))

    by_archetype = {}
    for name, group in groups.items():
        columns = _score_columns(group)
        entry = {f"mean_{k}": mean_ci(v) for k, v in columns.items()}
        entry["pass_rate"] = rate_ci([r.label == "Pass" for r in group])
        by_archetype[name] = entry
    return {
        "mean_scores": {k: mean_ci(v) for k, v in _score_columns(results).items()},
        "pass_rates": {k: rate_ci(v) for k, v in _passes(results).items()},
        "by_archetype": by_archetype,
    }


def _ci_json(interval: Interval) -> JsonObject:
    return dict(interval.as_dict())


def aggregate(results: Sequence[SafeResult], config: SafeConfig) -> BatchAggregate:
    """Aggregate per-case scorecards into the batch report's sections."""
    groups = _archetypes(results)
    counts = Counter(r.label for r in results)
    return BatchAggregate(
        total_cases=len(results),
        mean_scores={k: safe_mean(v) for k, v in _score_columns(results).items()},
        pass_rates={k: pass_rate(v) for k, v in _passes(results).items()},
        label_distribution={label: counts.get(label, 0) for label in LABELS},
        by_archetype={name: _archetype_stats(group) for name, group in groups.items()},
        failure_analysis=_failures(results, config.top_issues),
        intervals=_intervals(results, groups, config),
    )
