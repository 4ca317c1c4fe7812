"""Without Ray installed, ``--executor ray`` says in one line how to install it (exit 3), and
``import failproof`` and ``--help`` never import it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from failproof.errors import ConfigError
from failproof.scale._cluster import check_reachable
from failproof.scale._spec import parse_executor

ROOT = Path(__file__).resolve().parents[2]
HIDE_RAY = "import sys; sys.modules['ray'] = None; from failproof.cli import main; "


def failproof_without_ray(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI in a fresh interpreter where ``import ray`` fails as if it were not installed."""
    code = HIDE_RAY + f"sys.exit(main({list(args)!r}))"
    env = {**os.environ, "FAILPROOF_HOME": str(tmp_path / "home")}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True
    )


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(["score", "answers.jsonl", "--suite", "s.yaml"], id="score"),
        pytest.param(["run", "s.yaml", "--target", "mock"], id="run"),
    ],
)
def test_executor_ray_without_ray_names_the_extra_in_one_line(
    tmp_path: Path, command: list[str]
) -> None:
    suite = "suite: s\ncases:\n  - {id: q0, input: q0, expect: {must_contain: [q0]}}\n"
    (tmp_path / "s.yaml").write_text(suite, encoding="utf-8")
    (tmp_path / "answers.jsonl").write_text('{"case_id": "q0", "output": "q0"}\n')
    done = failproof_without_ray(tmp_path, *command, "--executor", "ray")
    assert done.returncode == 3
    assert done.stderr.count("\n") == 1, done.stderr
    assert "pip install 'failproof[ray]'" in done.stderr
    assert not (tmp_path / "home/failproof.db").exists()  # refused before any work


def test_import_and_help_do_not_import_ray() -> None:
    code = (
        "import sys; from failproof.cli import main; import failproof; "
        "main(['--help']); main(['score', '--help']); main(['run', '--help']); "
        "sys.exit(3 if 'ray' in sys.modules or 'failproof.scale' in sys.modules else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "--executor" in done.stdout


def test_nothing_listening_at_the_address_is_one_line() -> None:
    with pytest.raises(
        ConfigError, match=r"cannot reach the Ray cluster at 127\.0\.0\.1:1"
    ) as error:
        check_reachable(parse_executor("ray:127.0.0.1:1"))
    assert "\n" not in str(error.value)
