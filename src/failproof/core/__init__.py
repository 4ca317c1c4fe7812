"""failproof's data contracts: cases, suites, responses, results and runs."""

from failproof.core._case import Case, Expect, Message, SafeExpectations, Severity
from failproof.core._regex import re2_compiled, re2_problem
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
from failproof.core._suite import Suite

__all__ = [
    "PRIMARY_CLASSES",
    "Case",
    "CaseResult",
    "Classification",
    "Expect",
    "Message",
    "Primary",
    "Reason",
    "Response",
    "Run",
    "SafeExpectations",
    "Severity",
    "Suite",
    "parse_json_output",
    "re2_compiled",
    "re2_problem",
    "utc_now",
]
