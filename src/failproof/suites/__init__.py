"""Suites: loading suite files, the built-in suites, and the suite-file JSON Schema."""

from failproof.suites._loader import SUITE_SUFFIXES, load_suite, parse_suite
from failproof.suites._resolve import (
    builtin_suite_names,
    builtin_suites_dir,
    load_suites,
    resolve_suite,
)
from failproof.suites._schema import suite_json_schema
from failproof.suites._select import Selection, parse_list, select_cases

__all__ = [
    "SUITE_SUFFIXES",
    "Selection",
    "builtin_suite_names",
    "builtin_suites_dir",
    "load_suite",
    "load_suites",
    "parse_list",
    "parse_suite",
    "resolve_suite",
    "select_cases",
    "suite_json_schema",
]
