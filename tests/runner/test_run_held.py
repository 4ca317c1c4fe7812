"""A run's report reads the results it just stored from memory when they are what the store
holds: the very files reading them back from the store gives; a secret the store redacted sends
the report back to the store."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from tests.runner.helpers import settings

from failproof.guard import add_secret, forget_secrets
from failproof.report import Report, build_report, write_reports
from failproof.runner import RunOutcome, RunRequest, start_run
from failproof.store import Store

DATA = Path(__file__).parents[1] / "record" / "data"
FORMATS = ["json", "markdown", "junit", "html"]
CLOCK = re.compile(
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|\+00:00| UTC)?|<dt>took</dt><dd>[^<]*"
)


def files(report: Report, folder: Path) -> list[str]:
    """Every file report, clock readings blanked."""
    written = write_reports(report, FORMATS, folder, folder=True)
    return [CLOCK.sub("T", path.read_text(encoding="utf-8")) for path in written]


def run_pinned(tmp_path: Path, store: Store) -> RunOutcome:
    request = RunRequest(
        suites=(str(DATA / "pinned.yaml"),),
        target=f"replay:{DATA / 'pinned_responses.jsonl'}",
    )
    config = settings(tmp_path / "home", concurrency=16, score_workers=1)
    return start_run(request, settings=config, store=store)


@pytest.mark.parametrize(
    ("secret", "held"),
    [
        pytest.param(None, True, id="no-secret-held"),
        pytest.param("sk-never-answered-1234", True, id="secret-not-in-answers-held"),
        pytest.param("ORCHID-42", False, id="secret-in-an-answer-read-back"),
    ],
)
def test_the_report_from_held_results_is_the_report_from_the_store(
    tmp_path: Path, secret: str | None, held: bool
) -> None:
    add_secret(secret)
    try:
        with Store(tmp_path / "home" / "results.db") as store:
            outcome = run_pinned(tmp_path, store)
            read = build_report(outcome.run, store.stream(outcome.run.id))
            assert (getattr(outcome.report.results, "held", None) is not None) == held
            assert files(outcome.report, tmp_path / "held") == files(read, tmp_path / "read")
    finally:
        forget_secrets()
