"""Turn a (case, response) pair into a `CaseResult` by running every scorer."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from failproof.config import Settings
from failproof.core import Case, CaseResult, Response
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
        messages=case.messages(),
        task=case.task,
        failure_modes=list(case.failure_modes),
        archetype=case.archetype,
        metadata=dict(case.metadata),
        tool_uses=list(response.tool_uses),
        tool_limit=response.tool_limit,
    )
    evidence = Evidence(response)
    updates: dict[str, Any] = {}
    for scorer in scorer_list:
        if not scorer.applies_to(case):
            continue
        try:
            out = scorer.score(case, response, evidence)
        except Exception as exc:  # a scorer bug must not lose the run; it is kept and shown
            warnings.warn(
                f"scorer {scorer.name!r} failed on case {case.id!r}: {exc!r}",
                ScorerWarning,
                stacklevel=2,
            )
            result.scores[scorer.name] = {"scorer_error": repr(exc)}
            continue
        for key, value in out.items():
            if key in RESULT_FIELDS:
                updates[key] = value
            else:
                result.scores.setdefault(scorer.name, {})[key] = value
    return result.model_copy(update=updates) if updates else result
