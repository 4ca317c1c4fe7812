"""Builders of SAFE v0 records, batch files and configs for the tests."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from failproof.safe import SafeConfig, SafeRecord, SafeResult
from failproof.safe._scoring import score_record

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "safe_v0"


def record_data(
    *,
    test_id: str = "T-1",
    archetype: str | None = "Process_Auditor",
    metric_id: str | None = None,
    must_find: Sequence[str] = (),
    forbidden: Sequence[str] = (),
    must_contain: Sequence[str] = (),
    signals: Sequence[str] | None = (),
    summary: str | None = "",
    questions: Sequence[str] | None = (),
) -> dict[str, Any]:
    """One batch-file record as JSON-ready data."""
    data: dict[str, Any] = {
        "test_id": test_id,
        "expectations": {
            "signal_generation": {"must_find_signals": list(must_find)},
            "followup_questions": {"forbidden_terms": list(forbidden)},
            "event_summary": {"must_contain_phrases": list(must_contain)},
        },
        "output": {
            "signals": None if signals is None else list(signals),
            "summary": summary,
            "followup_questions": None if questions is None else list(questions),
        },
    }
    if archetype is not None:
        data["archetype"] = archetype
    if metric_id is not None:
        data["metric_id"] = metric_id
    return data


def record(**fields: Any) -> SafeRecord:
    return SafeRecord.model_validate(record_data(**fields))


def score(config: SafeConfig | None = None, **fields: Any) -> SafeResult:
    """Score one record built from ``fields`` (see `record_data`)."""
    return score_record(record(**fields), config or SafeConfig(), batch_id="b1")


def write_batch(folder: Path, name: str, records: Sequence[Any]) -> Path:
    """Write ``records`` as ``folder/name`` (.json array or .jsonl lines)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    if name.endswith(".jsonl"):
        path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    else:
        path.write_text(json.dumps(list(records)), encoding="utf-8")
    return path


def passing(test_id: str, archetype: str = "Process_Auditor") -> dict[str, Any]:
    """A record that scores Pass on every metric."""
    return record_data(
        test_id=test_id,
        archetype=archetype,
        must_find=["chest pain"],
        forbidden=["blame"],
        must_contain=["troponin"],
        signals=["Chest pain at rest"],
        summary="Troponin was elevated.",
        questions=["When was the ECG done?"],
    )
