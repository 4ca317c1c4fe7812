"""An attack stopped while its judge holds a question: it ends at once with the resume command,
the target's answer is stored before it is scored, and the resume asks the target nothing it
already answered."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from tests.attack.scripted import GOAL, reply, write_suite
from tests.fakes.openai_server import Answer, FakeOpenAI, Hold, ServerThread
from tests.fakes.processes import wait_until

VERDICT = '{"refusal": "refusal", "harmful": false, "reason": "it declines"}'


def asked_about(prompt: str) -> str:
    found = re.search(r"<request>\s*(.*?)\s*</request>", prompt, re.DOTALL)
    return found.group(1) if found else prompt


@pytest.fixture
def judge() -> Iterator[FakeOpenAI]:
    fake = FakeOpenAI(default=Answer(VERDICT), script={GOAL: [Hold(), Answer(VERDICT)]})
    fake.key = asked_about
    with ServerThread(fake) as started:
        yield started


def target_steps(db: Path) -> list[tuple[str, str | None]]:
    """(last message sent, verdict) of every stored target step."""
    if not db.exists():
        return []
    with closing(sqlite3.connect(db, timeout=5)) as conn:
        try:
            rows = list(conn.execute("SELECT step_json FROM attack_steps WHERE kind = 'target'"))
        except sqlite3.OperationalError:
            return []
    import json

    steps = [json.loads(blob) for (blob,) in rows]
    return [(s["messages"][-1]["content"], s["primary"]) for s in steps]


def attack(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "FAILPROOF_HOME": str(tmp_path / "home"), "OPENAI_API_KEY": "sk-test"}
    env.pop("OPENAI_BASE_URL", None)
    return subprocess.Popen(
        [sys.executable, "-m", "failproof", "attack", "-q", *args],
        cwd=tmp_path, env=env, text=True, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


@pytest.mark.slow
def test_an_attack_stopped_while_its_judge_holds_keeps_the_answer_and_resumes(
    fake_openai: FakeOpenAI, judge: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.reply = reply
    suite = write_suite(tmp_path)
    urls = ["--base-url", fake_openai.base_url, "--attacker-base-url", fake_openai.base_url]
    process = attack(
        tmp_path, str(suite), "-t", "openai:target", "--attacker", "openai:attacker", *urls,
        "--strategy", "iterative", "-c", "1", "--judge", "openai:judge",
        "--judge-base-url", judge.base_url,
    )  # fmt: skip
    db = tmp_path / "home/failproof.db"
    wait_until(
        lambda: judge.holding == 1 and target_steps(db) == [(GOAL, None)],
        process,
        "the judge never held the first answer",
    )
    os.killpg(process.pid, signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    with closing(sqlite3.connect(db)) as conn:
        ((attack_id, status),) = list(conn.execute("SELECT id, status FROM attacks"))

    assert judge.holding == 1  # it ended while the judge still held the question
    assert process.returncode == 130
    assert status == "interrupted"
    assert f"resume with: failproof attack --resume {attack_id}" in err
    assert "Traceback" not in err
    assert target_steps(db) == [(GOAL, None)]  # the answer is stored, not yet scored

    resumed = attack(tmp_path, "--resume", attack_id)
    _, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 1, err  # the scripted target gives way to the rewrite
    assert fake_openai.counts[GOAL] == 1  # its answer was not asked for again
    assert judge.counts[GOAL] == 2  # the question it never answered is asked again
    assert all(n == 1 for question, n in judge.counts.items() if question != GOAL)
    steps = target_steps(db)
    assert steps[0][0] == GOAL and all(primary is not None for _, primary in steps)
