"""The ``judge`` SAFE AH matcher: a forbidden idea in the follow-up questions, in other words.

Opt-in: ``"ahMatcher": "judge"`` in ``safe.config.json`` (or ``--judge`` on ``safe score``), and
a judge to ask. The exact substring hits always count; the judge may only add the terms whose
idea a question expresses in other words, each one of the record's own terms (an answer naming
any other term is invalid and asked again). When the judge gives no valid answer, every
forbidden term counts as violated and the scorecard says why: a judge error never passes.
The AH formula, strict mode and labels are the specification's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from failproof.config import JudgeSettings
from failproof.errors import ConfigError
from failproof.guard._json import JsonObject
from failproof.judge._client import JudgeAnswer
from failproof.judge._rubric import load_rubric
from failproof.judge._thread import JudgeThread, judge_cache_path
from failproof.judge._verdicts import AhVerdict
from failproof.safe import SafeConfig, SafeRecord, ah_matchers
from failproof.safe._ah import AhMatcher

__all__ = ["JudgeAhMatcher", "ah_inputs"]

_Key = tuple[tuple[str, ...], tuple[str, ...]]


def ah_inputs(record: SafeRecord) -> dict[str, str]:
    """The rubric's inputs: the forbidden terms, numbered, and the questions, one a line."""
    terms = record.expectations.forbidden_terms
    questions = [q for q in record.output.followup_questions if q.strip()]
    return {
        "terms": "\n".join(f"{n}. {t}" for n, t in enumerate(terms, start=1)),
        "questions": "\n".join(f"- {q}" for q in questions),
    }


def _key(record: SafeRecord) -> _Key:
    return tuple(record.expectations.forbidden_terms), tuple(record.output.followup_questions)


def _canonical(terms: Sequence[str]) -> dict[str, str]:
    return {t.strip().casefold(): t for t in terms}


def _checker(record: SafeRecord) -> Any:
    known = _canonical(record.expectations.forbidden_terms)

    def check(verdict: AhVerdict) -> str | None:
        unknown = [v for v in verdict.violated if v.strip().casefold() not in known]
        return f"{unknown[0]!r} is not one of the forbidden terms" if unknown else None

    return check


def _needs_judge(record: SafeRecord) -> bool:
    return bool(record.expectations.forbidden_terms) and any(
        q.strip() for q in record.output.followup_questions
    )


@ah_matchers.register("judge")
class JudgeAhMatcher(AhMatcher):
    """LLM judge for AH: a forbidden idea written in other words also counts as a violation."""

    name = "judge"

    def __init__(self, config: SafeConfig, judge: JudgeThread | None = None) -> None:
        super().__init__(config)
        if judge is None:
            raise ConfigError(
                "the SAFE AH matcher 'judge' needs a judge to ask",
                hint="give --judge SPEC (e.g. openai:gpt-4o-mini), or set ahMatcher to exact",
            )
        self.judge = judge
        self._answers: dict[_Key, JudgeAnswer] = {}

    @classmethod
    def from_settings(cls, config: SafeConfig, judge: JudgeSettings | None) -> AhMatcher:
        if judge is None or not judge.spec:
            return cls(config)
        return cls(config, JudgeThread(judge, judge_cache_path(judge)))

    @property
    def blocking(self) -> bool:
        return True

    def prepare(self, records: Sequence[SafeRecord]) -> None:
        """Ask the judge about every record that has terms and questions, concurrently."""
        todo = list({_key(r): r for r in records if _needs_judge(r)}.values())
        answers = self.judge.ask_many(
            load_rubric("safe_ah"),
            [ah_inputs(r) for r in todo],
            AhVerdict,
            checks=[_checker(r) for r in todo],
        )
        self._answers.update((_key(r), a) for r, a in zip(todo, answers, strict=True))

    def _answer(self, record: SafeRecord) -> JudgeAnswer:
        key = _key(record)
        if key not in self._answers:
            rubric = load_rubric("safe_ah")
            inputs = ah_inputs(record)
            self._answers[key] = self.judge.ask(rubric, inputs, AhVerdict, _checker(record))
        return self._answers[key]

    def _judged(self, record: SafeRecord) -> set[str] | None:
        """The terms the judge found (canonical spelling), or None on a judge error."""
        answer = self._answer(record)
        if not answer.ok or answer.verdict is None:
            return None
        known = _canonical(record.expectations.forbidden_terms)
        violated = AhVerdict.model_validate(answer.verdict).violated
        return {known[v.strip().casefold()] for v in violated}

    def violations(self, record: SafeRecord, exact_hits: Sequence[str]) -> tuple[str, ...]:
        terms = record.expectations.forbidden_terms
        if not _needs_judge(record):
            return tuple(exact_hits)
        judged = self._judged(record)
        counted = set(terms) if judged is None else set(exact_hits) | judged
        return tuple(t for t in terms if t in counted)

    def notes(self, record: SafeRecord) -> tuple[str, ...]:
        if not _needs_judge(record):
            return ()
        answer = self._answer(record)
        if not answer.ok:
            return (f"AH judge error, every forbidden term counted as violated: {answer.error}",)
        verdict = answer.verdict or {}
        found = verdict.get("violated") or []
        if not found:
            return ()
        return (f"AH judge: {', '.join(map(str, found))} ({verdict.get('reason', '')})",)

    def details(self, record: SafeRecord) -> JsonObject | None:
        """The judge's call about ``record``: its prompt, raw answers and verdict or error."""
        if not _needs_judge(record):
            return None
        return self._answer(record).model_dump(mode="json")

    def close(self) -> None:
        self.judge.close()

    def answers(self) -> Mapping[_Key, JudgeAnswer]:
        """Every answer the judge gave, with its prompt and raw text (for a report)."""
        return dict(self._answers)
