"""What a report says about the run's scoring record: versions that differ, rescoring, legacy."""

from __future__ import annotations

from pydantic import ValidationError

from failproof.config import ScoringConfig
from failproof.core._capabilities import NEEDS
from failproof.report._model import Report
from failproof.report._present.registered import presenter_of
from failproof.scoring._versions import installed_versions

__all__ = ["record_notes", "unsupported_notes"]


def record_notes(report: Report) -> list[str]:
    """Sentences for a person: scored by other versions than installed, rescored from a run."""
    config = report.run.config
    try:
        recorded = ScoringConfig.of_run(config)
    except ValidationError:
        return ["The run's scoring record does not fit this version of failproof."]
    notes = _stopped_notes(report)
    if recorded is None:
        notes.append(
            "This run was stored before runs recorded their scoring settings: its run-level "
            "numbers use the settings of the day they were rendered."
        )
    else:
        differences = recorded.versions.differences(installed_versions())
        if differences:
            notes.append("Scored with other versions than installed: " + "; ".join(differences))
    notes += section_notes(report)
    notes += unsupported_notes(report)
    source = config.get("rescored_from")
    if isinstance(source, str):
        notes.append(f"Rescored from run {source} (same answers, new scoring settings).")
    return notes


def _stopped_notes(report: Report) -> list[str]:
    """A run that stopped before its end says so, and how to finish it where it can be."""
    run = report.run
    if run.status not in ("interrupted", "failed"):
        return []
    note = (
        f"This run stopped ({run.status}) before every planned case was answered: its numbers "
        "cover the answers stored."
    )
    if run.config.get("target_spec"):
        note += f" Finish it with 'failproof run --resume {run.id}'."
    return [note]


def section_notes(report: Report) -> list[str]:
    """The notes of the sections whose presenter is registered with notes (the rubric's)."""
    notes: list[str] = []
    for key, data in report.extensions.items():
        presenter = presenter_of(key)
        if presenter is not None and presenter.notes is not None:
            notes += presenter.notes(data)
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
