"""Signals: the pattern library (YAML data), its loader, and the multi-pattern matcher."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.signals._cache import default_matcher, matcher_for, scan_response
    from failproof.signals._library import (
        SignalLibrary,
        builtin_pattern_files,
        load_library,
        read_pattern_file,
    )
    from failproof.signals._matcher import SignalMatcher
    from failproof.signals._schema import Pattern, PatternFile
    from failproof.signals._types import SignalHit, SignalKind, SignalScan

__all__ = [
    "Pattern",
    "PatternFile",
    "SignalHit",
    "SignalKind",
    "SignalLibrary",
    "SignalMatcher",
    "SignalScan",
    "builtin_pattern_files",
    "default_matcher",
    "load_library",
    "matcher_for",
    "read_pattern_file",
    "scan_response",
]

if not TYPE_CHECKING:  # type checkers see the imports above, never a catch-all
    __getattr__, __dir__ = lazy_exports(
        __name__,
        {
            "._cache": ("default_matcher", "matcher_for", "scan_response"),
            "._library": (
                "SignalLibrary",
                "builtin_pattern_files",
                "load_library",
                "read_pattern_file",
            ),
            "._matcher": ("SignalMatcher",),
            "._schema": ("Pattern", "PatternFile"),
            "._types": ("SignalHit", "SignalKind", "SignalScan"),
        },
    )
