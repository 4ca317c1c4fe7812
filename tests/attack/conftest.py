from pathlib import Path

import pytest
from tests.fakes.fixtures import fake_openai

__all__ = ["fake_openai", "home"]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh failproof home and working folder, with no OpenAI base URL from outside."""
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path
