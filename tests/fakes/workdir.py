"""A test's own working folder and store, with no target settings leaking in from the shell."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("FAILPROOF_RUN__BACKOFF_BASE_S", "0")
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return tmp_path
