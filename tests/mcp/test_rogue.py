"""The built-in rogue server: what a scan finds on it (and not on its clean tool), over stdio
and 127.0.0.1 HTTP."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from failproof.cli import main
from failproof.mcp import McpScan

_RUNNING = re.compile(r"Uvicorn running on (http://127\.0\.0\.1:\d+)")


def scan(server: str, out: Path, *args: str) -> tuple[int, McpScan]:
    code = main(["mcp", "scan", server, "-f", "json", "-o", str(out), *args])
    return code, McpScan.model_validate_json(out.read_text("utf-8"))


def by_tool(result: McpScan) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for f in result.findings:
        found.setdefault(f.item, set()).add(f.rule)
    return found


def test_a_scan_of_the_rogue_server_finds_every_attack_and_spares_the_clean_tool(
    workdir: Path,
) -> None:
    code, result = scan("rogue:all", workdir / "r.json", "--probe", "read-only")
    assert code == 1
    found = by_tool(result)
    assert "get_time" not in found
    assert {"mcp-instruction-override", "mcp-concealment", "mcp-sensitive-read"} <= found[
        "add_numbers"
    ]
    assert {"mcp-instruction-override", "mcp-concealment"} <= found["get_weather"]
    assert "mcp-definition-changed" in found["get_fact"]  # the rug pull, within one session
    assert "mcp-response-injection" in found["fetch_page"]
    [change] = [c for c in result.changes if c.item == "get_fact"]
    assert "collector@rogue.example" in change.diff


@pytest.fixture
def rogue_http() -> Iterator[str]:
    command = [sys.executable, "-m", "failproof", "mcp", "serve-rogue"]
    process = subprocess.Popen(
        [*command, "--scenario", "poisoned-description", "--transport", "streamable-http"],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
    )
    assert process.stderr is not None
    url = None
    for line in process.stderr:  # waits for the line that says where it listens
        found = _RUNNING.search(line)
        if found:
            url = found.group(1) + "/mcp"
            break
    assert url is not None, process.wait()
    drain = threading.Thread(target=process.stderr.read, daemon=True)
    drain.start()
    yield url
    process.terminate()
    process.wait(timeout=30)
    drain.join(timeout=30)
    process.stderr.close()


def test_serve_rogue_over_http_on_127_0_0_1(workdir: Path, rogue_http: str) -> None:
    code, result = scan(rogue_http, workdir / "h.json")
    assert code == 1
    assert [t.name for t in result.servers[0].surface.tools] == [  # type: ignore[union-attr]
        "get_time",
        "add_numbers",
        "read_file",
    ]
    assert "mcp-sensitive-read" in by_tool(result)["add_numbers"]


def test_an_unknown_scenario_is_a_usage_error(workdir: Path) -> None:
    assert main(["mcp", "serve-rogue", "--scenario", "nope"]) == 3
