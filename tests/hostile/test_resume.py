"""Medium 10 and Low: what --resume may and may not do."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hostile.conftest import write_responses, write_suite

from failproof.cli import main
from failproof.store import Store


def two_cases(expect: str) -> list[dict[str, object]]:
    return [{"id": f"c{i}", "input": "x", "expect": {"must_contain": [expect]}} for i in (0, 1)]


def interrupted_run(workdir: Path, *args: str) -> str:
    """A run whose second case failed (no recording), so that --resume has work to do."""
    suite = write_suite(workdir, two_cases("y"))
    recorded = write_responses(workdir, [{"case_id": "c0", "output": "y"}])
    assert main(["run", suite, "-t", f"replay:{recorded}", "-q", *args]) == 1
    with Store(workdir / "home/failproof.db") as store:
        (summary,) = store.list_runs()
    return summary.id


def test_resume_refuses_when_the_suite_changed_and_says_what_to_do(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = interrupted_run(workdir)
    write_suite(workdir, two_cases("z"))  # same file, new expectations
    capsys.readouterr()
    assert main(["run", "--resume", run_id, "-q"]) == 3
    err = capsys.readouterr().err
    assert f"the suites of run {run_id} changed" in err
    assert "start a new run: failproof run" in err


def test_resume_of_an_unchanged_suite_goes_ahead(workdir: Path) -> None:
    run_id = interrupted_run(workdir)
    assert main(["run", "--resume", run_id, "-q"]) == 1


def test_a_run_held_by_another_process_cannot_be_resumed(
    workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = interrupted_run(workdir)
    with Store(workdir / "home/failproof.db") as store, store.lock_run(run_id):
        assert main(["run", "--resume", run_id, "-q"]) == 3
    assert "being run by another failproof process" in capsys.readouterr().err
    assert main(["run", "--resume", run_id, "-q"]) == 1  # free again once the holder is gone


def test_resume_writes_the_reports_where_the_run_first_wrote_them(workdir: Path) -> None:
    run_id = interrupted_run(workdir, "-o", "out", "-f", "json,markdown")
    for path in (workdir / "out").iterdir():
        path.unlink()
    assert main(["run", "--resume", run_id, "-q"]) == 1
    assert sorted(p.name for p in (workdir / "out").iterdir()) == [
        "report.json",
        "report.md",
        "responses.jsonl",
    ]
