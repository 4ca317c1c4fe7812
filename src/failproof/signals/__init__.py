"""Signals: the pattern library (YAML data), its loader, and the multi-pattern matcher."""

from failproof.signals._cache import default_matcher, matcher_for, scan_response
from failproof.signals._library import SignalLibrary, load_library
from failproof.signals._matcher import SignalMatcher
from failproof.signals._schema import Pattern
from failproof.signals._types import SignalHit, SignalScan

__all__ = [
    "Pattern",
    "SignalHit",
    "SignalLibrary",
    "SignalMatcher",
    "SignalScan",
    "default_matcher",
    "load_library",
    "matcher_for",
    "scan_response",
]
