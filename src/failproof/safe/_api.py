"""The SAFE v0 workflow as one call: load a concern's batches, score them, build the report."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from failproof.config import SafeConfig
from failproof.errors import ExitCode
from failproof.safe._ah import AhMatcher
from failproof.safe._loader import load_batches
from failproof.safe._report import BatchInfo, SafeReport, build_safe_report
from failproof.safe._scoring import score_records
from failproof.safe._semantic import Embedder

__all__ = ["safe_exit_code", "score_concern"]


def score_concern(
    concern_id: str,
    pattern: str,
    config: SafeConfig,
    *,
    data_dir: Path | None = None,
    keep_going: bool = False,
    embedder: Embedder | None = None,
    ah: AhMatcher | None = None,
    generated_at: datetime | None = None,
) -> SafeReport:
    """Score every batch of ``concern_id`` whose id matches ``pattern`` into one report.

    Batches are read from ``<data_dir>/<concern_id>/`` (``config.data_dir`` by default). Bad input
    raises an `InputError` naming the file and record, unless ``keep_going`` skips (and lists) it.
    """
    loaded = load_batches(data_dir or config.data_dir, concern_id, pattern, keep_going=keep_going)
    results = score_records(loaded.records, config, embedder=embedder, ah=ah)
    batches = [BatchInfo(b.batch_id, str(b.path), len(b.records)) for b in loaded.batches]
    return build_safe_report(
        results,
        config,
        concern_id=concern_id,
        batches=batches,
        skipped=loaded.skipped,
        generated_at=generated_at,
    )


def safe_exit_code(report: SafeReport, fail_under: float | None = None) -> ExitCode:
    """Section 7.3: 0 all Pass, 1 any Fail, 2 Review but no Fail.

    With ``fail_under`` the gate of 8.3 decides instead: 0 when the overall pass rate is at
    least ``fail_under``, else 1.
    """
    if fail_under is not None:
        rate = report.aggregate.pass_rates["overall"]
        return ExitCode.OK if rate >= fail_under else ExitCode.FAILURE
    labels = report.aggregate.label_distribution
    if labels["Fail"]:
        return ExitCode.FAILURE
    return ExitCode.REVIEW if labels["Review"] else ExitCode.OK
