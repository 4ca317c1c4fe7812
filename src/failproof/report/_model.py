"""The run report: one object that every renderer turns into its format."""

from __future__ import annotations

from collections.abc import Iterable
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
from failproof.metrics import aggregate_run

__all__ = ["SCHEMA_VERSION", "Report", "build_report"]

SCHEMA_VERSION = "1.0"


class Report(BaseModel):
    """The JSON run report (``report_type: failproof_run``); key names follow the seeds."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

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
    """The report of ``run``: the metrics step's sections, assembled.

    Aggregates read the scoring recorded with ``run``, never the environment; ``settings`` only
    stand in for a run made before scoring records.
    """
    done = aggregate_run(run, results, settings, suite_weights)
    return Report(run=run, results=done.results, extensions=done.extensions, **done.sections)
