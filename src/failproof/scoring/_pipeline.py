"""Turn a (case, response) pair into a `CaseResult` by running every scorer."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any, TypedDict

from failproof.config import ScoringConfig
from failproof.core import Case, CaseResult, Classification, Response, Unsupported
from failproof.core._result import Reason
from failproof.scoring._base import Evidence, Scorer, scorers
from failproof.scoring._per_case import per_case
from failproof.scoring._result import ScoreResult

__all__ = ["ScorerWarning", "build_scorers", "score_case", "unsupported_result"]


class ScorerWarning(UserWarning):
    """A scorer raised on some response; its error is kept in the result."""


def build_scorers(config: ScoringConfig, names: Sequence[str] | None = None) -> list[Scorer]:
    """The named scorers (all registered ones by default, in name order) that the run's scoring
    record ``config`` needs."""
    chosen = names if names is not None else scorers.names()
    classes = [scorers.get(name) for name in chosen]
    return [cls(config) for cls in classes if cls.wanted(config)]


def score_case(
    case: Case, response: Response, scorer_list: Sequence[Scorer], *, sample: int = 0
) -> CaseResult:
    """Score ``response`` to ``case`` with every applicable scorer."""
    found, scores = _run_scorers(case, response, scorer_list)
    return CaseResult(
        **_described(case, sample),
        latency_ms=response.latency_ms,
        prompt_tokens=response.prompt_tokens,
        completion_tokens=response.completion_tokens,
        finish_reason=response.finish_reason,
        output=response.output,
        error=response.error,
        cached=response.cached,
        repairs=response.repairs,
        messages=list(per_case(case, "messages", Case.messages))
        if response.request_body is None
        else [],
        request_body=response.request_body,
        tool_uses=list(response.tool_uses),
        tool_limit=response.tool_limit,
        classification=found.classification,
        accuracy=found.accuracy,
        case_score=found.case_score,
        safe_v0=found.safe_v0,
        scores=scores,
    )


def unsupported_result(case: Case, why: Unsupported, *, sample: int = 0) -> CaseResult:
    """The result of a case that was not sent (``why``): no answer, no score, never a pass."""
    return CaseResult(**_described(case, sample), unsupported=why)


class _Described(TypedDict):
    case_id: str
    suite: str
    category: str
    severity: str
    sample: int
    task: str | None
    failure_modes: list[str]
    taxonomy: list[str]
    archetype: str | None
    metadata: dict[str, Any]


def _described(case: Case, sample: int) -> _Described:
    """The fields of a result that say which case it is: the same whether it was sent or not."""
    return _Described(
        case_id=case.id,
        suite=case.suite,
        category=case.category,
        severity=case.severity.value,
        sample=sample,
        task=case.task,
        failure_modes=list(case.failure_modes),
        taxonomy=list(case.taxonomy),
        archetype=case.archetype,
        metadata=dict(case.metadata),
    )


#: What no scorer has set yet.
_NOTHING = ScoreResult()


def _run_scorers(
    case: Case, response: Response, scorer_list: Sequence[Scorer]
) -> tuple[ScoreResult, dict[str, Any]]:
    """The result fields the scorers set, and what each keeps under its name.

    A scorer that raises, or returns anything but a `ScoreResult`, makes the case an ``error``
    with its reason (``scorer_error``); what the other scorers found stays in the reasons.
    """
    evidence = Evidence(response)
    found = _NOTHING
    scores: dict[str, Any] = {}
    failed: list[Reason] = []
    for scorer in scorer_list:
        if not scorer.applies_to(case):
            continue
        try:
            out = _checked(scorer, scorer.score(case, response, evidence))
        except Exception as exc:  # a scorer bug must not lose the run; it is kept and shown
            failed.append(_scorer_failed(scorer, case, exc))
            scores[scorer.name] = {"scorer_error": repr(exc)[:500]}
            continue
        found = out.over(found)
        if kept := out.kept():
            scores[scorer.name] = kept
    if failed:
        found = _error_verdict(failed, found.classification).over(found)
    return found, scores


def _checked(scorer: Scorer, out: object) -> ScoreResult:
    if not isinstance(out, ScoreResult):
        kind = type(out).__name__
        raise TypeError(f"scorer {scorer.name!r} returned a {kind}, not a ScoreResult")
    return out


def _scorer_failed(scorer: Scorer, case: Case, exc: Exception) -> Reason:
    warnings.warn(
        f"scorer {scorer.name!r} failed on case {case.id!r}: {exc!r}", ScorerWarning, stacklevel=4
    )
    detail = f"the scorer {scorer.name!r} failed, so this case cannot pass"
    return Reason(rule="scorer_error", detail=detail, evidence=f"{type(exc).__name__}: {exc}"[:300])


def _error_verdict(failed: list[Reason], classification: Classification | None) -> ScoreResult:
    """A failed scorer makes the case an ``error``; the reasons of the other checks stay."""
    kept = list(classification.reasons) if classification is not None else []
    return ScoreResult(
        classification=Classification(primary="error", reasons=[*failed, *kept]), accuracy=0
    )
