"""``failproof view`` at the command line refuses what it must before serving anything."""

from __future__ import annotations

from pathlib import Path

import pytest

from failproof.cli import main


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("FAILPROOF_HOME", str(tmp_path / "home"))


def test_a_non_loopback_host_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["view", "--host", "0.0.0.0", "--port", "0"]) == 3
    assert "--allow-remote" in capsys.readouterr().err


def test_a_missing_store_is_reported_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["view", "--port", "0"]) == 3
    assert "no results store" in capsys.readouterr().err
    assert not (tmp_path / "home").exists()
