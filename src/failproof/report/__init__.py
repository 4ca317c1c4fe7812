"""Reports: the Report object, verdicts and exit codes, and the renderers."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.report._compare import Comparison, compare_reports
    from failproof.report._html import HtmlRenderer
    from failproof.report._load import load_report
    from failproof.report._model import Report, build_report, build_report_streaming
    from failproof.report._render import Renderer, renderers, write_reports
    from failproof.report._verdict import ExitCode, exit_code

__all__ = [
    "Comparison",
    "ExitCode",
    "HtmlRenderer",
    "Renderer",
    "Report",
    "build_report",
    "build_report_streaming",
    "compare_reports",
    "exit_code",
    "load_report",
    "renderers",
    "write_reports",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(__name__)
