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
    from failproof.signals._matcher import DEFAULT_OPENING_CHARS, SignalMatcher
    from failproof.signals._schema import Pattern, PatternFile
    from failproof.signals._types import SignalHit, SignalKind, SignalPosition, SignalScan

__all__ = [
    "DEFAULT_OPENING_CHARS",
    "Pattern",
    "PatternFile",
    "SignalHit",
    "SignalKind",
    "SignalLibrary",
    "SignalMatcher",
    "SignalPosition",
    "SignalScan",
    "builtin_pattern_files",
    "default_matcher",
    "load_library",
    "matcher_for",
    "read_pattern_file",
    "scan_response",
]

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
        "._matcher": ("DEFAULT_OPENING_CHARS", "SignalMatcher"),
        "._schema": ("Pattern", "PatternFile"),
        "._types": ("SignalHit", "SignalKind", "SignalPosition", "SignalScan"),
    },
)
