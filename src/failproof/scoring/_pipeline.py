"""Turn a (case, response) pair into a `CaseResult` by running every scorer."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from failproof.config import Settings
from failproof.core import Case, CaseResult, Classification, Reason, Response
from failproof.scoring._base import RESULT_FIELDS, Evidence, Scorer, scorers

__all__ = ["ScorerWarning", "build_scorers", "score_case"]


class ScorerWarning(UserWarning):
    """A scorer raised on some response; its error is kept in the result."""


def build_scorers(settings: Settings, names: Sequence[str] | None = None) -> list[Scorer]:
    """Instantiate the named scorers (all registered ones by default), in name order."""
    chosen = names if names is not None else scorers.names()
    return [scorers.get(name)(settings) for name in chosen]


def score_case(
    case: Case, response: Response, scorer_list: Sequence[Scorer], *, sample: int = 0
) -> CaseResult:
    """Score ``response`` to ``case`` with every applicable scorer."""
    result = CaseResult(
        case_id=case.id,
        suite=case.suite,
        category=case.category,
        severity=case.severity.value,
        sample=sample,
        latency_ms=response.latency_ms,
        prompt_tokens=response.prompt_tokens,
        completion_tokens=response.completion_tokens,
        finish_reason=response.finish_reason,
        output=response.output,
        error=response.error,
        cached=response.cached,
        repairs=response.repairs,
        messages=case.messages(),
        task=case.task,
        failure_modes=list(case.failure_modes),
        archetype=case.archetype,
        metadata=dict(case.metadata),
    )
    evidence = Evidence(response)
    updates: dict[str, Any] = {}
    failed: list[Reason] = []
    for scorer in scorer_list:
        if not scorer.applies_to(case):
            continue
        try:
            out = scorer.score(case, response, evidence)
        except Exception as exc:  # a scorer bug must not lose the run; it is kept and shown
            failed.append(_scorer_failed(scorer, case, exc))
            result.scores[scorer.name] = {"scorer_error": repr(exc)[:500]}
            continue
        for key, value in out.items():
            if key in RESULT_FIELDS:
                updates[key] = value
            else:
                result.scores.setdefault(scorer.name, {})[key] = value
    if failed:
        updates |= _error_verdict(failed, updates.get("classification"))
    return result.model_copy(update=updates) if updates else result


def _scorer_failed(scorer: Scorer, case: Case, exc: Exception) -> Reason:
    warnings.warn(
        f"scorer {scorer.name!r} failed on case {case.id!r}: {exc!r}", ScorerWarning, stacklevel=3
    )
    detail = f"the scorer {scorer.name!r} failed, so this case cannot pass"
    return Reason(rule="scorer_error", detail=detail, evidence=f"{type(exc).__name__}: {exc}"[:300])


def _error_verdict(failed: list[Reason], classification: Any) -> dict[str, Any]:
    """A failed scorer makes the case an ``error``; the reasons of the other checks stay."""
    kept = list(classification.reasons) if isinstance(classification, Classification) else []
    return {
        "classification": Classification(primary="error", reasons=[*failed, *kept]),
        "accuracy": 0,
    }
