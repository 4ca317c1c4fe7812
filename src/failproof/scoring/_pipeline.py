"""Turn a (case, response) pair into a `CaseResult` by running every scorer."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Sequence
from typing import Any

from pydantic import TypeAdapter

from failproof.config import ScoringConfig, Settings
from failproof.core import Case, CaseResult, Classification, Response
from failproof.core._result import Reason
from failproof.scoring._base import RESULT_FIELDS, Evidence, Scorer, scorers
from failproof.scoring._per_case import per_case

__all__ = ["ScorerWarning", "build_scorers", "score_case"]


@functools.cache
def _field_adapters() -> dict[str, TypeAdapter[Any]]:
    """Each result field a scorer may set, validated when the scorer returns it (a scorer that
    returns a malformed field fails like one that raises). Built on first use."""
    fields = CaseResult.model_fields
    return {
        name: TypeAdapter(Any if (kind := fields[name].annotation) is None else kind)
        for name in sorted(RESULT_FIELDS)
    }


class ScorerWarning(UserWarning):
    """A scorer raised on some response; its error is kept in the result."""


def build_scorers(
    config: ScoringConfig | Settings, names: Sequence[str] | None = None
) -> list[Scorer]:
    """The named scorers (all registered ones by default, in name order) that ``config`` needs.

    ``config`` is a run's scoring record; `Settings` are reduced to theirs (without SAFE).
    """
    record = config if isinstance(config, ScoringConfig) else ScoringConfig.from_settings(config)
    chosen = names if names is not None else scorers.names()
    classes = [scorers.get(name) for name in chosen]
    return [cls(record) for cls in classes if cls.wanted(record)]


def score_case(
    case: Case, response: Response, scorer_list: Sequence[Scorer], *, sample: int = 0
) -> CaseResult:
    """Score ``response`` to ``case`` with every applicable scorer."""
    updates, scores = _run_scorers(case, response, scorer_list)
    return CaseResult(
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
        messages=list(per_case(case, "messages", Case.messages))
        if response.request_body is None
        else [],
        request_body=response.request_body,
        task=case.task,
        failure_modes=list(case.failure_modes),
        taxonomy=list(case.taxonomy),
        archetype=case.archetype,
        metadata=dict(case.metadata),
        tool_uses=list(response.tool_uses),
        tool_limit=response.tool_limit,
        scores=scores,
        **updates,
    )


def _run_scorers(
    case: Case, response: Response, scorer_list: Sequence[Scorer]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The result fields the scorers set (validated by `CaseResult`), and their other keys.

    A scorer that raises makes the case an ``error`` with its reason (``scorer_error``); what
    the other scorers found stays in the reasons.
    """
    evidence = Evidence(response)
    fields = _field_adapters()
    updates: dict[str, Any] = {}
    scores: dict[str, Any] = {}
    failed: list[Reason] = []
    for scorer in scorer_list:
        if not scorer.applies_to(case):
            continue
        try:
            out = scorer.score(case, response, evidence)
            typed = {k: fields[k].validate_python(v) for k, v in out.items() if k in fields}
        except Exception as exc:  # a scorer bug must not lose the run; it is kept and shown
            failed.append(_scorer_failed(scorer, case, exc))
            scores[scorer.name] = {"scorer_error": repr(exc)[:500]}
            continue
        updates.update(typed)
        for key, value in out.items():
            if key not in fields:
                scores.setdefault(scorer.name, {})[key] = value
    if failed:
        updates |= _error_verdict(failed, updates.get("classification"))
    return updates, scores


def _scorer_failed(scorer: Scorer, case: Case, exc: Exception) -> Reason:
    warnings.warn(
        f"scorer {scorer.name!r} failed on case {case.id!r}: {exc!r}", ScorerWarning, stacklevel=4
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
