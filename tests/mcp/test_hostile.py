"""Hostile servers are hostile input: broken JSON-RPC, hangs, deaths, floods, huge listings,
markup; a stdio server's process is gone after every scan, however it ended."""

from __future__ import annotations

import html
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from tests.fakes.processes import wait_until

from failproof.cli import main
from failproof.mcp import McpScan

from .conftest import SERVERS


def raw(mode: str, pidfile: Path) -> str:
    return f"stdio:{sys.executable} {SERVERS / 'raw_server.py'} {mode} {pidfile}"


def gone(pidfile: Path) -> bool:
    pid = int(pidfile.read_text("utf-8"))
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # a zombie has exited but is not reaped yet: it counts as gone only once reaped
    status = Path(f"/proc/{pid}/status")
    return status.exists() and "\nState:\tZ" in status.read_text("utf-8")


def scan(server: str, out: Path, *args: str) -> tuple[int, McpScan]:
    code = main(["mcp", "scan", server, "-f", "all", "-o", str(out), *args])
    return code, McpScan.model_validate_json((out / "report.json").read_text("utf-8"))


@pytest.mark.parametrize(
    ("mode", "why"),
    [
        pytest.param("malformed", "", id="malformed-json-rpc"),
        pytest.param("hang", "timed out", id="hangs"),
        pytest.param("die", "", id="dies-after-initialize"),
        pytest.param("flood", "timed out", id="endless-notifications"),
    ],
)
def test_a_broken_server_is_recorded_as_not_scanned_and_its_process_is_stopped(
    workdir: Path, mode: str, why: str
) -> None:
    pidfile = workdir / f"{mode}.pid"
    code, result = scan(raw(mode, pidfile), workdir / mode, "--timeout", "1")
    assert code == 3
    [server] = result.servers
    assert server.error is not None and why in server.error
    assert gone(pidfile)


def test_a_huge_listing_is_cut_and_reported(workdir: Path) -> None:
    pidfile = workdir / "huge.pid"
    code, result = scan(raw("huge", pidfile), workdir / "huge")
    assert code == 1
    assert len(result.servers[0].surface.tools) == 1000  # type: ignore[union-attr]
    assert [f.rule for f in result.findings] == ["mcp-listing-truncated"]
    assert gone(pidfile)


def test_markup_in_names_and_descriptions_is_escaped_in_every_report(workdir: Path) -> None:
    code, result = scan(raw("markup", workdir / "m.pid"), workdir / "markup")
    assert code == 1
    assert "mcp-markup" in {f.rule for f in result.findings}
    page = (workdir / "markup" / "report.html").read_text("utf-8")
    assert "<script>" not in page and "<img src=x" not in page
    assert html.escape("<img src=x onerror=alert(1)>") in page
    markdown = (workdir / "markup" / "report.md").read_text("utf-8")
    assert "<script>" not in markdown.replace("`<script>", "")  # only inside code spans


def test_a_command_that_does_not_exist_is_an_error_not_a_crash(workdir: Path) -> None:
    code, result = scan("stdio:failproof-no-such-program --x", workdir / "none")
    assert code == 3
    assert result.servers[0].error


def test_a_stdio_server_is_stopped_when_the_scan_is_interrupted(workdir: Path) -> None:
    """A scan cut short (here by its deadline while the server hangs in tools/list) leaves no
    child behind: the server's process group is terminated."""
    pidfile = workdir / "hang.pid"
    scan(raw("hang", pidfile), workdir / "hang", "--timeout", "0.5")
    assert gone(pidfile)


@pytest.mark.parametrize(
    "stop", [pytest.param(signal.SIGINT, id="ctrl-c"), pytest.param(signal.SIGTERM, id="sigterm")]
)
def test_a_scan_stopped_by_a_signal_leaves_no_server_behind(
    workdir: Path, stop: signal.Signals
) -> None:
    pidfile = workdir / "hang.pid"
    command = [sys.executable, "-m", "failproof", "mcp", "scan", raw("hang", pidfile)]
    process = subprocess.Popen(
        command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    )
    wait_until(pidfile.exists, process, "the server started")
    wait_until(lambda: pidfile.read_text("utf-8") != "", process, "the server wrote its pid")
    process.send_signal(stop)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert gone(pidfile)


def test_without_the_sdk_the_scan_says_which_extra_to_install(
    workdir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # as if the package were not installed
    assert main(["mcp", "scan", "stdio:true"]) == 3
    assert "pip install 'failproof[mcp]'" in capsys.readouterr().err
