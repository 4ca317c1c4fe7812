"""failproof's data contracts: cases, suites, responses, results and runs."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.core._attack import Attack, AttackStep
    from failproof.core._capabilities import Capabilities, Unsupported
    from failproof.core._case import (
        MAX_TURNS,
        Case,
        Expect,
        Message,
        RubricExpect,
        SafeExpectations,
        Severity,
        Turn,
    )
    from failproof.core._regex import re2_compiled, re2_problem
    from failproof.core._response import (
        MAX_OUTPUT_CHARS,
        Repairs,
        Response,
        parse_json_output,
    )
    from failproof.core._result import (
        PRIMARY_CLASSES,
        CaseResult,
        Classification,
        DecidedBy,
        Primary,
        Reason,
        Run,
        TurnResult,
        is_run_id,
        utc_now,
    )
    from failproof.core._scores import (
        CaseScore,
        OpenModel,
        SafeCaseResult,
    )
    from failproof.core._sections import Interval, Number, Section
    from failproof.core._suite import Suite
    from failproof.core._taxonomy import (
        TaxonomyCatalogue,
        TaxonomyCategory,
        TaxonomyFramework,
        TaxonomyId,
        check_taxonomy_id,
        taxonomy_catalogue,
    )
    from failproof.core._tools import (
        MAX_TOOL_CALLS,
        ForbiddenCall,
        McpServer,
        ToolCall,
        ToolSpec,
        ToolUse,
    )

__all__ = [
    "MAX_OUTPUT_CHARS",
    "MAX_TOOL_CALLS",
    "MAX_TURNS",
    "PRIMARY_CLASSES",
    "Attack",
    "AttackStep",
    "Capabilities",
    "Case",
    "CaseResult",
    "CaseScore",
    "Classification",
    "DecidedBy",
    "Expect",
    "ForbiddenCall",
    "Interval",
    "McpServer",
    "Message",
    "Number",
    "OpenModel",
    "Primary",
    "Reason",
    "Repairs",
    "Response",
    "RubricExpect",
    "Run",
    "SafeCaseResult",
    "SafeExpectations",
    "Section",
    "Severity",
    "Suite",
    "TaxonomyCatalogue",
    "TaxonomyCategory",
    "TaxonomyFramework",
    "TaxonomyId",
    "ToolCall",
    "ToolSpec",
    "ToolUse",
    "Turn",
    "TurnResult",
    "Unsupported",
    "check_taxonomy_id",
    "is_run_id",
    "parse_json_output",
    "re2_compiled",
    "re2_problem",
    "taxonomy_catalogue",
    "utc_now",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._attack": ("Attack", "AttackStep"),
            "._capabilities": ("Capabilities", "Unsupported"),
            "._case": (
                "MAX_TURNS",
                "Case",
                "Expect",
                "Message",
                "RubricExpect",
                "SafeExpectations",
                "Severity",
                "Turn",
            ),
            "._regex": ("re2_compiled", "re2_problem"),
            "._response": (
                "MAX_OUTPUT_CHARS",
                "MAX_TOKENS",
                "Repairs",
                "Response",
                "parse_json_output",
            ),
            "._result": (
                "PRIMARY_CLASSES",
                "CaseResult",
                "Classification",
                "DecidedBy",
                "Primary",
                "Reason",
                "Run",
                "TurnResult",
                "is_run_id",
                "utc_now",
            ),
            "._scores": (
                "CaseScore",
                "HarmDetail",
                "HarmJudgement",
                "OpenModel",
                "PhraseDetail",
                "RefusalJudgement",
                "SafeCaseResult",
                "SafeDetails",
                "SafeMetricLabels",
                "SafeMetricScores",
                "SemanticDetail",
                "SignalMatch",
            ),
            "._sections": ("Interval", "Number", "Section"),
            "._suite": ("Suite",),
            "._taxonomy": (
                "TaxonomyCatalogue",
                "TaxonomyCategory",
                "TaxonomyFramework",
                "TaxonomyId",
                "check_taxonomy_id",
                "taxonomy_catalogue",
            ),
            "._tools": (
                "MAX_TOOL_CALLS",
                "ForbiddenCall",
                "McpServer",
                "ToolCall",
                "ToolSpec",
                "ToolUse",
            ),
        },
    )
