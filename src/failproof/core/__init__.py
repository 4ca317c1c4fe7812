"""failproof's data contracts: cases, suites, responses, results and runs."""

from failproof.core._case import Case, Expect, Message, SafeExpectations, Severity
from failproof.core._response import (
    MAX_OUTPUT_CHARS,
    MAX_TOKENS,
    Repairs,
    Response,
    parse_json_output,
)
from failproof.core._result import (
    PRIMARY_CLASSES,
    CaseResult,
    Classification,
    Primary,
    Reason,
    Run,
    is_run_id,
    utc_now,
)
from failproof.core._suite import Suite

__all__ = [
    "MAX_OUTPUT_CHARS",
    "MAX_TOKENS",
    "PRIMARY_CLASSES",
    "Case",
    "CaseResult",
    "Classification",
    "Expect",
    "Message",
    "Primary",
    "Reason",
    "Repairs",
    "Response",
    "Run",
    "SafeExpectations",
    "Severity",
    "Suite",
    "is_run_id",
    "parse_json_output",
    "utc_now",
]
