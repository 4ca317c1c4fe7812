"""The ``judge`` report section: where the rules and the judge disagree, and how much they agree.

Three questions are compared on every case the judge answered: the pass verdict, refused or
not, harmful or not; each with the share of agreement and Cohen's kappa. A ``judge_error``
enters no agreement figure, is counted and listed, and counts as not passed in the judge's own
pass rate.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from failproof.config import JudgeSettings
from failproof.core import CaseResult
from failproof.metrics import AggregateContext, accumulators, aggregators
from failproof.stats import agreement

__all__ = ["DecidedCounts", "JudgeAccumulator", "JudgeTokens", "judge_section"]

_QUESTIONS = ("passed", "refused", "harmful")
_LISTED = 50


class DecidedCounts(BaseModel):
    """How many verdicts each side gave, over the cases the judge was asked about."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rules: int = 0
    judge: int = 0
    rules_fallback: int = 0

    @classmethod
    def of(cls, results: Sequence[CaseResult]) -> DecidedCounts:
        found = Counter(r.classification.decided_by for r in results if r.classification)
        return cls(**{str(k): v for k, v in found.items()})


class JudgeTokens(BaseModel):
    """The judge's calls and what they used (cached answers cost nothing and are not counted)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    calls: int = Field(default=0, description="Calls made to the judge (every attempt).")
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls_without_counts: int = Field(
        default=0, description="Calls whose server reported no token counts (not in the cost)."
    )
    cost_usd: float | None = Field(
        default=None, description="From judge.price_in and price_out (USD per million tokens)."
    )


class TokenTally:
    """Adds up the judge's calls from each result's stored attempts."""

    def __init__(self) -> None:
        self.counts = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0}
        self.without = 0

    def add(self, score: Mapping[str, Any]) -> None:
        for part in (score.get("call"), score.get("rubric")):
            if not isinstance(part, Mapping) or part.get("cached"):
                continue
            for attempt in part.get("answers") or ():
                if isinstance(attempt, Mapping):
                    self._attempt(attempt)

    def _attempt(self, attempt: Mapping[str, Any]) -> None:
        self.counts["calls"] += 1
        prompt, completion = attempt.get("prompt_tokens"), attempt.get("completion_tokens")
        if not isinstance(prompt, int) and not isinstance(completion, int):
            self.without += 1
        self.counts["prompt_tokens"] += prompt if isinstance(prompt, int) else 0
        self.counts["completion_tokens"] += completion if isinstance(completion, int) else 0

    def finish(self, judge: JudgeSettings) -> JudgeTokens:
        cost = None
        if judge.price_in is not None or judge.price_out is not None:
            cost = (
                self.counts["prompt_tokens"] * (judge.price_in or 0)
                + self.counts["completion_tokens"] * (judge.price_out or 0)
            ) / 1e6
        return JudgeTokens(**self.counts, calls_without_counts=self.without, cost_usd=cost)


def _settings(ctx: AggregateContext) -> JudgeSettings:
    return ctx.scoring.judge or JudgeSettings()


def _role(scores: Sequence[Mapping[str, Any]]) -> str:
    return next((str(s["role"]) for s in scores if s.get("role")), "advise")


def _opinion(score: Mapping[str, Any], side: str) -> dict[str, Any]:
    raw = score.get(side)
    view = raw if isinstance(raw, Mapping) else {}
    refusal = view.get("refusal")
    return {
        "passed": bool(view.get("passed")),
        "refused": None if refusal is None else refusal != "compliance",
        "harmful": view.get("harmful"),
        "refusal": refusal,
    }


def _words(view: Mapping[str, Any]) -> str:
    if view["refusal"] is None:
        return "no verdict"
    harm = "harmful" if view["harmful"] else "not harmful"
    return f"{'pass' if view['passed'] else 'fail'}: {view['refusal']}, {harm}"


def _agreement(pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    table: dict[str, Any] = {}
    for question in _QUESTIONS:
        found = agreement([r[question] for r, _ in pairs], [j[question] for _, j in pairs])
        table[question] = {"n": found.n, "agreement": found.agreement, "kappa": found.kappa}
    return table


def _disagreement(result: CaseResult, score: Mapping[str, Any]) -> dict[str, Any] | None:
    rules, judge = _opinion(score, "rules"), _opinion(score, "judge")
    differ = [q for q in _QUESTIONS if rules[q] != judge[q]]
    if not differ:
        return None
    return {
        "case_id": result.case_id,
        "suite": result.suite,
        "differ_on": ", ".join(differ),
        "rules": _words(rules),
        "judge": _words(judge),
        "judge_reason": str(score.get("reason") or ""),
    }


def _normalised(score: Mapping[str, Any]) -> Mapping[str, Any]:
    """A judge score whose status is neither ``ok`` nor ``not_judged`` (a scorer that raised
    leaves ``scorer_error``) is a ``judge_error``."""
    if score.get("status") in ("ok", "not_judged", "judge_error"):
        return score
    error = score.get("error") or score.get("scorer_error") or "the judge scorer failed"
    return {**score, "status": "judge_error", "error": error}


def _judged(results: Sequence[CaseResult]) -> list[tuple[CaseResult, Mapping[str, Any]]]:
    return [(r, _normalised(s)) for r in results if isinstance(s := r.scores.get("judge"), Mapping)]


def _call(score: Mapping[str, Any]) -> Mapping[str, Any]:
    call = score.get("call")
    return call if isinstance(call, Mapping) else {}


def _facts(judged: Sequence[tuple[CaseResult, Mapping[str, Any]]]) -> dict[str, Any]:
    status = [s.get("status") for _, s in judged]
    calls = [_call(s) for _, s in judged]
    asked = [s for s in status if s != "not_judged"]
    passes = sum(bool(_opinion(s, "judge")["passed"]) for _, s in judged if s.get("status") == "ok")
    return {
        "judge": next((c.get("judge") for c in calls if c.get("judge")), None),
        "rubric": next((c.get("rubric") for c in calls if c.get("rubric")), None),
        "judged": status.count("ok"),
        "judge_errors": status.count("judge_error"),
        "not_judged": status.count("not_judged"),
        "from_cache": sum(bool(c.get("cached")) for c in calls),
        "asked_again": sum(len(c.get("answers") or ()) > 1 and not c.get("cached") for c in calls),
        "judge_pass_rate": passes / len(asked) if asked else None,
    }


class JudgeAccumulator:
    """`judge_section` in one pass: counts, the six verdict columns of the agreement table, and
    the first disagreements and errors (the lists are cut at the same length)."""

    def __init__(self, ctx: AggregateContext) -> None:
        self.ctx = ctx
        self.tokens = TokenTally()
        self.status: Counter[object] = Counter()
        self.calls: dict[str, Any] = {"judge": None, "rubric": None}
        self.counts = {"from_cache": 0, "asked_again": 0}
        self.passes = 0
        self.columns: dict[str, tuple[list[Any], list[Any]]] = {q: ([], []) for q in _QUESTIONS}
        self.disagreements: list[dict[str, Any]] = []
        self.disagreement_count = 0
        self.errors: list[dict[str, str]] = []
        self.decided: Counter[str] = Counter()
        self.role: str | None = None

    def add(self, result: CaseResult) -> None:
        raw = result.scores.get("judge")
        if not isinstance(raw, Mapping):
            return
        score = _normalised(raw)
        self.tokens.add(score)
        if result.classification is not None:
            self.decided[result.classification.decided_by] += 1
        self.role = self.role or (str(score["role"]) if score.get("role") else None)
        status = score.get("status")
        self.status[status] += 1
        self._call(_call(score))
        if status == "judge_error" and len(self.errors) < _LISTED:
            self.errors.append(
                {
                    "case_id": result.case_id,
                    "suite": result.suite,
                    "error": str(score.get("error") or ""),
                }
            )
        if status == "ok":
            self._answered(result, score)

    def _call(self, call: Mapping[str, Any]) -> None:
        for key in ("judge", "rubric"):
            if self.calls[key] is None and call.get(key):
                self.calls[key] = call.get(key)
        self.counts["from_cache"] += bool(call.get("cached"))
        self.counts["asked_again"] += len(call.get("answers") or ()) > 1 and not call.get("cached")

    def _answered(self, result: CaseResult, score: Mapping[str, Any]) -> None:
        rules, judge = _opinion(score, "rules"), _opinion(score, "judge")
        self.passes += bool(judge["passed"])
        for question, (left, right) in self.columns.items():
            left.append(rules[question])
            right.append(judge[question])
        found = _disagreement(result, score)
        if found is not None:
            self.disagreement_count += 1
            if len(self.disagreements) < _LISTED:
                self.disagreements.append(found)

    def finish(self) -> dict[str, Any] | None:
        if not self.status:
            return None
        asked = sum(n for s, n in self.status.items() if s != "not_judged")
        table: dict[str, Any] = {}
        for question, (left, right) in self.columns.items():
            found = agreement(left, right)
            table[question] = {"n": found.n, "agreement": found.agreement, "kappa": found.kappa}
        return {
            "judge": self.calls["judge"],
            "role": self.role or "advise",
            "decided_by": DecidedCounts(**self.decided).model_dump(),
            "tokens": self.tokens.finish(_settings(self.ctx)).model_dump(),
            "rubric": self.calls["rubric"],
            "judged": self.status["ok"],
            "judge_errors": self.status["judge_error"],
            "not_judged": self.status["not_judged"],
            "from_cache": self.counts["from_cache"],
            "asked_again": self.counts["asked_again"],
            "judge_pass_rate": self.passes / asked if asked else None,
            "disagreement_count": self.disagreement_count,
            "agreement": table,
            "disagreements": self.disagreements,
            "errors": self.errors,
        }


accumulators.register("judge")(JudgeAccumulator)


@aggregators.register("judge")
def judge_section(results: Sequence[CaseResult], ctx: AggregateContext) -> dict[str, Any] | None:
    """Agreement of the rules and the judge, their disagreements, and the judge's errors."""
    judged = _judged(results)
    if not judged:
        return None
    answered = [(r, s) for r, s in judged if s.get("status") == "ok"]
    pairs = [(_opinion(s, "rules"), _opinion(s, "judge")) for _, s in answered]
    disagreements = [d for r, s in answered if (d := _disagreement(r, s)) is not None]
    errors = [
        {"case_id": r.case_id, "suite": r.suite, "error": str(s.get("error") or "")}
        for r, s in judged
        if s.get("status") == "judge_error"
    ]
    facts = _facts(judged)
    tokens = TokenTally()
    for _, score in judged:
        tokens.add(score)
    return {
        "judge": facts.pop("judge"),
        "role": _role([s for _, s in judged]),
        "decided_by": DecidedCounts.of([r for r, _ in judged]).model_dump(),
        "tokens": tokens.finish(_settings(ctx)).model_dump(),
        **facts,
        "disagreement_count": len(disagreements),
        "agreement": _agreement(pairs),
        "disagreements": disagreements[:_LISTED],
        "errors": errors[:_LISTED],
    }
