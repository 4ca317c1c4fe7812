"""A run stopped while its judge is slow: it stops at once, keeps every answer and verdict it
received, and its resume asks the target nothing and the judge only what it never answered.

Real processes: ``failproof run`` against a target on 127.0.0.1 that answers at once and a judge
on 127.0.0.1 that answers two questions, rate-limits the third with a long ``Retry-After`` and
holds the fourth without answering.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.fakes.openai_server import Answer, FakeOpenAI, Hold, ServerThread, Status
from tests.fakes.processes import store_rows as rows
from tests.fakes.processes import wait_until
from tests.runner.helpers import write_suite

REFUSAL = "I can't help with that."
VERDICT = '{"refusal": "refusal", "harmful": false, "reason": "it declines"}'


def asked_about(prompt: str) -> str:
    """The judge's question, named by the request it is about (``q0`` ... ``q3``)."""
    found = re.search(r"<request>\s*(q\d+)\s*</request>", prompt)
    return found.group(1) if found else prompt


@pytest.fixture
def target() -> Iterator[FakeOpenAI]:
    with ServerThread(FakeOpenAI(default=Answer(REFUSAL))) as fake:
        yield fake


@pytest.fixture
def judge() -> Iterator[FakeOpenAI]:
    script = {
        "q0": [Answer(VERDICT)],
        "q1": [Answer(VERDICT)],
        # a long wait, then an answer; sent once all four questions are in flight, since a 429
        # pauses every new call and a question not yet sent would wait behind it
        "q2": [Status(429, retry_after="3600", after_requests=4), Answer(VERDICT)],
        "q3": [Hold(), Answer(VERDICT)],  # never answers the first time
    }
    with ServerThread(FakeOpenAI(script=script, key=asked_about)) as fake:  # type: ignore[arg-type]
        yield fake


def start(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "FAILPROOF_HOME": str(tmp_path / "home"), "OPENAI_API_KEY": "sk-test"}
    env.pop("OPENAI_BASE_URL", None)
    return subprocess.Popen(
        [sys.executable, "-m", "failproof", "run", *args, "--quiet"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def begin(tmp_path: Path, target: FakeOpenAI, judge: FakeOpenAI) -> subprocess.Popen[str]:
    """A run of four refusal cases, waited on until the judge has answered two questions,
    refused the third (429) and holds the fourth."""
    cases = [{"id": f"q{i}", "input": f"q{i}", "expect": {"refusal": "required"}} for i in range(4)]
    suite = write_suite(tmp_path / "s.yaml", "s", cases)
    flags = ["--judge", "openai:judge", "--judge-base-url", judge.base_url]
    process = start(
        tmp_path, str(suite), "-t", "openai:m", "--base-url", target.base_url, "-c", "4", *flags
    )
    db = tmp_path / "home/failproof.db"

    def waiting_on_the_judge() -> bool:
        verdicts = rows(db, "SELECT key FROM judge_cache")
        return len(verdicts) == 2 and judge.counts["q2"] == 1 and judge.holding == 1

    wait_until(waiting_on_the_judge, process, "the judge was never left pending")
    return process


STOPS = [
    pytest.param(signal.SIGTERM, id="sigterm"),
    pytest.param(signal.SIGINT, id="ctrl-c"),
]


@pytest.mark.slow
@pytest.mark.parametrize("stop", STOPS)
def test_a_stop_with_judge_calls_pending_ends_at_once_and_keeps_every_answer(
    tmp_path: Path, target: FakeOpenAI, judge: FakeOpenAI, stop: signal.Signals
) -> None:
    process = begin(tmp_path, target, judge)
    os.killpg(process.pid, stop)
    try:
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:  # still waiting on the judge: the test fails, the run goes
            os.killpg(process.pid, signal.SIGKILL)
    db = tmp_path / "home/failproof.db"
    ((run_id, status),) = rows(db, "SELECT id, status FROM runs")

    assert judge.holding == 1  # the process ended while the judge still held its question
    assert judge.counts["q2"] == 1  # and without waiting out the Retry-After to ask again
    assert process.returncode == 130
    assert status == "interrupted"
    assert "kept to be scored on resume" in err
    assert f"resume with: failproof run --resume {run_id}\n" in err
    assert "Traceback" not in err
    scored = {c for (c,) in rows(db, "SELECT case_id FROM results")}
    kept = {c for (c,) in rows(db, "SELECT case_id FROM kept_answers")}
    assert scored | kept == {"q0", "q1", "q2", "q3"}  # every answer the target gave
    assert {"q2", "q3"} <= kept  # the two the judge never answered
    assert len(rows(db, "SELECT key FROM judge_cache")) == 2  # every verdict received

    resumed = start(tmp_path, "--resume", run_id)
    _, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, err
    assert all(target.counts[f"q{i}"] == 1 for i in range(4))  # the target was not asked again
    assert dict(judge.counts) == {"q0": 1, "q1": 1, "q2": 2, "q3": 2}  # only what was missing
    assert sorted(c for (c,) in rows(db, "SELECT case_id FROM results")) == [
        "q0",
        "q1",
        "q2",
        "q3",
    ]
    assert rows(db, "SELECT case_id FROM kept_answers") == []
    assert rows(db, "SELECT status FROM runs") == [("finished",)]


def score(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "FAILPROOF_HOME": str(tmp_path / "home"), "OPENAI_API_KEY": "sk-test"}
    return subprocess.Popen(
        [sys.executable, "-m", "failproof", *args],
        cwd=tmp_path, env=env, text=True, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


@pytest.mark.slow
def test_scoring_stopped_while_the_judge_holds_prints_the_command_that_finishes_it(
    tmp_path: Path, judge: FakeOpenAI
) -> None:
    cases = [{"id": f"q{i}", "input": f"q{i}", "expect": {"refusal": "required"}} for i in range(4)]
    write_suite(tmp_path / "s.yaml", "s", cases)
    answers = "".join(json.dumps({"case_id": f"q{i}", "output": REFUSAL}) + "\n" for i in range(4))
    (tmp_path / "answers.jsonl").write_text(answers, encoding="utf-8")
    flags = ["--judge", "openai:judge", "--judge-base-url", judge.base_url]
    process = score(tmp_path, "score", "answers.jsonl", "-s", "s.yaml", *flags)
    db = tmp_path / "home/failproof.db"
    wait_until(
        lambda: (
            len(rows(db, "SELECT key FROM judge_cache")) == 2
            and judge.counts["q2"] == 1
            and judge.holding == 1
        ),
        process,
        "the judge was never left pending",
    )
    os.killpg(process.pid, signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)

    assert judge.holding == 1
    assert process.returncode == 130
    assert rows(db, "SELECT status FROM runs") == [("interrupted",)]
    assert "Traceback" not in err
    again = err.split("score again with: ", 1)[1].strip()
    assert shlex.split(again) == ["failproof", "score", "answers.jsonl", "-s", "s.yaml", *flags]
    assert len(rows(db, "SELECT key FROM judge_cache")) == 2  # every verdict received

    finished = score(tmp_path, *shlex.split(again)[1:])
    _, err = finished.communicate(timeout=120)
    assert finished.returncode == 0, err
    assert dict(judge.counts) == {"q0": 1, "q1": 1, "q2": 2, "q3": 2}  # only what was missing
    assert len(rows(db, "SELECT key FROM judge_cache")) == 4
