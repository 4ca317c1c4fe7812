"""The strategy interface, its options, and the registry strategies register in."""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from failproof.attack._context import AttackContext
from failproof.attack._prompts import attacker_prompt, extract_prompt
from failproof.core import AttackStep, Message
from failproof.registry import Registry

__all__ = [
    "Strategy",
    "StrategyOptions",
    "describe",
    "on_topic",
    "prompt_of",
    "strategies",
    "user",
]

_WORD = re.compile(r"[a-z0-9]{4,}")


class StrategyOptions(BaseModel):
    """The knobs of the built-in strategies (each uses the ones that concern it)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    width: int = Field(default=3, ge=1, description="tree: branches kept after each round.")
    branching: int = Field(default=2, ge=1, description="tree: rewrites asked per kept branch.")
    on_topic: float = Field(
        default=0.3,
        ge=0,
        le=1,
        description="tree: the share of the goal's words (4+ letters) a rewrite must keep, "
        "else it is pruned before it is sent.",
    )
    max_turns: int = Field(default=8, ge=1, description="crescendo: escalating turns at most.")
    max_backtracks: int = Field(
        default=5, ge=0, description="crescendo: refused turns dropped before it gives up."
    )
    perturbations: tuple[str, ...] = Field(
        default=("case_flip", "typos", "homoglyphs", "zero_width", "leetspeak", "spacing"),
        description="best_of_n: the perturbations sampled from (mutators, and 'spacing').",
    )


class Strategy(ABC):
    """Drives the attacker against the target for one case until it breaks or the budget ends.

    Every strategy sends the plain case first (round 0): the unattacked baseline.
    """

    name: ClassVar[str] = "strategy"

    def __init__(self, options: StrategyOptions) -> None:
        self.options = options

    @abstractmethod
    async def attack(self, ctx: AttackContext) -> None:
        """Attack ``ctx.case``; return when broken or when ``ctx.done``."""

    async def rewrite(self, ctx: AttackContext, *, at: int, **values: object) -> AttackStep:
        """Ask the attacker with this strategy's prompt in round ``at``; the step's output is
        its answer."""
        prompt = attacker_prompt(self.name)
        text = prompt.render(goal=ctx.goal, round=at, **values)
        return await ctx.ask(prompt.system, text, round=at)


strategies: Registry[type[Strategy]] = Registry("strategy")


def user(text: str) -> Message:
    return Message(role="user", content=text)


def describe(step: AttackStep) -> str:
    """The verdict on a target step, as the attacker is told it."""
    if step.error is not None:
        return "the call failed"
    why = f" ({', '.join(step.reasons)})" if step.reasons else ""
    return f"{step.primary}{why}, score {step.score or 0:.2f}"


def prompt_of(step: AttackStep) -> str | None:
    """The prompt an attacker step wrote, or None when it failed or wrote nothing."""
    return extract_prompt(step.output) if step.error is None else None


def on_topic(text: str, goal: str, threshold: float) -> bool:
    """Whether ``text`` keeps at least ``threshold`` of the goal's words (4+ letters)."""
    wanted = set(_WORD.findall(goal.lower()))
    if not wanted:
        return True
    kept = wanted & set(_WORD.findall(text.lower()))
    return len(kept) / len(wanted) >= threshold
