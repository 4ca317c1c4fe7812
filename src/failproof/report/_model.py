"""The run report: one object that every renderer turns into its format."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from failproof.config import Settings
from failproof.core import (
    AggregateMetrics,
    CaseResult,
    Observability,
    Run,
    SafeBatchReport,
    SuiteRow,
    Summary,
    utc_now,
)
from failproof.metrics import aggregators, context_for

__all__ = ["SCHEMA_VERSION", "Report", "build_report"]

SCHEMA_VERSION = "1.0"
_CORE_SECTIONS = ("summary", "suites", "aggregate_metrics", "observability", "safe_v0")


class Report(BaseModel):
    """The JSON run report (``report_type: failproof_run``); key names follow the seeds."""

    model_config = ConfigDict(extra="forbid")

    report_type: Literal["failproof_run"] = "failproof_run"
    schema_version: str = SCHEMA_VERSION
    generated_at: datetime = Field(default_factory=utc_now)
    run: Run
    summary: Summary = Field(default_factory=Summary)
    suites: dict[str, SuiteRow] = Field(default_factory=dict)
    aggregate_metrics: AggregateMetrics | None = None
    observability: Observability | None = None
    safe_v0: SafeBatchReport | None = None
    extensions: dict[str, Any] = Field(
        default_factory=dict, description="Sections of third-party aggregators, by name."
    )
    results: list[CaseResult] = Field(default_factory=list)


def build_report(
    run: Run,
    results: Iterable[CaseResult],
    settings: Settings | None = None,
    *,
    suite_weights: dict[str, float] | None = None,
) -> Report:
    """Run every registered aggregator over ``results`` and assemble the report.

    Aggregates read the scoring recorded with ``run``, never the environment; ``settings`` only
    stand in for a run made before scoring records.
    """
    ordered: Sequence[CaseResult] = sorted(results, key=lambda r: r.key)
    ctx = context_for(run, settings, suite_weights)
    sections: dict[str, Any] = {}
    extensions: dict[str, Any] = {}
    for entry in aggregators:
        value = entry.obj(ordered, ctx)
        if value is None:
            continue
        if entry.name in _CORE_SECTIONS:
            sections[entry.name] = value
        else:
            extensions[entry.name] = value
    return Report(run=run, results=list(ordered), extensions=extensions, **sections)
