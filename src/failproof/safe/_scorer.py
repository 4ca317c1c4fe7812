"""SAFE v0 inside failproof runs: the ``safe_v0`` scorer and the ``safe_v0`` report section.

The scorer applies to every case with SAFE ``expectations``. The response is read as the SAFE
output ``{signals, summary, followup_questions}``: the parsed JSON, or the text parsed as JSON
(a Markdown code fence around it is accepted). A response that failed, or is not that object,
scores as an empty output, with a note saying why. A case's ``metadata.metric_id`` selects
per-metric_id weights; its suite is the batch id.

Its configuration is the run's recorded SAFE config (``ScoringConfig.safe``), resolved at the
edge: the command line reads ``SAFE_V0_*`` and ``./safe.config.json`` only for a run that has
SAFE cases. The scorer is built only for such a run, and neither it nor the report section reads
the environment.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from pydantic import ValidationError

from failproof.config import SafeConfig, ScoringConfig
from failproof.core import Case, CaseResult, Response
from failproof.core._case import SafeExpectations
from failproof.core._response import parse_json_output
from failproof.guard._problem import first_problem
from failproof.metrics import AggregateContext, accumulators, aggregators, folded
from failproof.safe._ah import AhMatcher, ah_matchers
from failproof.safe._records import DEFAULT_ARCHETYPE, SafeOutput, SafeRecord
from failproof.safe._result import SafeResult
from failproof.safe._scoring import score_record
from failproof.safe._section import SafeBatchReport
from failproof.safe._semantic import MiniLmEmbedder
from failproof.scoring import Evidence, Scorer, ScoreResult, scorers

__all__ = ["SafeAccumulator", "SafeV0Scorer"]

_FENCE = re.compile(r"^\s*```[a-zA-Z0-9_-]*\s*\n(.*?)\n\s*```\s*$", re.DOTALL)


def _parsed(response: Response) -> Any:
    if response.parsed is not None:
        return response.parsed
    fenced = _FENCE.match(response.output)
    ok, value = parse_json_output(fenced.group(1) if fenced else response.output)
    return value if ok else None


def read_output(response: Response) -> tuple[SafeOutput, str | None]:
    """The SAFE output of ``response``, or an empty output and why."""
    if response.error is not None:
        return SafeOutput.empty(), f"the target failed ({response.error}); scored as empty output"
    value = _parsed(response)
    if not isinstance(value, dict):
        return SafeOutput.empty(), "output is not a JSON object; scored as empty output"
    try:
        return SafeOutput.model_validate(value), None
    except ValidationError as exc:
        where, what = first_problem(exc)
        return SafeOutput.empty(), f"output.{where}: {what}; scored as empty output"


@scorers.register("safe_v0")
class SafeV0Scorer(Scorer):
    """SAFE v0: CR, AH, AC, composite and Pass / Review / Fail for cases with expectations."""

    name = "safe_v0"

    def __init__(self, config: ScoringConfig) -> None:
        super().__init__(config)
        #: The SAFE config of the run (the defaults when the record has none).
        self.safe = self.config.safe or SafeConfig()
        self._embedder = MiniLmEmbedder() if self.safe.match == "semantic" else None
        judge = self.config.judge
        matcher = ah_matchers.get(self.safe.ah_matcher)
        self._ah: AhMatcher = matcher.from_settings(self.safe, judge)

    @classmethod
    def wanted(cls, config: ScoringConfig) -> bool:
        """Only a run with SAFE cases records a SAFE config, and only it needs this scorer."""
        return config.safe is not None

    @property
    def blocking(self) -> bool:
        return self._ah.blocking

    def close(self) -> None:
        self._ah.close()

    def applies_to(self, case: Case) -> bool:
        return case.expectations is not None

    def score(self, case: Case, response: Response, evidence: Evidence) -> ScoreResult:  # noqa: ARG002
        output, problem = read_output(response)
        metric_id = case.metadata.get("metric_id")
        record = SafeRecord(
            test_id=case.id,
            archetype=case.archetype or DEFAULT_ARCHETYPE,
            metric_id=metric_id if isinstance(metric_id, str) else None,
            expectations=case.expectations or SafeExpectations(),
            output=output,
        )
        result = score_record(
            record, self.safe, batch_id=case.suite, embedder=self._embedder, ah=self._ah
        )
        if problem is not None:
            result = dataclasses.replace(result, notes=(problem, *result.notes))
        details = self._ah.details(record)
        extra = {"ah_matcher": details} if details else {}
        return ScoreResult(safe_v0=result.to_model(), extra=extra)

    def params(self) -> dict[str, Any]:
        return {"config": self.safe.file_view()}


class SafeAccumulator:
    """The SAFE v0 batch report in one pass: keeps each SAFE case's scorecard (the batch report
    is computed from them all), never the case's output."""

    def __init__(self, ctx: AggregateContext) -> None:
        self.ctx = ctx
        self.scored: list[SafeResult] = []
        self.suites: set[str] = set()

    def add(self, result: CaseResult) -> None:
        if result.safe_v0:
            self.scored.append(SafeResult.from_model(result.safe_v0))
            self.suites.add(result.suite)

    def finish(self) -> SafeBatchReport | None:
        if not self.scored:
            return None
        concern = ",".join(sorted(self.suites))
        config = self.ctx.scoring.safe or SafeConfig()
        from failproof.safe._report import build_safe_report  # numpy: loaded for reports only

        report = build_safe_report(self.scored, config, concern_id=concern)
        return SafeBatchReport.model_validate(report.to_json(with_results=False))


accumulators.register("safe_v0")(SafeAccumulator)
aggregators.register("safe_v0")(folded(SafeAccumulator))
