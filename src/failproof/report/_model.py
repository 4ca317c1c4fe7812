"""The run report: one object that every renderer turns into its format."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetPydanticSchema,
    PrivateAttr,
    ValidationError,
    field_validator,
)
from pydantic_core import CoreSchema, core_schema

from failproof.config import Settings
from failproof.core import CaseResult, Run
from failproof.core._capabilities import Feature
from failproof.core._case_verdict import case_verdict
from failproof.core._result import utc_now
from failproof.metrics import (
    AggregateMetrics,
    Observability,
    Summary,
    aggregate_run,
)
from failproof.metrics._accumulate import TopN
from failproof.metrics._base import section_models
from failproof.metrics._run import Aggregation, Given
from failproof.metrics._summary_section import SuiteRow
from failproof.safe import SafeBatchReport
from failproof.store import Store, StoredResults

__all__ = [
    "CONSOLE_FAILURES",
    "LISTED_NOT_PASSED",
    "SCHEMA_VERSION",
    "CaseDigest",
    "Report",
    "ReportBuilder",
    "build_report",
    "build_report_streaming",
]

SCHEMA_VERSION = "1.0"


#: Failing cases the console lists, and failing or review cases the Markdown lists.
CONSOLE_FAILURES = 8
LISTED_NOT_PASSED = 30


def _risk_order(result: CaseResult) -> tuple[bool, float]:
    return (
        result.primary == "pass",
        -(result.case_score.weighted_risk if result.case_score else 0.0),
    )


@dataclass
class CaseDigest:
    """What the renderers count or list over every case, gathered in the report's one pass:
    verdicts (``verdicts``: the worst any scorer gave; ``shown``: the same with target errors
    apart), the riskiest failing cases (console) and the first failing, then review, cases
    (Markdown), each list bounded; and, for the cases the target could not take, how many
    need each feature and the first such case with its reason (``unsupported``)."""

    verdicts: Counter[str] = field(default_factory=Counter)
    unsupported: dict[Feature, tuple[int, str]] = field(default_factory=dict)
    shown: Counter[str] = field(default_factory=Counter)
    total: int = 0
    failing: TopN = field(default_factory=lambda: TopN(CONSOLE_FAILURES, _risk_order))
    not_passed: TopN = field(
        default_factory=lambda: TopN(LISTED_NOT_PASSED, lambda r: case_verdict(r) != "fail")
    )

    def add(self, result: CaseResult) -> None:
        verdict = case_verdict(result)
        self.verdicts[verdict] += 1
        self.shown["error" if result.error is not None else verdict] += 1
        self.total += 1
        if result.unsupported is not None:
            feature = result.unsupported.feature
            reason = f"{result.suite}/{result.case_id}: {result.unsupported.reason}"
            count, first = self.unsupported.get(feature, (0, reason))
            self.unsupported[feature] = (count + 1, first)
        if verdict == "fail":
            self.failing.add(result)
        if verdict != "pass":
            self.not_passed.add(result)


def _results_schema(_source: object, handler: GetCoreSchemaHandler) -> CoreSchema:
    """A list of results, or the store's `StoredResults` kept as it is (never loaded). Either is
    written as the list of results; JSON holds the list."""
    listed = handler.generate_schema(list[CaseResult])
    return core_schema.json_or_python_schema(
        json_schema=listed,
        python_schema=core_schema.union_schema(
            [core_schema.is_instance_schema(StoredResults), listed]
        ),
        serialization=core_schema.wrap_serializer_function_ser_schema(_listed, schema=listed),
    )


def _listed(
    results: list[CaseResult] | StoredResults, write: core_schema.SerializerFunctionWrapHandler
) -> object:
    return write(list(results) if isinstance(results, StoredResults) else results)


#: A report's cases in report order: a list, or the store's `StoredResults` for a streamed report
#: (a sequence that reads them again, in order, on every pass, and holds none).
CaseResults = Annotated[
    list[CaseResult] | StoredResults, GetPydanticSchema(get_pydantic_core_schema=_results_schema)
]


class Report(BaseModel):
    """The JSON run report (``report_type: failproof_run``); key names follow the seeds.

    A report built by `build_report_streaming` holds no results: its ``results`` is the store's
    `StoredResults`, a sequence that reads them again, in order, on every pass.
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)

    report_type: Literal["failproof_run"] = "failproof_run"
    schema_version: str = SCHEMA_VERSION
    generated_at: datetime = Field(default_factory=utc_now)
    run: Run
    summary: Summary = Field(default_factory=Summary)
    suites: dict[str, SuiteRow] = Field(default_factory=dict)
    aggregate_metrics: AggregateMetrics | None = None
    observability: Observability | None = None
    safe_v0: SafeBatchReport | None = None
    extensions: dict[str, Any] = Field(
        default_factory=dict, description="Sections of third-party aggregators, by name."
    )
    results: CaseResults = Field(default_factory=list)
    _digest: CaseDigest | None = PrivateAttr(default=None)

    @field_validator("extensions")
    @classmethod
    def _typed_sections(cls, sections: dict[str, Any]) -> dict[str, Any]:
        """A section whose type is declared (`declare_section`) is read back as that model, so
        a report from JSON holds what the run's report held; one of another shape (written by
        another version) stays as it was read, and is drawn as generic tables."""
        return {name: _typed(name, value) for name, value in sections.items()}

    def __eq__(self, other: object) -> bool:
        """Equal reports have equal fields (a streamed one's results equal the same list); how
        the results are held is not compared."""
        if not isinstance(other, Report):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

    @property
    def source(self) -> StoredResults | None:
        """Where a streamed report reads its cases (None: they are in ``results``)."""
        return self.results if isinstance(self.results, StoredResults) else None

    def cases(self) -> Iterator[CaseResult]:
        """Every case in report order (a streamed report reads them from the store again)."""
        return iter(self.results)

    @property
    def case_count(self) -> int:
        return len(self.results)

    def digest(self) -> CaseDigest:
        """The verdict counts over every case (computed once)."""
        if self._digest is None:
            digest = CaseDigest()
            for result in self.cases():
                digest.add(result)
            self._digest = digest
        return self._digest


def _typed(name: str, value: object) -> object:
    model = section_models.get(name)
    if model is None or not isinstance(value, dict):
        return value
    try:
        return model.model_validate(value)
    except ValidationError:
        return value


def build_report(
    run: Run,
    results: Iterable[CaseResult],
    settings: Settings | None = None,
) -> Report:
    """The report of ``run``: the metrics step's sections, assembled.

    Aggregates read the scoring recorded with ``run``, never the environment; ``settings`` only
    stand in for a run made before scoring records. Given a store's `StoredResults`
    (``store.stream(run_id)``) the report is built by the streaming pass and holds no results.
    """
    if isinstance(results, StoredResults):
        return _streamed(run, results, settings)
    done = aggregate_run(run, results, settings)
    return Report(run=run, results=done.results, extensions=done.extensions, **done.sections)


def build_report_streaming(
    store: Store,
    run_id: str,
    settings: Settings | None = None,
    *,
    chunk: int = 1000,
) -> Report:
    """The report of run ``run_id`` in bounded memory: one pass over the store computes every
    section (accumulators), and the renderers read the cases again, ``chunk`` at a time."""
    return _streamed(store.get_run(run_id), store.stream(run_id, chunk=chunk), settings)


def _streamed(run: Run, source: StoredResults, settings: Settings | None) -> Report:
    builder = ReportBuilder(run, settings)
    for result in source:
        builder.add(result)
    return builder.finish(run, source)


class ReportBuilder:
    """The report of a run whose results are given one at a time, in report order (as a run
    stores them, say); `finish` gives the report, reading its cases from the store.

    ``run`` need only carry the run's scoring record and planned count (the report is of the run
    given to `finish`); ``settings`` stand in for a run made before scoring records.
    """

    def __init__(
        self, run: Run, settings: Settings | None = None, *, given: Given | None = None
    ) -> None:
        self.digest = CaseDigest()
        feed = [_DigestFeed(self.digest)]
        self.aggregation = Aggregation(run, settings, also=feed, given=given)

    def add(self, result: CaseResult) -> None:
        self.aggregation.add(result)

    def finish(self, run: Run, source: StoredResults) -> Report:
        """The report of ``run``, whose results ``source`` holds: exactly those added, in order."""
        done = self.aggregation.finish(source)
        report = Report(run=run, results=source, extensions=done.extensions, **done.sections)
        report._digest = self.digest
        return report


class _DigestFeed:
    def __init__(self, digest: CaseDigest) -> None:
        self.digest = digest

    def add(self, result: CaseResult) -> None:
        self.digest.add(result)

    def finish(self) -> dict[str, Any] | None:
        return None
