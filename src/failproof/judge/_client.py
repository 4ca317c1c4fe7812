"""Asking the judge: one rubric, its inputs, a validated verdict or a ``judge_error``.

Each question is sent at temperature 0; an answer that is not valid (no JSON object, a wrong
field, a term that was not listed) is asked again, up to ``attempts`` calls in all. A call that
fails (server down, timeout, HTTP error) counts as an attempt too. When every attempt failed
the answer is a ``judge_error``: it carries every raw answer and why each was refused, and it
is never read as a pass. Valid answers are cached in the store, keyed by the judge's identity,
the rubric's name and version, and the inputs; errors are never cached.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from collections.abc import Callable, Mapping
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, Field

from failproof.config import JudgeSettings
from failproof.core import Case, Message
from failproof.errors import ConfigError
from failproof.judge._replay import is_replay, load_replay
from failproof.judge._rubric import Rubric
from failproof.judge._verdicts import Verdict, parse_verdict
from failproof.runner import RetryPolicy
from failproof.runner._calls import Caller
from failproof.runner._limits import AdaptiveGate, RateLimiter
from failproof.store import Store
from failproof.targets import Target

__all__ = ["Check", "Judge", "JudgeAnswer", "JudgeAttempt", "judge_cache_key"]

#: A further check of a parsed verdict against its inputs: None when fine, else the problem.
Check = Callable[[Any], "str | None"]
_MAX_RAW = 4000


class JudgeAttempt(BaseModel):
    """One call: the judge's raw answer (cut to 4,000 characters) and why it was refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    raw: str = ""
    problem: str | None = None
    prompt_tokens: int | None = Field(default=None, description="As the judge's server said.")
    completion_tokens: int | None = Field(default=None, description="As the server said.")


class JudgeAnswer(BaseModel):
    """The judge's answer to one question, with everything needed to check it by hand."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    status: Literal["ok", "judge_error"]
    rubric: str = Field(description="name@version of the rubric asked.")
    verdict: dict[str, Any] | None = Field(default=None, description="The validated verdict.")
    error: str | None = Field(default=None, description="Why there is no verdict.")
    prompt: list[Message] = Field(default_factory=list, description="What the judge was sent.")
    attempts: list[JudgeAttempt] = Field(default_factory=list)
    cached: bool = False

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def judge_cache_key(identity: Mapping[str, Any], rubric: Rubric, inputs: Mapping[str, str]) -> str:
    """The cache key of one question: judge identity + rubric name and version + inputs."""
    blob = json.dumps(
        {"judge": identity, "rubric": rubric.tag, "inputs": dict(inputs)},
        sort_keys=True,
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class Judge:
    """Asks the judge's target the rubrics' questions; caches valid answers in ``cache``.

    With a constrained judge (``response_format``) each rubric gets a target of its own that
    carries the rubric's JSON schema; otherwise one target answers every rubric.
    """

    def __init__(self, settings: JudgeSettings, cache: Store | None) -> None:
        self.settings = settings
        from failproof.judge._target import constrained, judge_target  # with a judge only

        self.replay = load_replay(settings.spec or "") if is_replay(settings.spec) else None
        self.cache = cache if self.replay is None else None
        self.target = judge_target(settings) if self.replay is None else None
        self.constrained = constrained(settings) and self.replay is None
        found = self.target.identity() if self.target is not None else {}
        recording = self.replay.identity() if self.replay is not None else {}
        self.identity = {
            "spec": settings.spec,
            "constrained": self.constrained,
            **found,
            **recording,
        }
        self._targets: dict[str, Target] = {}
        self._gate = asyncio.Semaphore(settings.concurrency)
        self._pacing = AdaptiveGate(settings.concurrency)
        self._rpm = RateLimiter(settings.rpm) if settings.rpm else None
        self._callers: dict[int, Caller] = {}

    def _caller(self, target: Target) -> Caller:
        """The runner's caller for ``target``: its retries with backoff and Retry-After, its
        429-adaptive concurrency gate, and the judge's request rate limit."""
        found = self._callers.get(id(target))
        if found is None:
            policy = RetryPolicy(retries=self.settings.retries, rng=random.Random(0))
            found = Caller(target, self.settings.timeout_s, policy, self._pacing, rpm=self._rpm)
            self._callers[id(target)] = found
        return found

    def _target_for(self, rubric: Rubric, model: type[Verdict]) -> Target:
        if self.target is None:
            raise ConfigError("a recorded judge has no target")
        if not self.constrained:
            return self.target
        if rubric.tag not in self._targets:
            from failproof.judge._target import judge_target, schema_format

            schema = schema_format(rubric.name, model.model_json_schema())
            self._targets[rubric.tag] = judge_target(self.settings, schema)
        return self._targets[rubric.tag]

    async def aclose(self) -> None:
        """Release every target (and the cache)."""
        try:
            for target in [self.target, *self._targets.values()]:
                if target is not None:
                    await target.aclose()
        finally:
            if self.cache is not None:
                self.cache.close()

    async def ask(
        self,
        rubric: Rubric,
        inputs: Mapping[str, str],
        model: type[Verdict],
        check: Check | None = None,
        case_id: str | None = None,
    ) -> JudgeAnswer:
        """The judge's validated verdict on ``inputs``, from the cache when it holds one.

        ``case_id`` names the case judged (a recorded judge may be keyed by it)."""
        prompt = rubric.messages(inputs)
        if self.replay is not None:
            raw = self.replay.answer(rubric.name, inputs, case_id)
            return self._recorded(rubric, prompt, model, check, raw)
        key = judge_cache_key(self.identity, rubric, inputs)
        hit = self.cache.judge_get(key) if self.cache is not None else None
        if hit is not None:
            return JudgeAnswer.model_validate_json(hit).model_copy(update={"cached": True})
        async with self._gate:
            answer = await self._attempts(rubric, prompt, model, check)
        if answer.ok and self.cache is not None:
            self.cache.judge_put(
                key, judge=self.identity, rubric=rubric.tag, answer=answer.model_dump_json()
            )
        return answer

    def _recorded(
        self,
        rubric: Rubric,
        prompt: list[Message],
        model: type[Verdict],
        check: Check | None,
        raw: str | None,
    ) -> JudgeAnswer:
        """A recorded answer, read exactly like a live one (asking again would change nothing)."""
        missing = "the judge's recording holds no verdict for this question"
        checked = _attempt("", missing, model, check) if raw is None else None
        return _answer(rubric, prompt, [checked or _attempt(raw or "", None, model, check)])

    async def _attempts(
        self, rubric: Rubric, prompt: list[Message], model: type[Verdict], check: Check | None
    ) -> JudgeAnswer:
        case = Case(id="judge", input=prompt)
        target = self._target_for(rubric, model)
        checked: list[_Checked] = []
        for _ in range(self.settings.attempts):
            raw, failure, used = await self._call(target, case)
            found = _attempt(raw, failure, model, check)
            attempt = found.attempt.model_copy(update=used)
            checked.append(found._replace(attempt=attempt))
            if checked[-1].verdict is not None:
                break
        return _answer(rubric, prompt, checked)

    async def _call(
        self, target: Target, case: Case
    ) -> tuple[str, str | None, dict[str, int | None]]:
        """The judge's raw answer (or ``""`` and why the call failed), and the tokens used."""
        response = await self._caller(target).call(case)
        used = {
            "prompt_tokens": response.prompt_tokens,
            "completion_tokens": response.completion_tokens,
        }
        if response.error is not None:
            return "", f"the judge call failed: {response.error}", used
        return response.output, None, used


class _Checked(NamedTuple):
    """One call's answer as recorded, and its verdict when valid."""

    attempt: JudgeAttempt
    verdict: dict[str, Any] | None


def _attempt(raw: str, failure: str | None, model: type[Verdict], check: Check | None) -> _Checked:
    """One call's answer, checked: its verdict is None unless the answer is valid."""
    verdict = None if failure else parse_verdict(raw, model)
    problem = failure or (verdict if isinstance(verdict, str) else None)
    if problem is None and check is not None:
        problem = check(verdict)
    valid = verdict if problem is None and isinstance(verdict, model) else None
    dumped = valid.model_dump(mode="json") if valid is not None else None
    return _Checked(JudgeAttempt(raw=raw[:_MAX_RAW], problem=problem), dumped)


def _answer(rubric: Rubric, prompt: list[Message], checked: list[_Checked]) -> JudgeAnswer:
    """The answer the attempts add up to: the last one's verdict when valid, else an error."""
    attempts = [c.attempt for c in checked]
    last = checked[-1]
    if last.verdict is not None:
        return JudgeAnswer(
            status="ok", rubric=rubric.tag, verdict=last.verdict, prompt=prompt, attempts=attempts
        )
    error = f"no valid verdict after {len(attempts)} call(s): {last.attempt.problem}"
    return JudgeAnswer(
        status="judge_error", rubric=rubric.tag, error=error, prompt=prompt, attempts=attempts
    )
