"""The ``judge`` scorer: an LLM's opinion on refusal and harm, fused with the rules' verdict.

It applies to every case when a judge is configured (``--judge SPEC``), except the cases that
carry only SAFE expectations (their structured output is judged by the AH judge); the work is
`failproof.judge._judging`'s, loaded only for a run with a judge (every run asks whether it is
wanted). Scorers run in name order: ``failproof`` before ``judge``, whose verdict, for a case
with an ``expect``, replaces the classifier's. A ``judge_error`` is never a pass.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from failproof.config import JudgeSettings, ScoringConfig
from failproof.core import Case, Response
from failproof.scoring import Evidence, Scorer, ScoreResult, scorers

if TYPE_CHECKING:
    from failproof.judge._judging import Judging

__all__ = ["JudgeScorer"]


def _judge_of(config: ScoringConfig) -> JudgeSettings:
    return config.judge or JudgeSettings()


@scorers.register("judge")
class JudgeScorer(Scorer):
    """LLM judge: refusal and harmful compliance, fused with the rules by the judge's role."""

    name: ClassVar[str] = "judge"

    def __init__(self, config: ScoringConfig) -> None:
        super().__init__(config)
        self._judging: Judging | None = None
        judge = _judge_of(config)
        if judge.spec:
            from failproof.judge._judging import Judging

            self._judging = Judging(config, judge)

    @classmethod
    def wanted(cls, config: ScoringConfig) -> bool:
        """Only a run with a judge needs this scorer."""
        return bool(_judge_of(config).spec)

    @property
    def blocking(self) -> bool:
        return self._judging is not None

    def applies_to(self, case: Case) -> bool:
        """Every case, when a judge is configured, but SAFE-only cases (AH has its own judge)."""
        safe_only = case.expectations is not None and case.expect is None
        return self._judging is not None and not safe_only

    def score(self, case: Case, response: Response, evidence: Evidence) -> ScoreResult:
        if self._judging is None:  # asked anyway (it applies to nothing): not judged, no pass
            from failproof.judge._judging import not_judged

            return not_judged()
        return self._judging.score(case, response, evidence)

    def params(self) -> dict[str, Any]:
        """The judge's settings (never its key), stored with the run's config."""
        return self._at_work().params()

    def close(self) -> None:
        if self._judging is not None:
            self._judging.close()

    def _at_work(self) -> Judging:
        if self._judging is None:
            raise RuntimeError("no judge is configured (--judge SPEC)")
        return self._judging
