"""``failproof attack``: a strategy per case, every step stored as it finishes; resume; replay."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from failproof.attack._context import AttackContext, BudgetSpent, Journal
from failproof.attack._request import AttackRequest
from failproof.attack._strategy import strategies
from failproof.config import Settings
from failproof.core import Attack, AttackStep, Case, CaseResult, Response
from failproof.errors import FailproofError
from failproof.runner import AdaptiveGate, Caller, RetryPolicy, new_run_id, stop_signals
from failproof.scoring import Scorer, build_scorers, score_case
from failproof.store import Store
from failproof.targets import Target, create_target

__all__ = ["AttackInterrupted", "replay_attack", "resume_attack", "start_attack"]


class AttackInterrupted(Exception):
    """The attack was stopped; every finished step is stored and ``--resume`` continues it."""

    def __init__(self, attack_id: str) -> None:
        super().__init__(f"attack {attack_id} interrupted")
        self.attack_id = attack_id


@dataclass
class _Parts:
    """What every case's attack shares."""

    attack_id: str
    request: AttackRequest
    scorers: list[Scorer]
    store: Store | None
    target: Caller | None
    attacker: Caller | None


def start_attack(
    request: AttackRequest, *, settings: Settings, store: Store, attack_id: str | None = None
) -> Attack:
    """Attack every case of the request's suites; returns the stored attack when done."""
    strategies.get(request.strategy)  # an unknown strategy fails before anything is stored
    cases = _cases(request)
    target, attacker = _targets(request, settings)
    attack = Attack(
        id=attack_id or new_run_id(),
        target=target.identity(),
        attacker=attacker.identity(),
        strategy=request.strategy,
        config=request.to_config(),
    )
    store.create_attack(attack)
    _execute(attack.id, request, cases, settings, store, (target, attacker))
    return store.get_attack(attack.id)


def resume_attack(attack_id: str, *, settings: Settings, store: Store) -> Attack:
    """Continue a stopped attack: stored steps are retraced, never sent again."""
    request = AttackRequest.from_config(store.get_attack(attack_id).config)
    store.finish_attack(attack_id, "running")
    targets = _targets(request, settings)
    _execute(attack_id, request, _cases(request), settings, store, targets)
    return store.get_attack(attack_id)


def replay_attack(attack_id: str, *, settings: Settings, store: Store) -> list[AttackStep]:
    """Retrace a stored attack offline (no model is called) and score every answer again."""
    request = AttackRequest.from_config(store.get_attack(attack_id).config)
    parts = _Parts(attack_id, request, build_scorers(settings), None, None, None)
    journals = {c.key: store.attack_steps(attack_id, c.key) for c in _cases(request)}
    contexts = [_context(parts, case, journals[case.key]) for case in _cases(request)]
    asyncio.run(_attack_all(parts, contexts, concurrency=1))
    return [step for ctx in contexts for step in ctx.steps]


def _cases(request: AttackRequest) -> list[Case]:
    return [case for suite in request.load() for case in suite.cases]


def _targets(request: AttackRequest, settings: Settings) -> tuple[Target, Target]:
    run = {"concurrency": settings.run.concurrency, "timeout_s": settings.run.timeout_s}
    return (
        create_target(request.target, {**request.target_options, **run}),
        create_target(request.attacker, {**request.attacker_options, **run}),
    )


def _caller(target: Target, settings: Settings) -> Caller:
    run = settings.run
    workers = min(run.concurrency, target.max_concurrency or run.concurrency)
    policy = RetryPolicy(
        retries=run.retries,
        base_s=run.backoff_base_s,
        max_s=run.backoff_max_s,
        rng=random.Random(run.retry_seed),
    )
    return Caller(target=target, timeout_s=run.timeout_s, policy=policy, gate=AdaptiveGate(workers))


def _execute(
    attack_id: str,
    request: AttackRequest,
    cases: Sequence[Case],
    settings: Settings,
    store: Store,
    targets: tuple[Target, Target],
) -> None:
    target, attacker = targets
    parts = _Parts(
        attack_id,
        request,
        build_scorers(settings),
        store,
        _caller(target, settings),
        _caller(attacker, settings),
    )
    contexts = [_context(parts, c, store.attack_steps(attack_id, c.key)) for c in cases]
    try:
        with stop_signals(), asyncio.Runner() as loop:
            loop.run(_drive(parts, contexts, targets, settings.run.concurrency))
    except (KeyboardInterrupt, asyncio.CancelledError):
        store.finish_attack(attack_id, "interrupted")
        raise AttackInterrupted(attack_id) from None
    except BaseException:
        store.finish_attack(attack_id, "failed")
        raise
    store.finish_attack(attack_id, "finished")


async def _drive(
    parts: _Parts,
    contexts: list[AttackContext],
    targets: tuple[Target, Target],
    concurrency: int,
) -> None:
    async with targets[0], targets[1]:
        await _attack_all(parts, contexts, concurrency)


async def _attack_all(parts: _Parts, contexts: list[AttackContext], concurrency: int) -> None:
    gate = asyncio.Semaphore(max(1, concurrency))
    strategy = strategies.get(parts.request.strategy)(parts.request.options)

    async def one(ctx: AttackContext) -> None:
        async with gate:
            try:
                await strategy.attack(ctx)
            except BudgetSpent:
                return

    async with asyncio.TaskGroup() as group:
        for ctx in contexts:
            group.create_task(one(ctx))


def _context(parts: _Parts, case: Case, stored: list[AttackStep]) -> AttackContext:
    request = parts.request
    return AttackContext(
        case=case,
        budget=request.budget,
        rng=random.Random(f"{request.seed}:{case.suite}:{case.id}"),
        call_target=parts.target.call if parts.target else _offline,
        call_attacker=parts.attacker.call if parts.attacker else _offline,
        score=partial(_score, parts.scorers),
        record=partial(_record, parts.store, parts.attack_id),
        journal=Journal(stored),
    )


def _score(scorers: list[Scorer], case: Case, response: Response) -> CaseResult:
    return score_case(case, response, scorers)


def _record(store: Store | None, attack_id: str, step: AttackStep) -> None:
    if store is not None:
        store.add_attack_step(attack_id, step)


async def _offline(case: Case) -> Response:
    raise FailproofError(
        f"the stored attack on case {case.id!r} ends here; an offline replay cannot call a model",
        hint="resume the attack to finish it, then replay it",
    )
