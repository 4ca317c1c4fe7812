"""SAFE v0 inside failproof runs: the ``safe_v0`` scorer and the ``safe_v0`` report section.

The scorer applies to every case with SAFE ``expectations``. The response is read as the SAFE
output ``{signals, summary, followup_questions}``: the parsed JSON, or the text parsed as JSON
(a Markdown code fence around it is accepted). A response that failed, or is not that object,
scores as an empty output, with a note saying why. A case's ``metadata.metric_id`` selects
per-metric_id weights; its suite is the batch id.

Configuration comes from ``SAFE_V0_*`` and ``./safe.config.json`` (`load_safe_config`), read
once per scorer and once per report section.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from failproof.config import Settings
from failproof.core import Case, CaseResult, Response, SafeExpectations, parse_json_output
from failproof.metrics import AggregateContext, aggregators
from failproof.safe._ah import AhMatcher, ah_matchers
from failproof.safe._records import DEFAULT_ARCHETYPE, SafeOutput, SafeRecord
from failproof.safe._report import build_safe_report
from failproof.safe._result import SafeResult
from failproof.safe._scoring import score_record
from failproof.safe._semantic import MiniLmEmbedder
from failproof.safe._settings import load_safe_config
from failproof.scoring import Evidence, Scorer, scorers

__all__ = ["SafeV0Scorer", "safe_v0_section"]

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
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return SafeOutput.empty(), f"output.{where}: {first['msg']}; scored as empty output"


@scorers.register("safe_v0")
class SafeV0Scorer(Scorer):
    """SAFE v0: CR, AH, AC, composite and Pass / Review / Fail for cases with expectations."""

    name = "safe_v0"

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.config = load_safe_config()
        self._embedder = MiniLmEmbedder() if self.config.match == "semantic" else None
        matcher = ah_matchers.get(self.config.ah_matcher)
        self._ah: AhMatcher = matcher.from_settings(self.config, settings)

    @property
    def blocking(self) -> bool:
        return self._ah.blocking

    def close(self) -> None:
        self._ah.close()

    def applies_to(self, case: Case) -> bool:
        return case.expectations is not None

    def score(self, case: Case, response: Response, evidence: Evidence) -> dict[str, Any]:  # noqa: ARG002
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
            record, self.config, batch_id=case.suite, embedder=self._embedder, ah=self._ah
        )
        if problem is not None:
            result = dataclasses.replace(result, notes=(problem, *result.notes))
        details = self._ah.details(record)
        return {"safe_v0": result.to_json(), **({"ah_matcher": details} if details else {})}

    def params(self) -> dict[str, Any]:
        return {"config": self.config.file_view()}


@aggregators.register("safe_v0")
def safe_v0_section(results: Sequence[CaseResult], _ctx: AggregateContext) -> dict[str, Any] | None:
    """The SAFE v0 batch report of the run's SAFE cases (per-case scorecards stay in results)."""
    scored = [SafeResult.from_json(r.safe_v0) for r in results if r.safe_v0]
    if not scored:
        return None
    suites = sorted({r.suite for r in results if r.safe_v0})
    report = build_safe_report(scored, load_safe_config(), concern_id=",".join(suites))
    return report.to_json(with_results=False)
