"""A report from where it lives: a JSON report file, or a run in the results store."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from failproof.config import Settings
from failproof.errors import InputError
from failproof.guard._problem import first_problem
from failproof.report._model import Report, build_report
from failproof.store import Store

__all__ = ["load_report", "read_report"]


def read_report(path: Path) -> Report:
    """A JSON run report (``report.json``) read back into a `Report`."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the report: {exc}") from None
    try:
        return Report.model_validate_json(text)
    except ValidationError as exc:
        where, what = first_problem(exc, "(top level)")
        raise InputError(
            f"{path}: not a failproof JSON run report ({where}: {what})",
            hint="give a report.json written by failproof, or a run id from 'failproof runs list'",
        ) from None


def load_report(source: str | Path, settings: Settings) -> Report:
    """``source`` is a JSON report file, or a run id whose results are read from the store."""
    path = Path(source)
    if path.is_file():
        return read_report(path)
    if path.suffix.lower() == ".json":
        raise InputError(f"{path}: no such report file")
    with Store(settings.db_path) as store:
        run = store.get_run(str(source))
        return build_report(run, store.stream(run.id), settings)
