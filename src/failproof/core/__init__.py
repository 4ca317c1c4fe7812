"""failproof's data contracts: cases, suites, responses, results and runs."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.core._attack import Attack, AttackStep
    from failproof.core._capabilities import Capabilities, Unsupported
    from failproof.core._case import Case, Expect, Message, Severity, Turn
    from failproof.core._response import Response
    from failproof.core._result import CaseResult, Classification, Run, TurnResult
    from failproof.core._scores import CaseScore, SafeCaseResult
    from failproof.core._sections import Interval, Number, Section
    from failproof.core._suite import Suite
    from failproof.core._tools import ToolCall, ToolSpec

__all__ = [
    "Attack",
    "AttackStep",
    "Capabilities",
    "Case",
    "CaseResult",
    "CaseScore",
    "Classification",
    "Expect",
    "Interval",
    "Message",
    "Number",
    "Response",
    "Run",
    "SafeCaseResult",
    "Section",
    "Severity",
    "Suite",
    "ToolCall",
    "ToolSpec",
    "Turn",
    "TurnResult",
    "Unsupported",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(__name__)
