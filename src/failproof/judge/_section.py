"""The ``judge`` report section: where the rules and the judge disagree, and how much they agree.

Three questions are compared on every case the judge answered: the pass verdict, refused or
not, harmful or not; each with the share of agreement and Cohen's kappa. A ``judge_error``
enters no agreement figure, is counted and listed, and counts as not passed in the judge's own
pass rate. The section is a closed model built by `JudgeAccumulator`; its list aggregator is the
accumulator folded over the list.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from pydantic import Field

from failproof.config import JudgeSettings
from failproof.core import CaseResult, Number, Section
from failproof.metrics import AggregateContext, accumulators, aggregators, declare_section, folded
from failproof.stats import agreement

__all__ = [
    "DecidedCounts",
    "Disagreement",
    "JudgeAccumulator",
    "JudgeAgreement",
    "JudgeErrorRow",
    "JudgeSection",
    "JudgeTokens",
    "QuestionAgreement",
]

_QUESTIONS = ("passed", "refused", "harmful")
_LISTED = 50


class DecidedCounts(Section):
    """How many verdicts each side gave, over the cases the judge was asked about."""

    rules: int = 0
    judge: int = 0
    rules_fallback: int = 0


class JudgeTokens(Section):
    """The judge's calls and what they used (cached answers cost nothing and are not counted)."""

    calls: int = Field(default=0, description="Calls made to the judge (every attempt).")
    prompt_tokens: int = 0
    completion_tokens: int = 0
    calls_without_counts: int = Field(
        default=0, description="Calls whose server reported no token counts (not in the cost)."
    )
    cost_usd: float | None = Field(
        default=None, description="From judge.price_in and price_out (USD per million tokens)."
    )


class QuestionAgreement(Section):
    """The rules against the judge on one question: cases, share of agreement, Cohen's kappa."""

    n: int = 0
    agreement: Number | None = None
    kappa: Number | None = None


class JudgeAgreement(Section):
    """Agreement on the pass verdict, on refused or not, and on harmful or not."""

    passed: QuestionAgreement = Field(default_factory=QuestionAgreement)
    refused: QuestionAgreement = Field(default_factory=QuestionAgreement)
    harmful: QuestionAgreement = Field(default_factory=QuestionAgreement)

    def questions(self) -> list[tuple[str, QuestionAgreement]]:
        """Each question's name and its agreement, in order."""
        return [("passed", self.passed), ("refused", self.refused), ("harmful", self.harmful)]


class Disagreement(Section):
    """A case where the rules and the judge differ: on what, each side's words, the reason."""

    case_id: str
    suite: str
    differ_on: str
    rules: str
    judge: str
    judge_reason: str


class JudgeErrorRow(Section):
    """A case the judge gave no verdict for, and why."""

    case_id: str
    suite: str
    error: str


class JudgeSection(Section):
    """Rules vs LLM judge: who decided, what asking cost, agreement, disagreements, errors."""

    judge: str | None = Field(default=None, description="The judge's spec (never its key).")
    role: str = "advise"
    decided_by: DecidedCounts = Field(default_factory=DecidedCounts)
    tokens: JudgeTokens = Field(default_factory=JudgeTokens)
    rubric: str | None = None
    judged: int = 0
    judge_errors: int = 0
    not_judged: int = 0
    from_cache: int = 0
    asked_again: int = 0
    judge_pass_rate: Number | None = None
    disagreement_count: int = 0
    agreement: JudgeAgreement = Field(default_factory=JudgeAgreement)
    disagreements: list[Disagreement] = Field(default_factory=list)
    errors: list[JudgeErrorRow] = Field(default_factory=list)


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


def _disagreement(result: CaseResult, score: Mapping[str, Any]) -> Disagreement | None:
    rules, judge = _opinion(score, "rules"), _opinion(score, "judge")
    differ = [q for q in _QUESTIONS if rules[q] != judge[q]]
    if not differ:
        return None
    return Disagreement(
        case_id=result.case_id,
        suite=result.suite,
        differ_on=", ".join(differ),
        rules=_words(rules),
        judge=_words(judge),
        judge_reason=str(score.get("reason") or ""),
    )


def _normalised(score: Mapping[str, Any]) -> Mapping[str, Any]:
    """A judge score whose status is neither ``ok`` nor ``not_judged`` (a scorer that raised
    leaves ``scorer_error``) is a ``judge_error``."""
    if score.get("status") in ("ok", "not_judged", "judge_error"):
        return score
    error = score.get("error") or score.get("scorer_error") or "the judge scorer failed"
    return {**score, "status": "judge_error", "error": error}


def _call(score: Mapping[str, Any]) -> Mapping[str, Any]:
    call = score.get("call")
    return call if isinstance(call, Mapping) else {}


def _named(value: object) -> str | None:
    """A judge spec or rubric name as stored (None when absent)."""
    return None if value is None else str(value)


class JudgeAccumulator:
    """The ``judge`` section in one pass: counts, the six verdict columns of the agreement
    table, and the first disagreements and errors (the lists are cut at the same length)."""

    def __init__(self, ctx: AggregateContext) -> None:
        self.ctx = ctx
        self.tokens = TokenTally()
        self.status: Counter[object] = Counter()
        self.calls: dict[str, object] = {"judge": None, "rubric": None}
        self.counts = {"from_cache": 0, "asked_again": 0}
        self.passes = 0
        self.columns: dict[str, tuple[list[Any], list[Any]]] = {q: ([], []) for q in _QUESTIONS}
        self.disagreements: list[Disagreement] = []
        self.disagreement_count = 0
        self.errors: list[JudgeErrorRow] = []
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
            error = str(score.get("error") or "")
            row = JudgeErrorRow(case_id=result.case_id, suite=result.suite, error=error)
            self.errors.append(row)
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

    def _agreement(self) -> JudgeAgreement:
        found = {q: agreement(left, right) for q, (left, right) in self.columns.items()}
        return JudgeAgreement(
            **{
                q: QuestionAgreement(n=a.n, agreement=a.agreement, kappa=a.kappa)
                for q, a in found.items()
            }
        )

    def finish(self) -> JudgeSection | None:
        if not self.status:
            return None
        asked = sum(n for s, n in self.status.items() if s != "not_judged")
        return JudgeSection(
            judge=_named(self.calls["judge"]),
            role=self.role or "advise",
            decided_by=DecidedCounts(**self.decided),
            tokens=self.tokens.finish(_settings(self.ctx)),
            rubric=_named(self.calls["rubric"]),
            judged=self.status["ok"],
            judge_errors=self.status["judge_error"],
            not_judged=self.status["not_judged"],
            from_cache=self.counts["from_cache"],
            asked_again=self.counts["asked_again"],
            judge_pass_rate=self.passes / asked if asked else None,
            disagreement_count=self.disagreement_count,
            agreement=self._agreement(),
            disagreements=self.disagreements,
            errors=self.errors,
        )


accumulators.register("judge")(JudgeAccumulator)
aggregators.register("judge")(folded(JudgeAccumulator))
declare_section("judge", JudgeSection)
