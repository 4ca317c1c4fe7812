"""What a report says about the run's scoring record: versions that differ, rescoring, legacy."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import ValidationError

from failproof.config import ScoringConfig
from failproof.core._capabilities import NEEDS
from failproof.report._model import Report
from failproof.scoring._versions import installed_versions

__all__ = ["record_notes", "unsupported_notes"]


def record_notes(report: Report) -> list[str]:
    """Sentences for a person: scored by other versions than installed, rescored from a run."""
    config = report.run.config
    try:
        recorded = ScoringConfig.of_run(config)
    except ValidationError:
        return ["The run's scoring record does not fit this version of failproof."]
    notes = []
    if recorded is None:
        notes.append(
            "This run was stored before runs recorded their scoring settings: its run-level "
            "numbers use the settings of the day they were rendered."
        )
    else:
        differences = recorded.versions.differences(installed_versions())
        if differences:
            notes.append("Scored with other versions than installed: " + "; ".join(differences))
    rubric = report.extensions.get("rubric")
    waiting = (
        rubric.get("unscored") if isinstance(rubric, Mapping) else getattr(rubric, "unscored", 0)
    )
    if waiting:
        notes.append(
            f"{waiting:,} case(s) with rubric expectations are unscored (never a pass): "
            "no judge graded them; add --judge SPEC (e.g. --judge openai:gpt-4o-mini)."
        )
    notes += unsupported_notes(report)
    source = config.get("rescored_from")
    if isinstance(source, str):
        notes.append(f"Rescored from run {source} (same answers, new scoring settings).")
    return notes


def unsupported_notes(report: Report) -> list[str]:
    """What was not run: the cases the target could not take, by feature, with a reason."""
    found = report.digest().unsupported
    if not found:
        return []
    total = sum(n for n, _ in found.values())
    needs = ", ".join(f"{n:,} {NEEDS[f]}" for f, (n, _) in found.items())
    first = next(iter(found.values()))[1]
    return [
        f"{total:,} case(s) not sent ({needs}); the first, {first}. Unsupported cases are never "
        "passes and are in no score's denominator, like cases not run."
    ]
