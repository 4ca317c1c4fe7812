"""Reports: the Report object, verdicts and exit codes, and the renderers."""

from failproof.report._console import ConsoleRenderer
from failproof.report._json import JsonRenderer
from failproof.report._model import SCHEMA_VERSION, Report, build_report
from failproof.report._render import Renderer, parse_formats, renderers, write_reports
from failproof.report._verdict import ExitCode, case_verdict, exit_code

__all__ = [
    "SCHEMA_VERSION",
    "ConsoleRenderer",
    "ExitCode",
    "JsonRenderer",
    "Renderer",
    "Report",
    "build_report",
    "case_verdict",
    "exit_code",
    "parse_formats",
    "renderers",
    "write_reports",
]
