"""Judge answers are stored as they arrive: a run killed with SIGKILL, then resumed, asks the
judge nothing it had answered."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from tests.fakes.openai_server import Answer, FakeOpenAI
from tests.fakes.processes import kill_hard, wait_until
from tests.judge.helpers import asked_about, verdict
from tests.runner.helpers import numbered_cases, write_suite
from tests.runner.test_runner_kill import resume, start

N = 16


def cached_questions(tmp_path: Path) -> set[str]:
    """The judge questions whose answers are in the store, read as another process would."""
    db = tmp_path / "home/failproof.db"
    if not db.exists():
        return set()
    with closing(sqlite3.connect(db, timeout=5)) as conn:
        try:
            rows = list(conn.execute("SELECT answer_json FROM judge_cache"))
        except sqlite3.OperationalError:  # tables not created yet
            return set()
    return {json.loads(answer)["prompt"][-1]["content"] for (answer,) in rows}


@pytest.mark.slow
def test_sigkill_mid_run_then_resume_asks_the_judge_nothing_it_answered(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    questions = [asked_about(f"q{i}", f"q{i}") for i in range(N)]  # the target echoes
    for question in questions:
        fake_openai.script[question] = [Answer(verdict("compliance"), delay_s=0.15)]
    path = write_suite(tmp_path / "s.yaml", "s", numbered_cases(N))
    judge = ["--judge", "openai:judge-m", "--judge-base-url", fake_openai.base_url]
    args = [str(path), "--target", "openai:m", "--base-url", fake_openai.base_url, *judge]
    process = start(fake_openai, tmp_path, *args, "-c", "2")
    wait_until(lambda: len(cached_questions(tmp_path)) >= 4, process, "no judge answer stored")
    kill_hard(process)
    answered = cached_questions(tmp_path)
    assert 4 <= len(answered) < N
    with closing(sqlite3.connect(tmp_path / "home/failproof.db")) as conn:
        (run_id,) = conn.execute("SELECT id FROM runs").fetchone()

    done = resume(fake_openai, tmp_path, run_id)
    assert done.returncode == 0, done.stderr
    assert all(fake_openai.counts[q] == 1 for q in answered)
    assert all(fake_openai.counts[q] >= 1 for q in questions)
