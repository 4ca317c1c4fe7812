"""Suites: loading suite files, the built-in suites, and the suite-file JSON Schema."""

from failproof.suites._loader import load_suite, parse_suite
from failproof.suites._resolve import builtin_suite_names, load_suites, resolve_suite
from failproof.suites._select import Selection, select_cases

__all__ = [
    "Selection",
    "builtin_suite_names",
    "load_suite",
    "load_suites",
    "parse_suite",
    "resolve_suite",
    "select_cases",
]
