"""Pytest fixtures around the fake OpenAI-compatible server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.fakes.openai_server import FakeOpenAI, ServerThread


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    """A scripted OpenAI-compatible server on 127.0.0.1; set ``.script`` / ``.default``."""
    with ServerThread(FakeOpenAI()) as fake:
        yield fake


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh failproof home and working folder, with no OpenAI base URL from outside (the
    fake server's URL is given on each command line)."""
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path
