"""A score's report reads the results it just stored from memory when they are few: the very
files reading them back from the store would give."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import failproof.runner._score as score_module
from failproof import load_settings, score_responses
from failproof.guard import add_secret, forget_secrets
from failproof.report import write_reports

DATA = Path(__file__).parents[1] / "record" / "data"
FORMATS = ["json", "markdown", "junit", "html"]


def reports(tmp_path: Path, name: str, held: int, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every file report of the pinned run, run ids and clock readings blanked."""
    monkeypatch.setattr(score_module, "HELD_RESULTS", held)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / name))
    outcome = score_responses(
        DATA / "pinned_responses.jsonl", [DATA / "pinned.yaml"], settings=load_settings()
    )
    written = write_reports(outcome.report, FORMATS, tmp_path / name / "out", folder=True)
    run_id = outcome.run.id
    texts = [path.read_text(encoding="utf-8").replace(run_id, "RUN") for path in written]
    clock = re.compile(
        r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|\+00:00| UTC)?|<dt>took</dt><dd>[^<]*"
    )
    return [clock.sub("T", text) for text in texts]


@pytest.mark.parametrize("secret", [None, "sk-pinned-secret-1234"], ids=["no-secret", "secret"])
def test_held_results_give_the_files_the_store_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, secret: str | None
) -> None:
    monkeypatch.chdir(tmp_path)
    add_secret(secret)
    try:
        held = reports(tmp_path, "held", 5_000, monkeypatch)
        read = reports(tmp_path, "read", 0, monkeypatch)
    finally:
        forget_secrets()
    assert held == read
