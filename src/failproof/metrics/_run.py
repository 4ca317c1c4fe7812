"""The aggregation step of a run: every registered aggregator over its results, once."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from failproof.config import Settings
from failproof.core import CaseResult, Run
from failproof.metrics._base import aggregators, context_for, section_models

__all__ = ["CORE_SECTIONS", "RunAggregates", "aggregate_run"]

#: Sections the report names; every other aggregator's section goes under ``extensions``.
CORE_SECTIONS = ("summary", "suites", "aggregate_metrics", "observability", "safe_v0")


@dataclass(frozen=True)
class RunAggregates:
    """A run's results in report order, its core sections and its plugin sections."""

    results: list[CaseResult]
    sections: dict[str, Any] = field(default_factory=dict)
    extensions: dict[str, Any] = field(default_factory=dict)


def aggregate_run(
    run: Run,
    results: Iterable[CaseResult],
    fallback: Settings | None = None,
    suite_weights: Mapping[str, float] | None = None,
) -> RunAggregates:
    """Every aggregator's section of ``run``, from the scoring recorded with it.

    ``fallback`` stands in only for a run made before scoring records.
    """
    ordered = sorted(results, key=lambda r: r.key)
    ctx = context_for(run, fallback, suite_weights)
    out = RunAggregates(results=ordered)
    for entry in aggregators:
        value = entry.obj(ordered, ctx)
        if value is None:
            continue
        if entry.name in CORE_SECTIONS:
            out.sections[entry.name] = value
        else:
            model = section_models.get(entry.name)
            out.extensions[entry.name] = model.model_validate(value) if model else value
    return out
