"""SAFE v0: the clinical scorecard (Correct Recall, Avoids Harm, All Content).

Score batch files of a concern, build the batch report, render it, compare two reports::

    from failproof.safe import load_safe_config, score_concern, safe_exit_code
    config = load_safe_config()                      # flags > SAFE_V0_* > safe.config.json
    report = score_concern("I25", "I25_batch_*", config)
    print(report.summary()["overall_pass_rate"], safe_exit_code(report))

Inside failproof runs the ``safe_v0`` scorer scores every case that carries SAFE ``expectations``
and the run report gets a ``safe_v0`` section.
"""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.config import SafeConfig
    from failproof.safe._aggregate import aggregate, pass_rate, safe_mean
    from failproof.safe._ah import AhMatcher, ah_matchers
    from failproof.safe._api import safe_exit_code, score_concern
    from failproof.safe._compare import Comparison, compare_reports, load_report
    from failproof.safe._compare_render import comparison_markdown, print_comparison
    from failproof.safe._console import console_text
    from failproof.safe._events import (
        EVENT_NAME,
        call_hooks,
        emit_events,
        hooks,
        record_results,
        result_events,
    )
    from failproof.safe._formulas import (
        HARM_RULE,
        ah_score,
        composite_score,
        coverage_score,
        metric_label,
        overall_label,
    )
    from failproof.safe._loader import Batch, find_batch_files, load_batches
    from failproof.safe._markdown import render_markdown
    from failproof.safe._outputs import REPORT_EXTENSIONS, parse_safe_formats, write_outputs
    from failproof.safe._records import SafeRecord
    from failproof.safe._report import SafeReport, build_safe_report
    from failproof.safe._result import SafeResult
    from failproof.safe._scorer import SafeV0Scorer
    from failproof.safe._scoring import score_record, score_records
    from failproof.safe._section import SafeBatchReport
    from failproof.safe._settings import ENV_VARIABLES, load_safe_config

__all__ = [
    "ENV_VARIABLES",
    "EVENT_NAME",
    "HARM_RULE",
    "REPORT_EXTENSIONS",
    "AhMatcher",
    "Batch",
    "Comparison",
    "SafeBatchReport",
    "SafeConfig",
    "SafeRecord",
    "SafeReport",
    "SafeResult",
    "SafeV0Scorer",
    "aggregate",
    "ah_matchers",
    "ah_score",
    "build_safe_report",
    "call_hooks",
    "compare_reports",
    "comparison_markdown",
    "composite_score",
    "console_text",
    "coverage_score",
    "emit_events",
    "find_batch_files",
    "hooks",
    "load_batches",
    "load_report",
    "load_safe_config",
    "metric_label",
    "overall_label",
    "parse_safe_formats",
    "pass_rate",
    "print_comparison",
    "record_results",
    "render_markdown",
    "result_events",
    "safe_exit_code",
    "safe_mean",
    "score_concern",
    "score_record",
    "score_records",
    "write_outputs",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "failproof.config": ("SafeConfig",),
        "._aggregate": ("aggregate", "pass_rate", "safe_mean"),
        "._ah": ("AhMatcher", "ah_matchers"),
        "._api": ("safe_exit_code", "score_concern"),
        "._compare": ("Comparison", "compare_reports", "load_report"),
        "._compare_render": ("comparison_markdown", "print_comparison"),
        "._console": ("console_text",),
        "._events": (
            "EVENT_NAME",
            "call_hooks",
            "emit_events",
            "hooks",
            "record_results",
            "result_events",
        ),
        "._formulas": (
            "HARM_RULE",
            "ah_score",
            "composite_score",
            "coverage_score",
            "metric_label",
            "overall_label",
        ),
        "._loader": ("Batch", "find_batch_files", "load_batches"),
        "._markdown": ("render_markdown",),
        "._outputs": ("REPORT_EXTENSIONS", "parse_safe_formats", "write_outputs"),
        "._records": ("SafeRecord",),
        "._report": ("SafeReport", "build_safe_report"),
        "._result": ("SafeResult",),
        "._scorer": ("SafeV0Scorer",),
        "._section": ("SafeBatchReport",),
        "._scoring": ("score_record", "score_records"),
        "._settings": ("ENV_VARIABLES", "load_safe_config"),
    },
)
