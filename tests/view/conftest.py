"""A results store holding three runs: two to compare, and one whose outputs are hostile."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from tests.report.hostile import hostile_report
from tests.report.synthetic import make_report

from failproof.config import Settings
from failproof.report import Report
from failproof.store import Store

RUN_A, RUN_B, RUN_HOSTILE = "20260115-103000-aaaaaa", "20260116-103000-bbbbbb", "20260117-hostile"


def _as_run(report: Report, run_id: str, days: int) -> Report:
    run = report.run.model_copy(
        update={"id": run_id, "started_at": report.run.started_at + timedelta(days=days)}
    )
    return report.model_copy(update={"run": run})


def fill(path: Path, *reports: Report) -> None:
    with Store(path) as store:
        for report in reports:
            store.create_run(report.run)
            for result in report.results:
                store.add_result(report.run.id, result)


@pytest.fixture(scope="session")
def runs() -> dict[str, Report]:
    return {
        RUN_A: _as_run(make_report(30, seed=0), RUN_A, 0),
        RUN_B: _as_run(make_report(30, seed=1), RUN_B, 1),
        RUN_HOSTILE: _as_run(hostile_report(), RUN_HOSTILE, 2),
    }


@pytest.fixture(scope="session")
def settings(tmp_path_factory: pytest.TempPathFactory, runs: dict[str, Report]) -> Settings:
    home = tmp_path_factory.mktemp("home")
    fill(home / "failproof.db", *runs.values())
    return Settings(home=home)
