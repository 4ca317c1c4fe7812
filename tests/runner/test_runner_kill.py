"""Nothing lost: the runner killed with SIGKILL (or stopped with Ctrl-C) mid-run, then resumed."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from tests.fakes.openai_server import Answer, FakeOpenAI
from tests.fakes.processes import kill_hard, wait_until
from tests.runner.helpers import numbered_cases, write_suite

from failproof.store import Store

N = 16


def ignore_sigint() -> None:
    """What a shell does to a command it starts in the background (``cmd &``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def start(
    fake: FakeOpenAI, tmp_path: Path, *args: str, sigint_ignored: bool = False
) -> subprocess.Popen[str]:
    env = {**os.environ, "FAILPROOF_HOME": str(tmp_path / "home")}
    env.pop("OPENAI_BASE_URL", None)
    return subprocess.Popen(
        [sys.executable, "-m", "failproof", "run", *args, "--quiet", "--format", "json"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, like a command in a terminal
        preexec_fn=ignore_sigint if sigint_ignored else None,
    )


def stored(tmp_path: Path) -> list[tuple[str, str]]:
    """(run_id, case_id) of every stored result, read the way another process would."""
    db = tmp_path / "home/failproof.db"
    if not db.exists():
        return []
    with closing(sqlite3.connect(db, timeout=5)) as conn:
        try:
            return list(conn.execute("SELECT run_id, case_id FROM results"))
        except sqlite3.OperationalError:  # tables not created yet
            return []


def wait_for_results(tmp_path: Path, count: int, process: subprocess.Popen[str]) -> None:
    wait_until(lambda: len(stored(tmp_path)) >= count, process, "the run stored nothing")


def begin(
    fake: FakeOpenAI, tmp_path: Path, concurrency: int = 2, sigint_ignored: bool = False
) -> subprocess.Popen[str]:
    fake.default = Answer(delay_s=0.15 * concurrency / 2)
    path = write_suite(tmp_path / "s.yaml", "s", numbered_cases(N * concurrency // 2))
    args = [str(path), "--target", "openai:m", "--base-url", fake.base_url]
    args += ["-c", str(concurrency)]
    process = start(fake, tmp_path, *args, sigint_ignored=sigint_ignored)
    wait_for_results(tmp_path, 4, process)
    return process


def resume(fake: FakeOpenAI, tmp_path: Path, run_id: str) -> subprocess.CompletedProcess[str]:
    process = start(fake, tmp_path, "--resume", run_id)
    out, err = process.communicate(timeout=120)
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


@pytest.mark.slow
def test_sigkill_mid_run_then_resume_calls_no_finished_case_again(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    process = begin(fake_openai, tmp_path)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=10)
    finished_before = {case for _, case in stored(tmp_path)}
    run_id = stored(tmp_path)[0][0]
    assert 4 <= len(finished_before) < N
    assert all(fake_openai.counts[case] == 1 for case in finished_before)

    done = resume(fake_openai, tmp_path, run_id)
    assert done.returncode == 0, done.stderr

    rows = stored(tmp_path)
    assert sorted(case for _, case in rows) == sorted(f"q{i}" for i in range(N))  # one each
    assert all(fake_openai.counts[case] == 1 for case in finished_before)
    assert set(fake_openai.counts) == {f"q{i}" for i in range(N)}
    with Store(tmp_path / "home/failproof.db") as store:
        assert store.get_run(run_id).status == "finished"


def stored_turns(tmp_path: Path) -> list[tuple[str, int]]:
    if not (tmp_path / "home/failproof.db").exists():
        return []
    with closing(sqlite3.connect(tmp_path / "home/failproof.db", timeout=5)) as conn:
        try:
            return list(conn.execute("SELECT case_id, turn FROM turn_results"))
        except sqlite3.OperationalError:  # tables not created yet
            return []


def conversation_cases(n: int, turns: int) -> list[dict[str, object]]:
    """Conversations whose every message is unique, so the server counts each turn's call."""
    return [
        {
            "id": f"c{i}",
            "input": f"c{i} t0",
            "turns": [f"c{i} t{k}" for k in range(1, turns)],
            "expect": {"refusal": "allowed"},
        }
        for i in range(n)
    ]


@pytest.mark.slow
def test_sigkill_mid_conversation_then_resume_sends_no_finished_turn_again(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.default = Answer(delay_s=0.1)
    path = write_suite(tmp_path / "c.yaml", "c", conversation_cases(6, 4))
    args = [str(path), "--target", "openai:m", "--base-url", fake_openai.base_url, "-c", "2"]
    process = start(fake_openai, tmp_path, *args)
    wait_until(lambda: len(stored_turns(tmp_path)) >= 5, process, "the run stored no turn")
    kill_hard(process)
    finished = {f"{case} t{turn}" for case, turn in stored_turns(tmp_path)}
    assert 5 <= len(finished) < 24

    with closing(sqlite3.connect(tmp_path / "home/failproof.db")) as conn:
        (run_id,) = conn.execute("SELECT id FROM runs").fetchone()
    done = resume(fake_openai, tmp_path, run_id)
    assert done.returncode == 0, done.stderr

    every = {f"c{i} t{k}" for i in range(6) for k in range(4)}
    assert set(fake_openai.counts) == every
    assert all(fake_openai.counts[message] == 1 for message in finished)
    assert len(stored(tmp_path)) == 6
    assert len(stored_turns(tmp_path)) == 24


@pytest.mark.slow
@pytest.mark.parametrize(
    "concurrency",
    [
        pytest.param(2, id="scoring-in-the-runner"),
        pytest.param(16, id="scoring-in-worker-processes"),
    ],
)
@pytest.mark.parametrize(
    "sigint_ignored",
    [
        pytest.param(False, id="from-a-terminal"),
        pytest.param(True, id="started-in-the-background"),
    ],
)
def test_ctrl_c_stops_cleanly_and_prints_the_resume_command(
    fake_openai: FakeOpenAI, tmp_path: Path, concurrency: int, sigint_ignored: bool
) -> None:
    process = begin(fake_openai, tmp_path, concurrency, sigint_ignored)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole process group
    _, err = process.communicate(timeout=30)
    run_id = stored(tmp_path)[0][0]
    assert process.returncode == 130
    assert f"failproof run --resume {run_id}" in err
    assert "Traceback" not in err
    with Store(tmp_path / "home/failproof.db") as store:
        assert store.get_run(run_id).status == "interrupted"
    assert resume(fake_openai, tmp_path, run_id).returncode == 0
    assert len(stored(tmp_path)) == N * concurrency // 2
