"""Attacks that adapt: an attacker model, driven by a registered strategy, against a target.

Built-in strategies: ``iterative`` (PAIR-style rewrites), ``tree`` (TAP-style branches pruned
off topic and by score), ``crescendo`` (an escalating conversation that backs off on refusal),
``best_of_n`` (random perturbations). Whether the target gave way is always failproof's own
verdict. Every step is stored as it finishes: ``resume_attack`` continues a stopped attack
without sending a finished step again, ``replay_attack`` retraces one offline.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.attack._best_of_n import BestOfNStrategy, perturb
    from failproof.attack._context import (
        AttackContext,
        AttackDiverged,
        Journal,
    )
    from failproof.attack._crescendo import CrescendoStrategy
    from failproof.attack._html import attack_html
    from failproof.attack._iterative import IterativeStrategy
    from failproof.attack._markdown import attack_markdown
    from failproof.attack._prompts import attacker_prompt, extract_prompt
    from failproof.attack._report import (
        AttackReport,
        build_attack_report,
    )
    from failproof.attack._request import AttackRequest, Prices
    from failproof.attack._run import (
        AttackInterrupted,
        replay_attack,
        resume_attack,
        start_attack,
    )
    from failproof.attack._strategy import Strategy, StrategyOptions, on_topic, strategies
    from failproof.attack._tree import TreeStrategy

__all__ = [
    "AttackContext",
    "AttackDiverged",
    "AttackInterrupted",
    "AttackReport",
    "AttackRequest",
    "BestOfNStrategy",
    "CrescendoStrategy",
    "IterativeStrategy",
    "Journal",
    "Prices",
    "Strategy",
    "StrategyOptions",
    "TreeStrategy",
    "attack_html",
    "attack_markdown",
    "attacker_prompt",
    "build_attack_report",
    "extract_prompt",
    "on_topic",
    "perturb",
    "replay_attack",
    "resume_attack",
    "start_attack",
    "strategies",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._best_of_n": ("BestOfNStrategy", "perturb"),
            "._context": (
                "AttackContext",
                "AttackDiverged",
                "Journal",
            ),
            "._crescendo": ("CrescendoStrategy",),
            "._html": ("attack_html",),
            "._iterative": ("IterativeStrategy",),
            "._markdown": ("attack_markdown",),
            "._prompts": ("attacker_prompt", "extract_prompt"),
            "._report": (
                "AttackReport",
                "build_attack_report",
            ),
            "._request": ("AttackRequest", "Prices"),
            "._run": (
                "AttackInterrupted",
                "replay_attack",
                "resume_attack",
                "start_attack",
            ),
            "._strategy": ("Strategy", "StrategyOptions", "on_topic", "strategies"),
            "._tree": ("TreeStrategy",),
        },
    )
