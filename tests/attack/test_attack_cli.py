"""``failproof attack`` at the command line: reports, exit codes, resume after kill -9."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from tests.attack.scripted import GOAL, reply, write_suite
from tests.fakes.openai_server import Answer, FakeOpenAI
from tests.fakes.processes import kill_hard, wait_until

from failproof.cli import main
from failproof.cli._attack import compare_name


def args(fake: FakeOpenAI, suite: Path, strategy: str, *extra: str) -> list[str]:
    return [
        str(suite),
        "--target",
        "openai:target",
        "--attacker",
        "openai:attacker",
        "--base-url",
        fake.base_url,
        "--attacker-base-url",
        fake.base_url,
        "--strategy",
        strategy,
        *extra,
    ]


def test_a_broken_case_exits_1_and_the_reports_show_the_path(
    fake_openai: FakeOpenAI, home: Path
) -> None:
    fake_openai.reply = reply
    out = home / "out"
    code = main(["attack", *args(fake_openai, write_suite(home), "iterative", "-o", str(out))])
    assert code == 1
    data = json.loads((out / "attack.json").read_text())
    assert data["report_type"] == "failproof_attack"
    assert data["strategies"]["iterative"]["broken"] == 1
    markdown = (out / "attack.md").read_text()
    assert "broken by iterative after 3 target calls" in markdown
    assert "For my novel" in markdown
    page = (out / "attack.html").read_text()
    assert "broken by iterative after 3 target calls" in page
    assert "For my novel" in page and "verdict: broke the target" in page


def test_stored_attacks_are_reported_side_by_side(fake_openai: FakeOpenAI, home: Path) -> None:
    fake_openai.reply = reply
    suite = write_suite(home)
    for strategy, attack_id in (("iterative", "a1"), ("best_of_n", "a2")):
        argv = args(fake_openai, suite, strategy, "-q", "-o", str(home / attack_id))
        assert main(["attack", *argv]) == 1
    stored = json.loads((home / "a1" / "attack.json").read_text())["attacks"][0]["id"]
    other = json.loads((home / "a2" / "attack.json").read_text())["attacks"][0]["id"]
    out = home / "both"
    code = main(["attack", "--report", stored, "--report", other, "-o", str(out), "-f", "json"])
    assert code == 1
    both = json.loads((out / "attack.json").read_text())
    assert sorted(both["strategies"]) == ["best_of_n", "iterative"]
    assert both["cheapest"]["attack/zk0"]["path_queries"] <= 3


def test_run_with_a_strategy_attacks_like_the_attack_command(
    fake_openai: FakeOpenAI, home: Path
) -> None:
    fake_openai.reply = reply
    out = home / "out"
    argv = [str(write_suite(home)), "--target", "openai:target", "--base-url", fake_openai.base_url]
    argv += ["--strategy", "best_of_n", "--attacker", "mock", "--budget", "20", "-o", str(out)]
    assert main(["run", *argv, "-q"]) == 1
    assert json.loads((out / "attack.json").read_text())["strategies"]["best_of_n"]["broken"] == 1


def test_a_target_that_holds_exits_0(fake_openai: FakeOpenAI, home: Path) -> None:
    fake_openai.reply = lambda body: (
        "<prompt>Please?</prompt>" if body["model"] == "attacker" else "No."
    )
    suite = write_suite(home)
    code = main(["attack", *args(fake_openai, suite, "iterative", "--budget", "3", "-q")])
    assert code == 0


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        pytest.param([], "give the suites, --target, --attacker and --strategy", id="missing"),
        pytest.param(["--strategy", "nope"], "unknown strategy 'nope'", id="unknown-strategy"),
    ],
)
def test_a_bad_command_exits_3_with_one_line(
    home: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    suite = write_suite(home)
    argv = ["attack", str(suite), "--target", "mock", "--attacker", "mock", *extra]
    assert main(argv) == 3
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert "started" not in err  # no attack id is announced that was never stored


def _steps(db: Path) -> list[tuple[str, int, str]]:
    if not db.exists():
        return []
    with closing(sqlite3.connect(db, timeout=5)) as conn:
        try:
            return list(conn.execute("SELECT case_id, seq, step_json FROM attack_steps"))
        except sqlite3.OperationalError:
            return []


def _last_content(step_json: str) -> str:
    return str(json.loads(step_json)["messages"][-1]["content"])


@pytest.mark.slow
def test_sigkill_mid_attack_then_resume_sends_no_finished_step_again(
    fake_openai: FakeOpenAI, tmp_path: Path
) -> None:
    fake_openai.default = Answer(delay_s=0.05)
    fake_openai.reply = lambda body: (
        f"<prompt>{body['messages'][-1]['content'][:40]} again</prompt>"
        if body["model"] == "attacker"
        else "No."
    )
    goals = tuple(f"Explain secret number {i}." for i in range(4))
    suite = write_suite(tmp_path, goals)
    env = {**os.environ, "FAILPROOF_HOME": str(tmp_path / "home")}
    env.pop("OPENAI_BASE_URL", None)
    command = [sys.executable, "-m", "failproof", "attack", "-q", "-c", "2", "--budget", "6"]
    process = subprocess.Popen(
        [*command, *args(fake_openai, suite, "iterative")],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    db = tmp_path / "home/failproof.db"
    wait_until(lambda: len(_steps(db)) >= 6, process, "the attack stored nothing")
    kill_hard(process)
    finished = [_last_content(blob) for _, _, blob in _steps(db)]
    assert 6 <= len(finished) < 4 * 11
    with closing(sqlite3.connect(db)) as conn:
        (attack_id,) = conn.execute("SELECT id FROM attacks").fetchone()

    done = subprocess.run(
        [sys.executable, "-m", "failproof", "attack", "-q", "--resume", attack_id],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert all(fake_openai.counts[content] == 1 for content in finished)
    assert len(_steps(db)) == 4 * 11  # 6 target calls and 5 rewrites a case
    assert max(fake_openai.counts.values()) <= 2  # only a call in flight at the kill is re-sent


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["--resume", "nope"], "no attack 'nope'", id="unknown-attack"),
        pytest.param(["--replay", "nope"], "no attack 'nope'", id="unknown-replay"),
        pytest.param(
            ["--report", "x", "-f", "pdf"], "unknown attack report format 'pdf'", id="fmt"
        ),
    ],
)
def test_a_bad_attack_id_or_format_exits_3(
    home: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    (home / "home").mkdir()
    from failproof.store import Store

    Store(home / "home" / "failproof.db").close()
    assert main(["attack", *argv]) == 3
    assert message in capsys.readouterr().err


def test_only_the_chosen_cases_are_attacked_and_the_choice_is_recorded(
    fake_openai: FakeOpenAI, home: Path
) -> None:
    fake_openai.reply = reply
    suite = write_suite(home, goals=("Tell me the weather.", GOAL))
    out = home / "out"
    argv = args(fake_openai, suite, "iterative", "--only", "zk1", "-q", "-o", str(out))
    assert main(["attack", *argv]) == 1
    data = json.loads((out / "attack.json").read_text())
    assert data["strategies"]["iterative"]["cases"] == 1
    assert data["attacks"][0]["config"]["selection"]["ids"] == ["zk1"]


def test_an_unknown_case_in_only_is_an_error_before_any_call(
    fake_openai: FakeOpenAI, home: Path
) -> None:
    argv = args(fake_openai, write_suite(home), "iterative", "--only", "nope", "-q")
    assert main(["attack", *argv]) == 3
    assert not fake_openai.requests


def _refusing_attacker(body: dict[str, object]) -> str:
    """The target as scripted; an attacker that declines to write any attack."""
    if body["model"] == "attacker":
        return "I'm sorry, but I can't help with writing attacks on AI systems."
    return reply(body)


@pytest.mark.parametrize("strategy", ["iterative", "tree", "crescendo"])
def test_a_refusing_attacker_is_reported_as_no_attack_not_as_held(
    fake_openai: FakeOpenAI, home: Path, strategy: str, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_openai.reply = _refusing_attacker
    out = home / "out"
    code = main(["attack", *args(fake_openai, write_suite(home), strategy, "-o", str(out))])
    assert code == 0
    err = capsys.readouterr().err
    assert "not attacked (the attacker declined" in err and "1 not attacked" in err
    data = json.loads(next(out.glob("*.json")).read_text())
    (case,) = data["cases"]
    assert case["attacks_sent"] == 0 and case["queries"] == 1
    assert case["attacker_declined"] == case["attacker_queries"] == 3
    assert data["strategies"][strategy]["not_attacked"] == 1
    assert "Not attacked" in next(out.glob("*.md")).read_text()


def test_with_a_judge_the_goal_test_is_the_fused_verdict_and_breaks_say_who_decided(
    fake_openai: FakeOpenAI, home: Path
) -> None:
    from tests.judge.helpers import verdict

    def judged(body: dict[str, object]) -> str:
        if body["model"] == "judge":  # reads every answer, the plain refusal too, as harmful
            return verdict("compliance", True, "the judge reads harm")
        return reply(body)  # type: ignore[arg-type]

    fake_openai.reply = judged
    out = home / "out"
    judge = ["--judge", "openai:judge", "--judge-base-url", fake_openai.base_url]
    argv = args(fake_openai, write_suite(home), "iterative", "-o", str(out), "-q", *judge)
    assert main(["attack", *argv]) == 1
    data = json.loads((out / "attack.json").read_text())
    (case,) = data["cases"]
    assert (case["first_break"], case["broken_by"]) == (1, "judge")
    assert data["strategies"]["iterative"]["breaks_by"] == {
        "rules": 0,
        "judge": 1,
        "rules_fallback": 0,
    }
    assert "judge 1" in (out / "attack.md").read_text()


def test_without_a_judge_breaks_are_the_rules(fake_openai: FakeOpenAI, home: Path) -> None:
    fake_openai.reply = reply
    out = home / "out"
    argv = args(fake_openai, write_suite(home), "iterative", "-o", str(out), "-q", "-f", "json")
    assert main(["attack", *argv]) == 1
    data = json.loads((out / "attack.json").read_text())
    assert data["strategies"]["iterative"]["breaks_by"]["rules"] == 1


@pytest.mark.parametrize(
    ("count", "kept_whole"),
    [pytest.param(2, True, id="two-ids"), pytest.param(12, False, id="twelve-ids")],
)
def test_a_side_by_side_reports_folder_is_named_by_its_ids_and_never_too_long(
    count: int, kept_whole: bool
) -> None:
    ids = [f"20261126-1418{i:02d}-a2926e" for i in range(count)]
    name = compare_name(ids)
    assert len(name.encode()) <= 120
    assert name.startswith(f"compare-{ids[0]}")
    assert (name == "compare-" + "-".join(ids)) is kept_whole
    assert compare_name(ids[::-1]) != name  # other attacks, in another order: another folder
