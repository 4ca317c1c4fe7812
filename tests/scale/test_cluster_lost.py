"""A Ray cluster that goes away mid-run: exit 3, one line, and the resume command."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.fakes.processes import wait_until
from tests.runner.helpers import numbered_cases, write_suite

pytestmark = pytest.mark.ray

#: Not a timing of the code under test: how long the run may take to notice before it fails.
GUARD_S = 240


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


#: Ray turns on token authentication for a cluster started with ``ray start`` whenever a token
#: file lies in the home folder (a local ``ray.init`` writes one), and a client then fails to
#: join it. The test's own cluster and its client both run with authentication off, so the test
#: does not depend on what earlier Ray runs left in the home folder.
RAY_ENV = {**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "disabled"}


def _ray(*args: str) -> subprocess.CompletedProcess[str]:
    ray = str(Path(sys.executable).with_name("ray"))
    return subprocess.run(
        [ray, *args], capture_output=True, text=True, timeout=GUARD_S, check=False, env=RAY_ENV
    )


@pytest.fixture
def own_cluster(tmp_path: Path) -> Iterator[str]:
    """A Ray head of its own on 127.0.0.1 (the test stops it)."""
    pytest.importorskip("ray", reason="the ray extra is not installed: failproof[ray]")
    port = _free_port()
    started = _ray(
        "start", "--head", "--port", str(port), "--node-ip-address", "127.0.0.1",
        "--num-cpus", "2", "--include-dashboard", "false", "--disable-usage-stats",
    )  # fmt: skip
    assert started.returncode == 0, started.stderr[-800:]
    try:
        yield f"127.0.0.1:{port}"
    finally:
        _ray("stop", "--force")


def test_a_cluster_that_dies_mid_run_is_exit_3_with_the_resume_command(
    own_cluster: str, workdir: Path
) -> None:
    suite = write_suite(workdir / "s.yaml", "s", numbered_cases(6))
    (workdir / "bot.py").write_text(
        "import pathlib, threading\n\ndef f(case):\n"
        f"    pathlib.Path({str(workdir / 'started')!r}).touch()\n"
        "    threading.Event().wait()\n",
        encoding="utf-8",
    )
    command = [
        sys.executable,
        "-m",
        "failproof",
        "run",
        str(suite),
        "-t",
        f"python:{workdir / 'bot.py'}:f",
    ]
    command += ["--executor", f"ray:{own_cluster}", "--timeout", "1000", "-f", "json"]
    process = subprocess.Popen(
        command, cwd=workdir, env=RAY_ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        wait_until(lambda: (workdir / "started").exists(), process, "no case was started")
        _ray("stop", "--force")
        _, err = process.communicate(timeout=GUARD_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 3, err[-800:]
    lines = [line for line in err.splitlines() if line.startswith("failproof: error:")]
    assert len(lines) == 1, err[-800:]
    assert "went away mid-run" in lines[0]
    assert "resume with: failproof run --resume" in lines[0]
    assert "Traceback" not in err
