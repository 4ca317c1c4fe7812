"""Reports: the Report object, verdicts and exit codes, and the renderers."""

from failproof.report._console import ConsoleRenderer
from failproof.report._html import HtmlRenderer
from failproof.report._json import JsonRenderer
from failproof.report._junit import JUnitRenderer
from failproof.report._load import load_report, read_report
from failproof.report._markdown import MarkdownRenderer, md_code, md_text
from failproof.report._model import SCHEMA_VERSION, Report, build_report
from failproof.report._render import Renderer, parse_formats, renderers, write_reports
from failproof.report._verdict import ExitCode, case_verdict, exit_code

__all__ = [
    "SCHEMA_VERSION",
    "ConsoleRenderer",
    "ExitCode",
    "HtmlRenderer",
    "JUnitRenderer",
    "JsonRenderer",
    "MarkdownRenderer",
    "Renderer",
    "Report",
    "build_report",
    "case_verdict",
    "exit_code",
    "load_report",
    "md_code",
    "md_text",
    "parse_formats",
    "read_report",
    "renderers",
    "write_reports",
]
