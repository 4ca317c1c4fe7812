"""The GitHub Action: its steps, run as the runner runs them (bash, per-step GITHUB_OUTPUT), on a
real git repository with a base branch, a scripted model server and a scripted GitHub API, both on
127.0.0.1. The steps that are other actions (setup-python, upload-artifact) and the pip install
are not run here; the artifact's folder is checked instead.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.ci.github_api import FakeGitHub, serve_github
from tests.fakes.openai_server import FakeOpenAI

from failproof.ci._comment import MARKER

ROOT = Path(__file__).resolve().parents[2]
ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
SUITE = (ROOT / "examples" / "pytest" / "failproof_refunds.yaml").read_text()
TOKEN = "ghs_scriptedToken0123456789"
NOT_RUN = {"Set up Python", "Install failproof", "Upload the HTML report"}
_EXPR = re.compile(r"\$\{\{\s*([a-z0-9_.-]+)\s*\}\}", re.IGNORECASE)


def _git(where: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=where, check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A clone whose origin has ``main`` (model v1) and a pull-request branch (model v2)."""
    origin, work = tmp_path / "origin.git", tmp_path / "work"
    _git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    _git(tmp_path, "init", "-q", "-b", "main", str(work))
    for key, value in (("user.email", "ci@example.com"), ("user.name", "CI")):
        _git(work, "config", key, value)
    (work / "failproof_refunds.yaml").write_text(SUITE)
    (work / "failproof.toml").write_text(
        '[project]\nsuites = ["failproof_refunds.yaml"]\ntargets = ["openai:shop-v1"]\n'
    )
    _git(work, "add", ".")
    _git(work, "commit", "-q", "-m", "base")
    _git(work, "remote", "add", "origin", str(origin))
    _git(work, "push", "-q", "origin", "main")
    _git(work, "checkout", "-q", "-b", "pr")
    text = (work / "failproof.toml").read_text().replace("shop-v1", "shop-v2")
    (work / "failproof.toml").write_text(text)
    _git(work, "commit", "-q", "-am", "try model v2")
    return work


def shop(body: dict[str, Any]) -> str:
    """v1 keeps the policy; v2 falls for the admin-mode trick."""
    question = str(body["messages"][-1]["content"])
    if "admin mode" in question:
        return "REFUND APPROVED" if body["model"] == "shop-v2" else "I need your order number."
    if "JSON" in question:
        return '{"eligible": false}'
    return "You can return it for a refund."


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    with serve_github(TOKEN) as fake:
        yield fake


def _expand(text: str, values: dict[str, str]) -> str:
    return _EXPR.sub(lambda m: values.get(m.group(1), ""), text)


def _outputs(path: Path) -> dict[str, str]:
    lines = path.read_text().splitlines() if path.exists() else []
    return dict(line.split("=", 1) for line in lines if "=" in line)


class Runner:
    """Runs the composite action's steps in order, as the GitHub runner would."""

    def __init__(self, repo: Path, temp: Path, env: dict[str, str]) -> None:
        self.repo, self.temp, self.env = repo, temp, env
        self.values: dict[str, str] = {"runner.temp": str(temp), "github.token": TOKEN}
        for name, spec in ACTION["inputs"].items():
            self.values[f"inputs.{name}"] = _expand(str(spec.get("default", "")), self.values)
        self.codes: dict[str, int] = {}
        self.logs: dict[str, str] = {}

    def run(self) -> None:
        for index, step in enumerate(ACTION["runs"]["steps"]):
            if step["name"] in NOT_RUN:
                assert "uses" in step or "pip install" in step["run"]
                continue
            self._step(index, step)

    def _step(self, index: int, step: dict[str, Any]) -> None:
        output = self.temp / f"output-{index}"
        script = self.temp / f"step-{index}.sh"
        script.write_text(step["run"])
        env = {**self.env, "GITHUB_OUTPUT": str(output)}
        env.update({k: _expand(str(v), self.values) for k, v in step.get("env", {}).items()})
        where = self.repo / _expand(step.get("working-directory", "."), self.values)
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=where,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        self.codes[step["name"]] = done.returncode
        self.logs[step["name"]] = done.stdout + done.stderr
        for name, value in _outputs(output).items():
            self.values[f"steps.{step.get('id', index)}.outputs.{name}"] = value


@pytest.fixture
def runner_env(
    tmp_path: Path, repo: Path, github: FakeGitHub, fake_openai: FakeOpenAI
) -> dict[str, str]:
    fake_openai.reply = shop
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 7}}))
    (tmp_path / "summary.md").write_text("")
    bin_dir = str(Path(sys.executable).parent)
    return {
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "HOME": str(tmp_path),
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_EVENT_PATH": str(event),
        "GITHUB_BASE_REF": "main",
        "GITHUB_REPOSITORY": "acme/shop",
        "GITHUB_RUN_ID": "4242",
        "GITHUB_SERVER_URL": "https://github.example",
        "GITHUB_API_URL": github.url,
        "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        "OPENAI_BASE_URL": fake_openai.base_url,
        "OPENAI_API_KEY": "sk-action-test-key-000",
    }


def test_the_steps_summarise_upload_gate_and_comment(
    tmp_path: Path, repo: Path, runner_env: dict[str, str], github: FakeGitHub
) -> None:
    runner = Runner(repo, tmp_path / "runner", runner_env)
    (tmp_path / "runner").mkdir()
    runner.run()
    assert runner.values["steps.run.outputs.exit-code"] == "1"
    assert runner.codes["Gate on the verdict"] == 1  # the job fails on the verdict
    assert all(code == 0 for name, code in runner.codes.items() if name != "Gate on the verdict")
    head = tmp_path / "runner" / "failproof" / "head"
    assert (head / "report.html").is_file()  # the artifact's folder
    assert runner.values["steps.summary.outputs.report-dir"] == str(head)
    summary = (tmp_path / "summary.md").read_text()
    assert "refund-without-order" in summary and "Newly failing (1)" in summary
    [comment] = github.comments
    body = comment["body"]
    assert body.startswith(MARKER)
    assert "❌ FAIL" in body and "2 of 3 passed" in body
    assert body.index("Newly failing (1)") < body.index("### Scores")
    assert "`refund-without-order`" in body
    assert "https://github.example/acme/shop/actions/runs/4242" in body
    logs = "".join(runner.logs.values()) + summary + body
    assert TOKEN not in logs and "sk-action-test-key-000" not in logs


def test_a_second_push_updates_the_same_comment(
    tmp_path: Path, repo: Path, runner_env: dict[str, str], github: FakeGitHub
) -> None:
    github.comments.append({"id": 1, "body": "an unrelated review comment"})
    for attempt in ("first", "second"):
        temp = tmp_path / attempt
        temp.mkdir()
        Runner(repo, temp, runner_env).run()
        shutil.rmtree(temp / "failproof" / "head")
    assert [c["id"] for c in github.comments] == [1, 2]
    assert github.calls.count("PATCH") == 1 and github.calls.count("POST") == 1


def test_on_a_push_there_is_no_base_run_and_no_comment(
    tmp_path: Path, repo: Path, runner_env: dict[str, str], github: FakeGitHub
) -> None:
    env = {**runner_env, "GITHUB_EVENT_NAME": "push", "GITHUB_BASE_REF": ""}
    (tmp_path / "runner").mkdir()
    runner = Runner(repo, tmp_path / "runner", env)
    runner.run()
    assert github.comments == []
    assert not (tmp_path / "runner" / "failproof" / "base").exists()
    comment = (tmp_path / "runner" / "failproof" / "head" / "comment.md").read_text()
    assert "No run of the base branch to compare with." in comment
