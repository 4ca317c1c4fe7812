"""Suites: loading suite files, the built-in suites, and the suite-file JSON Schema."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.suites._loader import load_suite, parse_suite
    from failproof.suites._resolve import (
        builtin_suite_names,
        builtin_suites_dir,
        load_suites,
        resolve_suite,
    )
    from failproof.suites._schema import suite_json_schema
    from failproof.suites._select import Selection, parse_list, select_cases

__all__ = [
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

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._loader": ("load_suite", "parse_suite"),
            "._resolve": (
                "builtin_suite_names",
                "builtin_suites_dir",
                "load_suites",
                "resolve_suite",
            ),
            "._schema": ("suite_json_schema",),
            "._select": ("Selection", "parse_list", "select_cases"),
        },
    )
