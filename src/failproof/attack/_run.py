"""``failproof attack``: a strategy per case, every step stored as it finishes; resume; replay."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from functools import partial

from failproof.attack._context import AttackContext, BudgetSpent, Journal
from failproof.attack._request import AttackRequest
from failproof.attack._strategy import strategies
from failproof.config import ScoringConfig, Settings
from failproof.config._record import RECORD_KEY
from failproof.core import Attack, AttackStep, Case, CaseResult, Response
from failproof.core._attack import UnsupportedCase
from failproof.errors import FailproofError
from failproof.runner import RetryPolicy
from failproof.runner._calls import Caller, CallStats
from failproof.runner._ids import new_run_id
from failproof.runner._limits import AdaptiveGate, RateLimiter
from failproof.runner._pool import PoolScoring
from failproof.runner._scoring import InlineScoring, Scoring, auto_score_workers
from failproof.runner._stop import stop_signals
from failproof.runner._unsupported import find_unsupported
from failproof.scoring import build_scorers
from failproof.store import Store
from failproof.targets import Target, create_target

__all__ = ["AttackInterrupted", "CaseDone", "replay_attack", "resume_attack", "start_attack"]

CaseDone = Callable[[AttackContext], None]


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
    scoring: Scoring
    store: Store | None
    target: Caller | None
    attacker: Caller | None


def start_attack(
    request: AttackRequest,
    *,
    settings: Settings,
    store: Store,
    attack_id: str | None = None,
    on_case: CaseDone | None = None,
) -> Attack:
    """Attack every case of the request's suites; returns the stored attack when done.

    ``on_case`` is called with each case's context when its attack ends (progress)."""
    strategies.get(request.strategy)  # an unknown strategy fails before anything is stored
    cases = _cases(request)
    target, attacker = _targets(request, settings)
    attack = Attack(
        id=attack_id or new_run_id(),
        target=target.identity(),
        attacker=attacker.identity(),
        strategy=request.strategy,
        config={
            **request.to_config(),
            RECORD_KEY: ScoringConfig.from_settings(settings).to_json(),
        },
        unsupported=_unsupported(target, cases),
    )
    store.create_attack(attack)
    _execute(
        attack, request, _attackable(attack, cases), settings, store, (target, attacker), on_case
    )
    return store.get_attack(attack.id)


def resume_attack(
    attack_id: str, *, settings: Settings, store: Store, on_case: CaseDone | None = None
) -> Attack:
    """Continue a stopped attack: stored steps are retraced, never sent again."""
    attack = store.get_attack(attack_id)
    request = AttackRequest.from_config(attack.config)
    store.finish_attack(attack_id, "running")
    targets = _targets(request, settings)
    cases = _attackable(attack, _cases(request))  # the unsupported stay unattacked
    _execute(attack, request, cases, settings, store, targets, on_case)
    return store.get_attack(attack_id)


def replay_attack(attack_id: str, *, settings: Settings, store: Store) -> list[AttackStep]:
    """Retrace a stored attack offline (no model is called) and score every answer again."""
    attack = store.get_attack(attack_id)
    request = AttackRequest.from_config(attack.config)
    scoring = InlineScoring(build_scorers(_record_of(attack, settings)))
    parts = _Parts(attack_id, request, scoring, None, None, None)
    cases = _attackable(attack, _cases(request))
    contexts = [_context(parts, c, store.attack_steps(attack_id, c.key)) for c in cases]
    asyncio.run(_attack_all(parts, contexts, 1, None))
    return [step for ctx in contexts for step in ctx.steps]


def _cases(request: AttackRequest) -> list[Case]:
    return [case for suite in request.load() for case in suite.cases]


def _unsupported(target: Target, cases: Sequence[Case]) -> list[UnsupportedCase]:
    """The cases ``target`` cannot take, with the reason: asked as ``failproof run`` asks, before
    anything is sent (a target that refuses the cases outright raises here)."""
    found = find_unsupported(target, cases)
    return [
        UnsupportedCase(suite=suite, case_id=case_id, **why.model_dump())
        for (suite, case_id), why in found.items()
    ]


def _attackable(attack: Attack, cases: Sequence[Case]) -> list[Case]:
    """The cases to attack: all but those the target cannot take (no call is made for them)."""
    skipped = {(u.suite, u.case_id) for u in attack.unsupported}
    return [case for case in cases if case.key not in skipped]


def _targets(request: AttackRequest, settings: Settings) -> tuple[Target, Target]:
    run = {"concurrency": settings.run.concurrency, "timeout_s": settings.run.timeout_s}
    return (
        create_target(request.target, {**request.target_options, **run}),
        create_target(request.attacker, {**request.attacker_options, **run}),
    )


def _callers(target: Target, attacker: Target, settings: Settings) -> tuple[Caller, Caller]:
    """The target's caller (with the run's rate limits) and the attacker's: when both are the
    same server, the attacker shares the target's gate and rate limits."""
    run = settings.run
    policy = RetryPolicy.of(run)
    to_target = Caller(
        target=target,
        timeout_s=run.timeout_s,
        policy=policy,
        gate=AdaptiveGate(target.calls_at_once(run.concurrency), max_pause_s=run.max_wait_s),
        rpm=RateLimiter(run.rpm) if run.rpm else None,
        tpm=RateLimiter(run.tpm) if run.tpm else None,
    )
    if _same_server(target, attacker):
        return to_target, replace(to_target, target=attacker, stats=CallStats())
    gate = AdaptiveGate(attacker.calls_at_once(run.concurrency), max_pause_s=run.max_wait_s)
    return to_target, Caller(target=attacker, timeout_s=run.timeout_s, policy=policy, gate=gate)


def _same_server(target: Target, attacker: Target) -> bool:
    mine, theirs = target.identity(), attacker.identity()
    where = mine.get("base_url") or mine.get("url") or mine.get("path")
    return mine.get("name") == theirs.get("name") and (
        where is None
        or where == (theirs.get("base_url") or theirs.get("url") or theirs.get("path"))
    )


def _record_of(attack: Attack, settings: Settings) -> ScoringConfig:
    """How the attack scores: as recorded when it started (today's settings for an attack
    stored before attacks kept their scoring record)."""
    recorded = ScoringConfig.of_run(attack.config)
    return recorded if recorded is not None else ScoringConfig.from_settings(settings)


def _execute(
    attack: Attack,
    request: AttackRequest,
    cases: Sequence[Case],
    settings: Settings,
    store: Store,
    targets: tuple[Target, Target],
    on_case: CaseDone | None,
) -> None:
    attack_id = attack.id
    scoring = _scoring(_record_of(attack, settings), settings)
    parts = _Parts(attack_id, request, scoring, store, *_callers(*targets, settings))
    contexts = [_context(parts, c, store.attack_steps(attack_id, c.key)) for c in cases]
    try:
        with stop_signals(), asyncio.Runner() as loop:
            loop.run(_drive(parts, contexts, targets, settings.run.concurrency, on_case))
    except (KeyboardInterrupt, asyncio.CancelledError):
        store.finish_attack(attack_id, "interrupted")
        raise AttackInterrupted(attack_id) from None
    except BaseException:
        store.finish_attack(attack_id, "failed")
        raise
    finally:
        scoring.close()
    store.finish_attack(attack_id, "finished")


def _scoring(record: ScoringConfig, settings: Settings) -> Scoring:
    """Scoring in worker processes from concurrency 16 (as the runner does), else inline."""
    scorers = build_scorers(record)
    workers = auto_score_workers(settings.run.concurrency, settings.run.score_workers)
    if any(s.blocking for s in scorers):  # an LLM judge: threads of this process, as the runner
        workers = 0
    return PoolScoring(record, scorers, workers) if workers > 0 else InlineScoring(scorers)


async def _drive(
    parts: _Parts,
    contexts: list[AttackContext],
    targets: tuple[Target, Target],
    concurrency: int,
    on_case: CaseDone | None,
) -> None:
    async with targets[0], targets[1]:
        await _attack_all(parts, contexts, concurrency, on_case)


async def _attack_all(
    parts: _Parts, contexts: list[AttackContext], concurrency: int, on_case: CaseDone | None
) -> None:
    gate = asyncio.Semaphore(max(1, concurrency))
    strategy = strategies.get(parts.request.strategy)(parts.request.options)

    async def one(ctx: AttackContext) -> None:
        async with gate:
            with suppress(BudgetSpent):
                await strategy.attack(ctx)
            if on_case is not None:
                on_case(ctx)

    try:
        async with asyncio.TaskGroup() as group:
            for ctx in contexts:
                group.create_task(one(ctx))
    except* FailproofError as failed:  # a diverged journal, an offline replay that ran out
        raise failed.exceptions[0] from None


def _context(parts: _Parts, case: Case, stored: list[AttackStep]) -> AttackContext:
    request = parts.request
    return AttackContext(
        case=case,
        budget=request.budget,
        rng=random.Random(f"{request.seed}:{case.suite}:{case.id}"),
        call_target=parts.target.call if parts.target else _offline,
        call_attacker=parts.attacker.call if parts.attacker else _offline,
        score=partial(_score, parts.scoring),
        record=partial(_record, parts.store, parts.attack_id),
        journal=Journal(stored),
        token_budget=request.token_budget,
        mcp_timeout_s=parts.target.timeout_s if parts.target else None,
    )


async def _score(scoring: Scoring, case: Case, response: Response) -> CaseResult:
    return await scoring.score(case, response, 0)


def _record(store: Store | None, attack_id: str, step: AttackStep) -> None:
    if store is not None:
        store.add_attack_step(attack_id, step)


async def _offline(case: Case) -> Response:
    raise FailproofError(
        f"the stored attack on case {case.id!r} ends here; an offline replay cannot call a model",
        hint="resume the attack to finish it, then replay it",
    )
