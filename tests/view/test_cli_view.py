"""``failproof view`` at the command line refuses what it must before serving anything."""

from __future__ import annotations

import socket
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


def test_a_port_in_use_is_named_with_how_to_choose_another(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from failproof.config import Settings
    from failproof.store import Store

    Store(Settings().db_path).close()
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["view", "--port", str(port)]) == 3
    err = capsys.readouterr().err
    assert f"port {port} on 127.0.0.1 is in use" in err and "--port 0" in err
