"""The pinned suite and recorded responses, scored into a store of a temporary home."""

from __future__ import annotations

from pathlib import Path

import pytest

from failproof import Report, load_settings, score_responses

DATA = Path(__file__).parent / "data"


@pytest.fixture
def pinned_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Report:
    """The pinned responses scored now, in a store under ``tmp_path`` (also the cwd)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    outcome = score_responses(
        DATA / "pinned_responses.jsonl", [DATA / "pinned.yaml"], settings=load_settings()
    )
    return outcome.report
