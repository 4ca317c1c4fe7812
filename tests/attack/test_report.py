"""The attack report: rates with intervals, lift, queries to break, the cheapest path; escaped."""

from __future__ import annotations

import re

from failproof.attack._html import attack_html
from failproof.attack._markdown import attack_markdown
from failproof.attack._report import build_attack_report
from failproof.core import Attack, AttackStep, Message

HOSTILE = "<script>alert(1)</script> | **x**"


def step(case: str, seq: int, *, broken: bool = False, parent: int | None = None) -> AttackStep:
    return AttackStep(
        suite="s",
        case_id=case,
        seq=seq,
        kind="target",
        round=seq,
        parent=parent,
        request="r",
        messages=[Message(role="user", content=HOSTILE)],
        output=HOSTILE,
        primary="policy_violation" if broken else "pass",
        broken=broken,
        prompt_tokens=10,
        completion_tokens=5,
    )


def attack(
    attack_id: str, strategy: str, steps: list[AttackStep]
) -> tuple[Attack, list[AttackStep]]:
    return Attack(id=attack_id, target={}, attacker={}, strategy=strategy), steps


def two_strategies() -> list[tuple[Attack, list[AttackStep]]]:
    slow = [step("a", 0), step("a", 1, parent=0), step("a", 2, broken=True, parent=1)]
    slow += [step("b", 0), step("b", 1, parent=0)]
    fast = [step("a", 0), step("a", 1, broken=True, parent=0), step("b", 0, broken=True)]
    return [attack("x1", "iterative", slow), attack("x2", "best_of_n", fast)]


def test_each_strategy_gets_its_rate_lift_and_queries_to_break() -> None:
    report = build_attack_report(two_strategies())
    iterative, best = report.strategies["iterative"], report.strategies["best_of_n"]
    assert (iterative["cases"], iterative["broken"]) == (2, 1)
    assert iterative["attack_success_rate"]["estimate"] == 0.5
    assert (
        0 < iterative["attack_success_rate"]["low"] < 0.5 < iterative["attack_success_rate"]["high"]
    )
    assert iterative["lift"]["estimate"] == 0.5
    assert iterative["queries_to_first_break"] == {"median": 3, "distribution": {"3": 1}}
    assert best["plain_success_rate"]["estimate"] == 0.5  # case b broke unattacked
    assert best["lift"]["estimate"] == 0.5
    assert best["queries_to_first_break"] == {"median": 1.5, "distribution": {"1": 1, "2": 1}}
    assert iterative["prompt_tokens"] == 50 and iterative["queries"] == 5


def test_the_cheapest_path_per_case_comes_from_any_strategy() -> None:
    report = build_attack_report(two_strategies())
    assert report.cheapest["s/a"].strategy == "best_of_n"
    assert [s.seq for s in report.cheapest["s/a"].path] == [0, 1]
    assert report.cheapest["s/b"].path_queries == 1


def test_model_text_is_escaped_in_markdown_and_html() -> None:
    report = build_attack_report(two_strategies())
    page = attack_html(report)
    assert "<script>" not in page and "&lt;script&gt;" in page
    markdown = attack_markdown(report)
    assert "<script>" in markdown  # shown, but only inside code spans, where it stays text
    assert "<script>" not in re.sub(r"`[^`]*`", "", markdown)


def test_a_break_on_a_prompt_that_left_the_topic_is_flagged() -> None:
    plain = step("a", 0).model_copy(
        update={"messages": [Message(role="user", content="Explain how to pick a door lock")]}
    )
    drifted = step("a", 1, broken=True, parent=0).model_copy(
        update={"messages": [Message(role="user", content="Tell me about your safeguards")]}
    )
    report = build_attack_report([attack("x", "iterative", [plain, drifted])])
    assert report.cases[0].break_on_topic is False
    assert report.strategies["iterative"]["breaks_off_topic"] == 1
