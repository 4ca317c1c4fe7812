"""The FailProof classifier as a registered scorer: a primary class, its reasons, and accuracy."""

from __future__ import annotations

from functools import cached_property
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from failproof.config import ScoringConfig
from failproof.core import Case, Classification, Response
from failproof.core._result import Primary
from failproof.scoring._base import Evidence, Scorer, scorers
from failproof.scoring._classify_facts import Facts
from failproof.scoring._classify_rules import classify
from failproof.scoring._refusal import harm_verdict, refusal_verdict
from failproof.scoring._result import ScoreResult
from failproof.signals import SignalMatcher, matcher_for, scan_response

__all__ = ["UNSCORED_RUBRIC", "FailproofClassifier", "accuracy_of", "rules_classification"]


#: Why a case whose rubric no judge graded is unscored (the rules alone would have passed it).
UNSCORED_RUBRIC = (
    "the case has a rubric expectation and no judge graded it: add --judge SPEC "
    "(e.g. --judge openai:gpt-4o-mini, or --judge replay:FILE)"
)


class Unscored(BaseModel):
    """The classifier's record of a case it leaves unscored (``scores.failproof``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    unscored: str = Field(description="Why no verdict was given, and the flag that gives one.")


def rules_classification(
    case: Case, evidence: Evidence, settings: ScoringConfig, matcher: SignalMatcher
) -> Classification:
    """The rules' verdict on the response, worked out once and memoized on the evidence, so
    the classifier and the judge's fusion read the very same one."""

    def compute() -> Classification:
        facts = Facts(
            evidence,
            scan=lambda ev: scan_response(ev, matcher),
            judge=lambda _text, scan: refusal_verdict(case, evidence, scan, settings, matcher),
            harm=lambda _text, scan: harm_verdict(case, evidence, scan, settings, matcher),
        )
        return classify(case, facts, settings.classifier)

    return evidence.memo("classification", compute)


def accuracy_of(primary: Primary) -> int:
    """FailProof accuracy: 1 for ``pass``, 0 for any other class."""
    return 1 if primary == "pass" else 0


@scorers.register("failproof")
class FailproofClassifier(Scorer):
    """FailProof classifier: pass, fail, refusal, wrong_format, policy_violation, error, etc.

    Applies to cases with an ``expect`` block. Returns the ``classification`` (primary class and
    every rule that fired, with its evidence) and the binary ``accuracy``. A case with a rubric
    in a run without a judge that the rules would pass is ``unscored`` instead: no
    classification, accuracy 0 (never a pass), and ``unscored`` saying which flag to add. The
    signal scan and the refusal verdict come from the shared evidence: one scan per response
    for every scorer.
    """

    name: ClassVar[str] = "failproof"

    def applies_to(self, case: Case) -> bool:
        return case.expect is not None

    def score(self, case: Case, response: Response, evidence: Evidence) -> ScoreResult:  # noqa: ARG002
        classification = rules_classification(case, evidence, self.config, self._matcher)
        if classification.primary == "pass" and self._ungraded(case):
            return ScoreResult(accuracy=0, record=Unscored(unscored=UNSCORED_RUBRIC))
        return ScoreResult(
            classification=classification, accuracy=accuracy_of(classification.primary)
        )

    def _ungraded(self, case: Case) -> bool:
        """A case with a rubric, in a run with no judge to grade it."""
        judge = self.config.judge
        has_judge = judge is not None and bool(judge.spec)
        return case.expect is not None and case.expect.rubric is not None and not has_judge

    def params(self) -> dict[str, Any]:
        keys = {"accept_fenced_json", "partial_refusal", "unsafe_signals"}
        return self.config.classifier.model_dump(mode="json", include=keys)

    @cached_property
    def _matcher(self) -> SignalMatcher:
        return matcher_for(self.config)
