"""The SAFE v0 batch report (sections 4.2 and 5.1): one object every output format reads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from failproof.config import SafeConfig
from failproof.config._safe import Metric
from failproof.guard._json import JsonObject
from failproof.safe._aggregate import BatchAggregate, aggregate
from failproof.safe._loader import SkippedRecord
from failproof.safe._result import SafeResult

__all__ = ["SCHEMA_VERSION", "BatchInfo", "MetricStatus", "SafeReport", "build_safe_report"]

SCHEMA_VERSION = "1.0"


class BatchInfo(NamedTuple):
    """One scored batch file."""

    batch_id: str
    file: str
    records: int


class MetricStatus(NamedTuple):
    """The scorecard's Status column for one metric: OK, WARN or FAIL, and why."""

    level: str
    text: str


def iso_utc(moment: datetime) -> str:
    """``2025-01-15T10:30:00Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class SafeReport:
    """A scored set of batches of one concern, with its aggregation and provenance."""

    concern_id: str
    batch_id: str
    generated_at: datetime
    results: tuple[SafeResult, ...]
    aggregate: BatchAggregate
    batches: tuple[BatchInfo, ...]
    skipped: tuple[SkippedRecord, ...]
    config: SafeConfig

    @property
    def timestamp(self) -> str:
        return iso_utc(self.generated_at)

    def summary(self) -> JsonObject:
        """The ``summary`` block of 5.1 (plus how many records were skipped)."""
        labels = self.aggregate.label_distribution
        return {
            "total_cases": self.aggregate.total_cases,
            "pass": labels["Pass"],
            "review": labels["Review"],
            "fail": labels["Fail"],
            "overall_pass_rate": self.aggregate.pass_rates["overall"],
            "skipped": len(self.skipped),
        }

    def metric_status(self, metric: Metric) -> MetricStatus:
        """OK at or above the pass threshold; WARN between review and pass; FAIL below review."""
        mean = self.aggregate.mean_scores[metric]
        bounds = self.config.thresholds.of(metric)
        if metric == "AH":
            violations = sum(len(r.ah_violations) for r in self.results)
            if violations:
                level = "FAIL" if mean < bounds.review else "WARN"
                return MetricStatus(level, f"{level} ({violations} violations across batch)")
        if mean >= bounds.pass_:
            return MetricStatus("OK", "OK")
        if mean >= bounds.review:
            return MetricStatus("WARN", "WARN (review threshold)")
        return MetricStatus("FAIL", "FAIL (below review threshold)")

    def to_json(self, *, with_results: bool = True) -> JsonObject:
        """The JSON report: the keys of 5.1 and 4.2, intervals, batches, skipped, config."""
        agg = self.aggregate
        out: dict[str, Any] = {
            "report_type": "SAFE_v0",
            "schema_version": SCHEMA_VERSION,
            "generated_at": self.timestamp,
            "batch_id": self.batch_id,
            "concern_id": self.concern_id,
            "summary": self.summary(),
            "total_cases": agg.total_cases,
            "mean_scores": agg.mean_scores,
            "pass_rates": agg.pass_rates,
            "label_distribution": agg.label_distribution,
            "by_archetype": {k: v.to_json() for k, v in agg.by_archetype.items()},
            "failure_analysis": agg.failure_analysis.to_json(),
            "confidence_intervals": agg.intervals,
            "batches": [b._asdict() for b in self.batches],
            "skipped": [s.to_json() for s in self.skipped],
            "config": self.config.file_view(),
        }
        if with_results:
            out["results"] = [r.to_json() for r in self.results]
        return out


def build_safe_report(
    results: Sequence[SafeResult],
    config: SafeConfig,
    *,
    concern_id: str,
    batches: Sequence[BatchInfo] = (),
    skipped: Sequence[SkippedRecord] = (),
    generated_at: datetime | None = None,
) -> SafeReport:
    """Aggregate ``results`` into the report; ``batch_id`` joins the batch ids with commas."""
    batch_ids = [b.batch_id for b in batches] or sorted({r.batch_id for r in results})
    return SafeReport(
        concern_id=concern_id,
        batch_id=",".join(batch_ids),
        generated_at=generated_at or datetime.now(UTC),
        results=tuple(results),
        aggregate=aggregate(results, config),
        batches=tuple(batches),
        skipped=tuple(skipped),
        config=config,
    )
