"""failproof's data contracts: cases, suites, responses, results and runs."""

from failproof.core._case import Case, Expect, Message, SafeExpectations, Severity
from failproof.core._response import Response, parse_json_output
from failproof.core._result import (
    PRIMARY_CLASSES,
    CaseResult,
    Classification,
    Primary,
    Reason,
    Run,
    utc_now,
)
from failproof.core._scores import (
    CaseScore,
    HarmDetail,
    OpenModel,
    PhraseDetail,
    RefusalJudgement,
    SafeCaseResult,
    SafeDetails,
    SafeMetricLabels,
    SafeMetricScores,
    SemanticDetail,
    SignalMatch,
)
from failproof.core._sections import (
    AggregateMetrics,
    Interval,
    Observability,
    SafeBatchReport,
    SuiteRow,
    Summary,
)
from failproof.core._suite import Suite

__all__ = [
    "PRIMARY_CLASSES",
    "AggregateMetrics",
    "Case",
    "CaseResult",
    "CaseScore",
    "Classification",
    "Expect",
    "HarmDetail",
    "Interval",
    "Message",
    "Observability",
    "OpenModel",
    "PhraseDetail",
    "Primary",
    "Reason",
    "RefusalJudgement",
    "Response",
    "Run",
    "SafeBatchReport",
    "SafeCaseResult",
    "SafeDetails",
    "SafeExpectations",
    "SafeMetricLabels",
    "SafeMetricScores",
    "SemanticDetail",
    "Severity",
    "SignalMatch",
    "Suite",
    "SuiteRow",
    "Summary",
    "parse_json_output",
    "utc_now",
]
