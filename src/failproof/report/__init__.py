"""Reports: the Report object, verdicts and exit codes, and the renderers."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.report._compare import (
        CaseChange,
        Comparison,
        Point,
        RunSide,
        Shift,
        SuiteShift,
        compare_reports,
        mcnemar_p,
    )
    from failproof.report._compare_md import compare_markdown
    from failproof.report._console import ConsoleRenderer
    from failproof.report._html import HtmlRenderer
    from failproof.report._html_pages import PAGE_SIZE
    from failproof.report._json import JsonRenderer
    from failproof.report._junit import JUnitRenderer
    from failproof.report._load import load_report, read_report
    from failproof.report._markdown import MarkdownRenderer
    from failproof.report._model import (
        SCHEMA_VERSION,
        Report,
        build_report,
        build_report_streaming,
    )
    from failproof.report._page import asset, content_security_policy, render_page
    from failproof.report._present.headline import headline
    from failproof.report._render import Renderer, parse_formats, renderers, write_reports
    from failproof.report._schema import report_json_schema
    from failproof.report._side_by_side import (
        SideBySide,
        SuiteScores,
        TargetColumn,
        side_by_side,
        side_by_side_markdown,
    )
    from failproof.report._verdict import ExitCode, case_verdict, exit_code

__all__ = [
    "PAGE_SIZE",
    "SCHEMA_VERSION",
    "CaseChange",
    "Comparison",
    "ConsoleRenderer",
    "ExitCode",
    "HtmlRenderer",
    "JUnitRenderer",
    "JsonRenderer",
    "MarkdownRenderer",
    "Point",
    "Renderer",
    "Report",
    "RunSide",
    "Shift",
    "SideBySide",
    "SuiteScores",
    "SuiteShift",
    "TargetColumn",
    "asset",
    "build_report",
    "build_report_streaming",
    "case_verdict",
    "compare_markdown",
    "compare_reports",
    "content_security_policy",
    "exit_code",
    "headline",
    "load_report",
    "mcnemar_p",
    "parse_formats",
    "read_report",
    "render_page",
    "renderers",
    "report_json_schema",
    "side_by_side",
    "side_by_side_markdown",
    "write_reports",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._compare": (
                "CaseChange",
                "Comparison",
                "Point",
                "RunSide",
                "Shift",
                "SuiteShift",
                "compare_reports",
                "mcnemar_p",
            ),
            "._compare_md": ("compare_markdown",),
            "._console": ("ConsoleRenderer",),
            "._html": ("HtmlRenderer",),
            "._html_pages": ("PAGE_SIZE",),
            "._json": ("JsonRenderer",),
            "._junit": ("JUnitRenderer",),
            "._load": ("load_report", "read_report"),
            "._markdown": ("MarkdownRenderer",),
            "._model": (
                "SCHEMA_VERSION",
                "Report",
                "build_report",
                "build_report_streaming",
            ),
            "._page": ("asset", "content_security_policy", "render_page"),
            "._present.headline": ("headline",),
            "._render": ("Renderer", "parse_formats", "renderers", "write_reports"),
            "._schema": ("report_json_schema",),
            "._side_by_side": (
                "SideBySide",
                "SuiteScores",
                "TargetColumn",
                "side_by_side",
                "side_by_side_markdown",
            ),
            "._verdict": ("ExitCode", "case_verdict", "exit_code"),
        },
    )
