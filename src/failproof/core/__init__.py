"""failproof's data contracts: cases, suites, responses, results and runs."""

from failproof.core._attack import Attack, AttackStep
from failproof.core._case import MAX_TURNS, Case, Expect, Message, SafeExpectations, Severity, Turn
from failproof.core._response import Response, parse_json_output
from failproof.core._result import (
    PRIMARY_CLASSES,
    CaseResult,
    Classification,
    Primary,
    Reason,
    Run,
    TurnResult,
    utc_now,
)
from failproof.core._suite import Suite
from failproof.core._tools import ForbiddenCall, ToolCall, ToolSpec, ToolUse

__all__ = [
    "MAX_TURNS",
    "PRIMARY_CLASSES",
    "Attack",
    "AttackStep",
    "Case",
    "CaseResult",
    "Classification",
    "Expect",
    "ForbiddenCall",
    "Message",
    "Primary",
    "Reason",
    "Response",
    "Run",
    "SafeExpectations",
    "Severity",
    "Suite",
    "ToolCall",
    "ToolSpec",
    "ToolUse",
    "Turn",
    "TurnResult",
    "parse_json_output",
    "utc_now",
]
