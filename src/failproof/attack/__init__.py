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
        BROKEN_CLASSES,
        AttackContext,
        AttackDiverged,
        BudgetSpent,
        Journal,
        request_hash,
    )
    from failproof.attack._crescendo import CrescendoStrategy, pressure_expect
    from failproof.attack._html import attack_html
    from failproof.attack._iterative import IterativeStrategy
    from failproof.attack._markdown import attack_markdown
    from failproof.attack._prompts import AttackerPrompt, attacker_prompt, extract_prompt
    from failproof.attack._report import (
        ATTACK_SCHEMA_VERSION,
        AttackReport,
        CaseAttack,
        build_attack_report,
    )
    from failproof.attack._request import AttackRequest, Prices
    from failproof.attack._run import (
        AttackInterrupted,
        CaseDone,
        replay_attack,
        resume_attack,
        start_attack,
    )
    from failproof.attack._strategy import Strategy, StrategyOptions, on_topic, strategies
    from failproof.attack._tree import TreeStrategy

__all__ = [
    "ATTACK_SCHEMA_VERSION",
    "BROKEN_CLASSES",
    "AttackContext",
    "AttackDiverged",
    "AttackInterrupted",
    "AttackReport",
    "AttackRequest",
    "AttackerPrompt",
    "BestOfNStrategy",
    "BudgetSpent",
    "CaseAttack",
    "CaseDone",
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
    "pressure_expect",
    "replay_attack",
    "request_hash",
    "resume_attack",
    "start_attack",
    "strategies",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "._best_of_n": ("BestOfNStrategy", "perturb"),
        "._context": (
            "BROKEN_CLASSES",
            "AttackContext",
            "AttackDiverged",
            "BudgetSpent",
            "Journal",
            "request_hash",
        ),
        "._crescendo": ("CrescendoStrategy", "pressure_expect"),
        "._html": ("attack_html",),
        "._iterative": ("IterativeStrategy",),
        "._markdown": ("attack_markdown",),
        "._prompts": ("AttackerPrompt", "attacker_prompt", "extract_prompt"),
        "._report": ("ATTACK_SCHEMA_VERSION", "AttackReport", "CaseAttack", "build_attack_report"),
        "._request": ("AttackRequest", "Prices"),
        "._run": (
            "AttackInterrupted",
            "CaseDone",
            "replay_attack",
            "resume_attack",
            "start_attack",
        ),
        "._strategy": ("Strategy", "StrategyOptions", "on_topic", "strategies"),
        "._tree": ("TreeStrategy",),
    },
)
