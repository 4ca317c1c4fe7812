"""Matchers compiled once per pattern-file set, and the one scan per response shared by scorers."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from failproof.signals._library import SignalLibrary, load_library
from failproof.signals._matcher import DEFAULT_OPENING_CHARS, SignalMatcher
from failproof.signals._types import SignalScan

__all__ = ["builtin_library", "default_matcher", "library_for", "matcher_for", "scan_response"]

T = TypeVar("T")


class _ProbePart(Protocol):
    @property
    def patterns(self) -> Sequence[str]: ...
    @property
    def opening_chars(self) -> int: ...


class _HasProbe(Protocol):
    """Settings or a run's scoring record: anything with ``probe.patterns``."""

    @property
    def probe(self) -> _ProbePart: ...


class _Output(Protocol):
    @property
    def output(self) -> str: ...


class _Memo(Protocol):
    """What the scan is memoized on: the scorers' shared evidence of one response."""

    @property
    def response(self) -> _Output: ...

    def memo(self, key: str, compute: Callable[[], T]) -> T: ...


#: The `Evidence.memo` key of the signal scan.
SIGNALS_KEY = "signals"

_FileStamp = tuple[str, int, int]


def builtin_library() -> SignalLibrary:
    """The built-in library, checked once per process (the same object `default_matcher`
    compiles, so its digest is computed once)."""
    return _library(())


def default_matcher() -> SignalMatcher:
    """The built-in library, compiled once per process."""
    return _cached((), DEFAULT_OPENING_CHARS)


def matcher_for(settings: _HasProbe) -> SignalMatcher:
    """The built-in library extended by ``settings.probe.patterns``, compiled once per file set.

    A file edited since it was last compiled (new size or modification time) is compiled again.
    """
    stamps = tuple(_stamp(Path(p)) for p in settings.probe.patterns)
    return _cached(stamps, settings.probe.opening_chars)


def library_for(settings: _HasProbe) -> SignalLibrary:
    """The patterns `matcher_for` would compile, checked but not compiled (a run's record needs
    them; the RE2 programs are built where answers are scanned, in the scoring workers)."""
    return _library(tuple(_stamp(Path(p)) for p in settings.probe.patterns))


def scan_response(evidence: _Memo, matcher: SignalMatcher) -> SignalScan:
    """The scan of ``evidence.response.output``, computed once and shared by every scorer."""
    return evidence.memo(SIGNALS_KEY, lambda: matcher.scan(evidence.response.output))


def _stamp(path: Path) -> _FileStamp:
    try:
        stat = path.stat()
    except OSError:  # load_library reports the missing file with its name
        return (str(path), -1, -1)
    return (str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=16)
def _library(stamps: tuple[_FileStamp, ...]) -> SignalLibrary:
    return load_library([stamp[0] for stamp in stamps])


@functools.lru_cache(maxsize=16)
def _cached(stamps: tuple[_FileStamp, ...], opening_chars: int) -> SignalMatcher:
    return SignalMatcher(_library(stamps), opening_chars=opening_chars)
