"""Matchers compiled once per pattern-file set, and the one scan per response shared by scorers."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from failproof.signals._library import load_library
from failproof.signals._matcher import DEFAULT_OPENING_CHARS, SignalMatcher
from failproof.signals._types import SignalScan

if TYPE_CHECKING:
    from failproof.config import Settings
    from failproof.scoring import Evidence

__all__ = ["default_matcher", "matcher_for", "scan_response"]

#: The `Evidence.memo` key of the signal scan.
SIGNALS_KEY = "signals"

_FileStamp = tuple[str, int, int]


def default_matcher() -> SignalMatcher:
    """The built-in library, compiled once per process."""
    return _cached((), DEFAULT_OPENING_CHARS)


def matcher_for(settings: Settings) -> SignalMatcher:
    """The built-in library extended by ``settings.probe.patterns``, compiled once per file set.

    A file edited since it was last compiled (new size or modification time) is compiled again.
    """
    stamps = tuple(_stamp(Path(p)) for p in settings.probe.patterns)
    return _cached(stamps, settings.probe.opening_chars)


def scan_response(evidence: Evidence, matcher: SignalMatcher) -> SignalScan:
    """The scan of ``evidence.response.output``, computed once and shared by every scorer."""
    return evidence.memo(SIGNALS_KEY, lambda: matcher.scan(evidence.response.output))


def _stamp(path: Path) -> _FileStamp:
    try:
        stat = path.stat()
    except OSError:  # load_library reports the missing file with its name
        return (str(path), -1, -1)
    return (str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=16)
def _cached(stamps: tuple[_FileStamp, ...], opening_chars: int) -> SignalMatcher:
    library = load_library([stamp[0] for stamp in stamps])
    return SignalMatcher(library, opening_chars=opening_chars)
