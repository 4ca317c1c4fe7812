"""Attacks that adapt: an attacker model, driven by a registered strategy, against a target.

Built-in strategies: ``iterative`` (PAIR-style rewrites), ``tree`` (TAP-style branches pruned
off topic and by score), ``crescendo`` (an escalating conversation that backs off on refusal),
``best_of_n`` (random perturbations). Whether the target gave way is always failproof's own
verdict. Every step is stored as it finishes: ``resume_attack`` continues a stopped attack
without sending a finished step again, ``replay_attack`` retraces one offline.
"""

from failproof.attack._report import AttackReport
from failproof.attack._request import AttackRequest
from failproof.attack._run import replay_attack, resume_attack, start_attack
from failproof.attack._strategy import Strategy, StrategyOptions, strategies

__all__ = [
    "AttackReport",
    "AttackRequest",
    "Strategy",
    "StrategyOptions",
    "replay_attack",
    "resume_attack",
    "start_attack",
    "strategies",
]
