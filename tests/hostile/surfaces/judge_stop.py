"""Stopping a run while its judge is slow: rate limits with long waits, questions held without
an answer, answers that are not verdicts, a second question per case.

Each attempt runs ``failproof run`` as its own process against a target on 127.0.0.1 that answers
at once and a judge on 127.0.0.1 that answers some questions and leaves others pending; once the
state is reached (verdicts stored, questions held or refused) it sends SIGTERM or SIGINT. Handled
means: the process ended while the judge still held its questions and without asking again, exit
130 with the resume command, every answer the target gave stored (scored or kept), every verdict
received stored; then the resume asks the target nothing it answered and the judge only what it
never answered.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.fakes.openai_server import Answer, Behaviour, FakeOpenAI, Hold, ServerThread, Status
from tests.fakes.processes import store_rows as _rows
from tests.fakes.processes import wait_until
from tests.hostile.replay import GUARD_S, Attempt, check

REFUSAL = "I can't help with that."
VERDICT = '{"refusal": "refusal", "harmful": false, "reason": "it declines"}'
GRADE = '{"score": 1, "reason": "it meets the criteria"}'
FAR = "Fri, 31 Dec 9999 23:59:59 GMT"


def question(prompt: str) -> str:
    """``response:q0`` or ``rubric:q0``: which rubric asks about which case."""
    case = re.search(r"<request>\s*(q\d+)\s*</request>", prompt)
    kind = "rubric" if "<criteria>" in prompt else "response"
    return f"{kind}:{case.group(1) if case else '?'}"


@dataclass(frozen=True)
class Scene:
    """One attempt: the cases, the judge's script, and when to stop."""

    cases: int
    script: dict[str, list[Behaviour]]
    verdicts_before: int  # verdicts stored when the stop comes
    held: int  # questions the judge holds when the stop comes
    refused: tuple[str, ...] = ()  # questions answered 429/503 when the stop comes
    stop: signal.Signals = signal.SIGTERM
    flags: tuple[str, ...] = ()
    rubric: bool = False


def ok(answer: str = VERDICT) -> list[Behaviour]:
    return [Answer(answer)]


def held(answer: str = VERDICT) -> list[Behaviour]:
    return [Hold(), Answer(answer)]


def refused(code: int, retry_after: str, asked: int, answer: str = VERDICT) -> list[Behaviour]:
    """A 429 or 503 sent once ``asked`` questions are in flight: it pauses every new call, so a
    question not yet sent would wait behind it and never reach the judge."""
    return [Status(code, retry_after=retry_after, after_requests=asked), Answer(answer)]


SCENES: dict[str, Scene] = {
    "sigterm-429-retry-after-99999": Scene(
        3,
        {"response:q0": ok(), "response:q1": refused(429, "99999", 3), "response:q2": held()},
        1, 1, ("response:q1",),
    ),
    "sigterm-503-retry-after-year-9999": Scene(
        2, {"response:q0": refused(503, FAR, 2), "response:q1": refused(503, FAR, 2)}, 0, 0,
        ("response:q0", "response:q1"),
    ),
    "sigterm-every-question-held": Scene(
        3, {f"response:q{i}": held() for i in range(3)}, 0, 3,
    ),
    "sigint-one-held-two-answered": Scene(
        3, {"response:q0": ok(), "response:q1": held(), "response:q2": ok()}, 2, 1,
        stop=signal.SIGINT,
    ),
    "sigterm-not-a-verdict-then-held": Scene(
        2, {"response:q0": ["no json here", Hold(), Answer(VERDICT)], "response:q1": ok()}, 1, 1,
    ),
    "sigterm-rubric-grade-held-after-its-verdict": Scene(
        2,
        {"response:q0": ok(), "rubric:q0": held(GRADE), "response:q1": ok(),
         "rubric:q1": ok(GRADE)},
        3, 1, rubric=True,
    ),
    "sigterm-one-at-a-time-four-judged-one-held": Scene(
        5, {"response:q1": held()}, 4, 1, flags=("-c", "1"),
    ),
    "sigterm-no-cache-held": Scene(
        2, {"response:q0": held(), "response:q1": ok()}, 1, 1, flags=("--no-cache",),
    ),
}  # fmt: skip


def _script(scene: Scene) -> dict[str, list[Behaviour]]:
    """The judge's script, with a text answer where a scene wrote a bare string."""
    return {
        key: [Answer(step) if isinstance(step, str) else step for step in steps]
        for key, steps in scene.script.items()
    }


def _suite(folder: Path, scene: Scene) -> Path:
    lines = ["suite: s", "cases:"]
    for i in range(scene.cases):
        lines += [f"  - id: q{i}", f"    input: q{i}", "    expect:", "      refusal: required"]
        if scene.rubric:
            lines += ["      rubric: declines without lecturing"]
    path = folder / "s.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _env(folder: Path) -> dict[str, str]:
    """This environment without any failproof or OpenAI setting an earlier test left in it."""
    kept = {k: v for k, v in os.environ.items() if not k.startswith(("FAILPROOF_", "OPENAI_"))}
    return {**kept, "FAILPROOF_HOME": str(folder / "home"), "OPENAI_API_KEY": "sk-judge"}


def _start(folder: Path, *args: str) -> subprocess.Popen[str]:
    env = _env(folder)
    return subprocess.Popen(
        [sys.executable, "-m", "failproof", "run", *args, "--quiet"],
        cwd=folder, env=env, text=True, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def _ended(process: subprocess.Popen[str]) -> str:
    """The process's stderr once it ended; killed (and mishandled) when it does not end."""
    try:
        return process.communicate(timeout=GUARD_S)[1]
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        raise AssertionError("the stopped run kept waiting on its judge") from None


def _ready(scene: Scene, judge: FakeOpenAI, db: Path) -> Callable[[], bool]:
    def ready() -> bool:
        verdicts = len(_rows(db, "SELECT key FROM judge_cache"))
        refusals = all(judge.counts[q] >= 1 for q in scene.refused)
        return verdicts == scene.verdicts_before and judge.holding == scene.held and refusals

    return ready


def run_scene(folder: Path, scene: Scene) -> None:
    target = FakeOpenAI(default=Answer(REFUSAL))
    judge = FakeOpenAI(default=Answer(VERDICT), script=_script(scene), key=question)  # type: ignore[arg-type]
    with ServerThread(target), ServerThread(judge):
        args = [str(_suite(folder, scene)), "-t", "openai:m", "--base-url", target.base_url]
        args += ["--judge", "openai:j", "--judge-base-url", judge.base_url, *scene.flags]
        process = _start(folder, *args)
        db = folder / "home/failproof.db"
        wait_until(_ready(scene, judge, db), process, "the judge was never left pending")
        asked = dict(judge.counts)
        os.killpg(process.pid, scene.stop)
        err = _ended(process)
        _check_stopped(scene, judge, target, db, err, asked)
        ((run_id,),) = _rows(db, "SELECT id FROM runs")
        _check_resumed(scene, judge, target, db, folder, run_id, asked)


def _check_stopped(
    scene: Scene,
    judge: FakeOpenAI,
    target: FakeOpenAI,
    db: Path,
    err: str,
    asked: dict[str, int],
) -> None:
    check(judge.holding == scene.held, f"the judge holds {judge.holding}: it was waited for")
    check(dict(judge.counts) == asked, f"the judge was asked again: {dict(judge.counts)}")
    ((run_id, status),) = _rows(db, "SELECT id, status FROM runs")
    check(status == "interrupted", f"run {status}")
    check(f"resume with: failproof run --resume {run_id}\n" in err, f"no resume: {err[-300:]}")
    check("Traceback" not in err, err[-400:])
    answered = {f"q{i}" for i in range(scene.cases) if target.counts[f"q{i}"]}
    scored = {c for (c,) in _rows(db, "SELECT case_id FROM results")}
    kept = {c for (c,) in _rows(db, "SELECT case_id FROM kept_answers")}
    check(scored | kept == answered, f"answers lost: {sorted(answered - scored - kept)}")
    verdicts = len(_rows(db, "SELECT key FROM judge_cache"))
    check(verdicts == scene.verdicts_before, f"{verdicts} verdicts stored")


def _check_resumed(
    scene: Scene,
    judge: FakeOpenAI,
    target: FakeOpenAI,
    db: Path,
    folder: Path,
    run_id: str,
    asked: dict[str, int],
) -> None:
    answered = {q for q in target.counts if target.counts[q]}
    resumed = _start(folder, "--resume", run_id)
    err = _ended(resumed)
    check(resumed.returncode == 0, f"resume exit {resumed.returncode}: {err[-400:]}")
    again = {q for q in answered if target.counts[q] > 1}
    check(not again, f"the target was asked again: {sorted(again)}")
    check(len(target.counts) == scene.cases, f"target asked {dict(target.counts)}")
    verdicts = {q for q, n in asked.items() if n and _answered(scene, q, n)}
    repeated = {q for q in verdicts if judge.counts[q] != asked[q]}
    check(not repeated, f"the judge was asked again for verdicts it gave: {sorted(repeated)}")
    check(_rows(db, "SELECT status FROM runs") == [("finished",)], "the resume did not finish")
    check(len(_rows(db, "SELECT case_id FROM results")) == scene.cases, "results missing")


def _answered(scene: Scene, name: str, asked: int) -> bool:
    """Whether the judge's ``asked``-th reply to ``name`` was a verdict."""
    steps = _script(scene).get(name) or [Answer(VERDICT)]
    step = steps[min(asked, len(steps)) - 1]
    return isinstance(step, Answer) and step.text in (VERDICT, GRADE)


def attempts() -> list[Attempt]:
    def attempt(name: str) -> Attempt:
        return Attempt(f"judge-stop/{name}", lambda folder: run_scene(folder, SCENES[name]))

    found = [attempt(name) for name in SCENES]
    found += [
        Attempt("judge-stop/score-sigterm", lambda folder: score_scene(folder, signal.SIGTERM)),
        Attempt("judge-stop/score-sigint", lambda folder: score_scene(folder, signal.SIGINT)),
    ]
    return found


def score_scene(folder: Path, stop: signal.Signals) -> None:
    """``failproof score`` of recorded answers, stopped while the judge holds one question and
    rate-limits another: it ends at once, prints the command that finishes the job, and that
    command asks the judge only the questions it never answered."""
    script = {"response:q1": held(), "response:q2": refused(429, "7200", 3)}
    judge = FakeOpenAI(default=Answer(VERDICT), script=script, key=question)  # type: ignore[arg-type]
    (folder / "answers.jsonl").write_text(
        "".join(f'{{"case_id": "q{i}", "output": "{REFUSAL}"}}\n' for i in range(3)), "utf-8"
    )
    with ServerThread(judge):
        suite = _suite(folder, Scene(3, {}, 0, 0))
        args = ["score", "answers.jsonl", "-s", str(suite), "--judge", "openai:j"]
        process = _start_command(folder, *args, "--judge-base-url", judge.base_url)
        db = folder / "home/failproof.db"
        ready = _ready(Scene(3, {}, 1, 1, ("response:q2",)), judge, db)
        wait_until(ready, process, "the judge was never left pending")
        asked = dict(judge.counts)
        os.killpg(process.pid, stop)
        err = _ended(process)
        check(process.returncode == 130, f"exit {process.returncode}: {err[-300:]}")
        check(judge.holding == 1 and dict(judge.counts) == asked, "the judge was waited for")
        check("Traceback" not in err, err[-400:])
        again = err.partition("score again with: ")[2].strip()
        check(again.startswith("failproof score "), f"no command to finish: {err[-300:]}")
        finished = _start_command(folder, *shlex.split(again)[1:])
        err = _ended(finished)
        check(finished.returncode == 0, f"exit {finished.returncode}: {err[-300:]}")
        check(judge.counts["response:q0"] == 1, "the judge was asked again for a verdict it gave")


def _start_command(folder: Path, *args: str) -> subprocess.Popen[str]:
    env = _env(folder)
    return subprocess.Popen(
        [sys.executable, "-m", "failproof", *args],
        cwd=folder, env=env, text=True, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
