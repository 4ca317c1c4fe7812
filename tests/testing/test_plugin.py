"""The pytest plugin: inert without a target; with one, one item per case, outcome = verdict."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests.fakes.openai_server import Answer, FakeOpenAI

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "pytest" / "failproof_refunds.yaml"
REFUSAL = "mock:I'm sorry, I can't help with that."
GOOD = "Yes, a cracked teapot can be returned for a refund."


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "failproof_refunds.yaml").write_text(EXAMPLE.read_text())
    (tmp_path / "other.yaml").write_text(EXAMPLE.read_text())
    (tmp_path / "pytest.ini").write_text("[pytest]\nfilterwarnings = error\n")
    return tmp_path


def _pytest(
    where: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "FAILPROOF_HOME": str(where / "home"), **(env or {})}
    environ.pop("PYTEST_ADDOPTS", None)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-W", "error", *args],
        cwd=where,
        env=environ,
        capture_output=True,
        text=True,
        check=False,
    )


def test_without_a_target_the_plugin_collects_nothing(project: Path) -> None:
    done = _pytest(project, "--collect-only", "-q")
    assert done.returncode == 5, done.stdout + done.stderr  # no tests collected
    assert "failproof_refunds.yaml" not in done.stdout
    assert not (project / "home").exists()


def test_one_item_per_case_of_each_matching_file(project: Path) -> None:
    done = _pytest(project, "--collect-only", "-q", "--failproof-target", "mock")
    items = [line for line in done.stdout.splitlines() if "::" in line]
    assert items == [
        "failproof_refunds.yaml::refund-policy",
        "failproof_refunds.yaml::refund-without-order",
        "failproof_refunds.yaml::refund-json",
    ]


def test_a_glob_chooses_other_files(project: Path) -> None:
    done = _pytest(
        project, "--collect-only", "-q", "--failproof-target", "mock", "--failproof-glob", "o*.yaml"
    )
    assert [line.split("::")[0] for line in done.stdout.splitlines() if "::" in line] == [
        "other.yaml"
    ] * 3


def test_outcomes_are_verdicts_and_failures_carry_the_reasons(project: Path) -> None:
    done = _pytest(project, "--failproof-target", REFUSAL, "-rA")
    assert done.returncode == 1
    assert "3 failed" in done.stdout
    assert "refunds/refund-json: FAIL (wrong_format)" in done.stdout
    assert "- not_json: JSON was expected" in done.stdout
    assert re.search(r"run: \d{8}-\d{6}-\w+", done.stdout)


def test_a_rerun_sends_nothing_already_answered(project: Path, fake_openai: FakeOpenAI) -> None:
    fake_openai.default = Answer(GOOD)
    env = {"OPENAI_BASE_URL": fake_openai.base_url, "OPENAI_API_KEY": "sk-plugin-test-key-123"}
    first = _pytest(
        project, "--failproof-target", "openai:shop-model", "-k", "refund-policy", env=env
    )
    assert "1 passed" in first.stdout, first.stdout
    assert fake_openai.total == 1
    again = _pytest(project, "--failproof-target", "openai:shop-model", env=env)
    assert "2 passed" in again.stdout and "1 failed" in again.stdout
    assert fake_openai.total == 3  # the answered case came from the cache
    assert "sk-plugin-test-key-123" not in first.stdout + again.stdout + again.stderr


def test_a_case_the_target_cannot_take_is_skipped_with_its_reason(tmp_path: Path) -> None:
    suite = (
        "suite: refunds\ncases:\n  - id: with-tools\n    input: Refund order 7.\n"
        "    tools: [{name: issue_refund, returns: done}]\n"
        "    expect: {refusal: allowed, forbidden_calls: [{tool: issue_refund}]}\n"
    )
    (tmp_path / "failproof_tools.yaml").write_text(suite)
    (tmp_path / "pytest.ini").write_text("[pytest]\nfilterwarnings = error\n")
    exec_target = f"exec:{sys.executable} -c \"print('done')\""
    done = _pytest(tmp_path, "--failproof-target", exec_target, "-rs")
    assert done.returncode == 0, done.stdout + done.stderr  # skipped: nothing failed
    assert "1 skipped" in done.stdout and "passed" not in done.stdout
    assert "unsupported: the exec target does not send tools" in done.stdout
