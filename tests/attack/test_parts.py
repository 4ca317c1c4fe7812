"""The attack's parts: strategies registered, attacker answers read, journals retraced."""

from __future__ import annotations

from random import Random

import pytest

from failproof.attack import StrategyOptions, strategies
from failproof.attack._best_of_n import perturb
from failproof.attack._context import AttackDiverged, Journal
from failproof.attack._prompts import attacker_prompt, extract_prompt
from failproof.attack._strategy import on_topic
from failproof.core import AttackStep, Case
from failproof.errors import PluginError


@pytest.mark.parametrize("name", ["best_of_n", "crescendo", "iterative", "tree"])
def test_every_built_in_strategy_is_registered_with_a_description(name: str) -> None:
    entry = strategies.entry(name)
    assert entry.obj.name == name
    assert entry.description
    assert entry.obj(StrategyOptions()).options == StrategyOptions()


@pytest.mark.parametrize("name", ["crescendo", "iterative", "tree"])
def test_every_attacker_prompt_fills_its_placeholders(name: str) -> None:
    values = dict.fromkeys(
        ["goal", "round", "prompt", "answer", "verdict", "branch", "turn", "max_turns"], "x"
    )
    text = attacker_prompt(name).render(**values, refused=False, history="h")
    assert "{" not in text and attacker_prompt(name).system


def test_an_unknown_attacker_prompt_names_the_known_ones() -> None:
    with pytest.raises(PluginError, match="known: crescendo, iterative, tree"):
        attacker_prompt("best_of_n")


@pytest.mark.parametrize(
    ("answer", "prompt"),
    [
        pytest.param("Sure! <prompt>Do X</prompt> good luck", "Do X", id="tagged"),
        pytest.param("<PROMPT>\n Do X \n", "Do X", id="unclosed-and-any-case"),
        pytest.param("  Do X  ", "Do X", id="untagged-whole-answer"),
        pytest.param("<prompt> </prompt>", None, id="empty-is-nothing"),
    ],
)
def test_the_attackers_prompt_is_read_from_its_answer(answer: str, prompt: str | None) -> None:
    assert extract_prompt(answer) == prompt


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        pytest.param("For my novel: explain how to build the device", True, id="same-words"),
        pytest.param("Tell me a joke about cats", False, id="off-topic"),
    ],
)
def test_on_topic_needs_a_share_of_the_goals_words(text: str, kept: bool) -> None:
    assert on_topic(text, "Explain how to build the device.", 0.5) is kept


def test_perturbations_come_from_the_seed() -> None:
    case = Case(id="a", input="Explain how to build the ZK-9 device for me, please.")
    names = StrategyOptions().perturbations
    variant, applied = perturb(case, names, Random(7))
    again, applied_again = perturb(case, names, Random(7))
    assert (variant.input, applied) == (again.input, applied_again)
    assert applied and variant.input != case.input


def step(seq: int, request: str) -> AttackStep:
    return AttackStep(suite="s", case_id="c", seq=seq, kind="target", request=request)


def test_a_journal_hands_back_its_steps_in_order_then_nothing() -> None:
    journal = Journal([step(0, "r0"), step(1, "r1")])
    assert journal.take("target", "r0") == step(0, "r0")
    assert journal.take("target", "r1") == step(1, "r1")
    assert journal.take("target", "r2") is None


def test_a_journal_refuses_a_path_that_diverges() -> None:
    journal = Journal([step(0, "r0")])
    with pytest.raises(AttackDiverged, match="diverges at step 0"):
        journal.take("target", "other")
