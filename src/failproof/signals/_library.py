"""Load the signal library: the built-in YAML files, then user files that extend them."""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import re2
from pydantic import ValidationError

from failproof.errors import PatternError
from failproof.guard import UnreadableInput
from failproof.guard._input import YAML_LIMITS, read_limited
from failproof.signals._disk import remembered
from failproof.signals._schema import Pattern, PatternFile

__all__ = [
    "SignalLibrary",
    "builtin_pattern_files",
    "compile_options",
    "load_library",
    "read_pattern_file",
]

_DATA = Path(__file__).parent / "data"
_RE2_HINT = "patterns use RE2 syntax: no backreferences, no lookahead or lookbehind"


def compile_options() -> re2.Options:
    """RE2 options of every signal pattern: case-insensitive, UTF-8, a generous DFA budget."""
    options = re2.Options()
    options.case_sensitive = False
    options.max_mem = 256 << 20
    options.log_errors = False  # a bad user pattern is reported once, as a PatternError
    return options


def builtin_pattern_files() -> list[Path]:
    """The pattern files shipped in the package, in name order."""
    return sorted(_DATA.glob("*.yaml"))


@dataclass(frozen=True)
class SignalLibrary:
    """Every pattern, by id (later files override earlier ones), and the file each came from."""

    patterns: tuple[Pattern, ...]
    sources: dict[str, str] = field(default_factory=dict)
    files: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.patterns)

    def __iter__(self) -> Iterator[Pattern]:
        return iter(self.patterns)

    def get(self, pattern_id: str) -> Pattern:
        """The pattern with this id; ``KeyError`` if there is none."""
        for pattern in self.patterns:
            if pattern.id == pattern_id:
                return pattern
        raise KeyError(pattern_id)

    @functools.cached_property
    def digest(self) -> str:
        """A short hash of every pattern's content: two libraries with one digest scan alike."""
        canon = json.dumps(
            [p.model_dump(mode="json", by_alias=True) for p in self.patterns], sort_keys=True
        )
        return hashlib.sha256(canon.encode()).hexdigest()[:16]


def load_library(
    paths: Sequence[str | Path] | None = None, *, builtin: bool = True
) -> SignalLibrary:
    """The built-in library (unless ``builtin=False``) extended by ``paths``, in order.

    A pattern whose id is already loaded replaces it; every regex is compiled with RE2 so that a
    construct RE2 cannot run in linear time is rejected with a `PatternError` naming id and file.
    """
    shipped = builtin_pattern_files() if builtin else []
    given = [Path(p) for p in paths or ()]
    read = [*(_read_shipped(f) for f in shipped), *(read_pattern_file(f) for f in given)]
    merged: dict[str, Pattern] = {}
    sources: dict[str, str] = {}
    for path, patterns in zip([*shipped, *given], read, strict=True):
        for pattern in patterns:
            merged[pattern.id] = pattern
            sources[pattern.id] = str(path)
    return SignalLibrary(tuple(merged.values()), sources, tuple(str(f) for f in [*shipped, *given]))


@functools.cache
def _read_shipped(path: Path) -> tuple[Pattern, ...]:
    """A pattern file shipped in the package, read and checked once per process (it cannot
    change under a run; the patterns are frozen): the run's record and its matcher share it."""
    return read_pattern_file(path)


def read_pattern_file(path: Path) -> tuple[Pattern, ...]:
    """Parse, validate and compile-check one pattern file (or load it checked, see `_disk`)."""
    raw = _read_raw(path)
    return remembered(raw, lambda: _checked(raw, path))


def _checked(raw: bytes, path: Path) -> tuple[Pattern, ...]:
    parsed = _parse(path, _load_yaml(raw, path))
    seen: set[str] = set()
    for pattern in parsed.patterns:
        if pattern.id in seen:
            raise PatternError(f"{path}: pattern id {pattern.id!r} appears twice in one file")
        seen.add(pattern.id)
        _check_examples(pattern, _compile(pattern, path), path)
    return parsed.patterns


def _read_raw(path: Path) -> bytes:
    try:
        return read_limited(path, YAML_LIMITS.max_bytes)
    except FileNotFoundError:
        raise PatternError(f"{path}: pattern file not found") from None
    except OSError as exc:
        raise PatternError(f"{path}: cannot read pattern file: {exc}") from None
    except UnreadableInput as exc:
        raise _not_yaml(path, exc) from None


def _load_yaml(raw: bytes, path: Path) -> object:
    from failproof.guard import load_yaml  # read only when the checked-pattern cache misses

    try:
        return load_yaml(raw, source=str(path))
    except UnreadableInput as exc:
        raise _not_yaml(path, exc) from None


def _not_yaml(path: Path, exc: UnreadableInput) -> PatternError:
    where = f"{path}:{exc.line}" if exc.line else str(path)
    return PatternError(f"{where}: not valid YAML: {exc.message}", hint=exc.hint)


def _parse(path: Path, data: object) -> PatternFile:
    if data is None:
        return PatternFile()
    try:
        return PatternFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise PatternError(
            f"{path}: {_where(data, first['loc'])}: {first['msg']}",
            hint="see docs/probe_scoring.md for the pattern-file schema",
        ) from None


def _where(data: object, loc: Sequence[int | str]) -> str:
    if len(loc) >= 2 and loc[0] == "patterns" and isinstance(loc[1], int):
        items = data.get("patterns") if isinstance(data, dict) else None
        item = items[loc[1]] if isinstance(items, list) and loc[1] < len(items) else None
        name = item.get("id") if isinstance(item, dict) else None
        rest = ".".join(str(part) for part in loc[2:])
        label = f"pattern {name!r}" if name else f"pattern #{loc[1] + 1}"
        return f"{label}{': field ' + rest if rest else ''}"
    return ".".join(str(part) for part in loc) or "file"


def _compile(pattern: Pattern, path: Path) -> re2._Regexp:
    try:
        return re2.compile(pattern.regex, compile_options())
    except re2.error as exc:
        reason = exc.args[0] if exc.args else exc
        reason = reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)
        raise PatternError(
            f"{path}: pattern {pattern.id!r}: regex does not compile with RE2: {reason}",
            hint=_RE2_HINT,
        ) from None


def _check_examples(pattern: Pattern, compiled: re2._Regexp, path: Path) -> None:
    missed = _first(t for t in pattern.examples if compiled.search(t) is None)
    wrong = _first(t for t in pattern.counterexamples if compiled.search(t) is not None)
    if missed is not None:
        raise PatternError(f"{path}: pattern {pattern.id!r} does not match its example {missed!r}")
    if wrong is not None:
        raise PatternError(f"{path}: pattern {pattern.id!r} matches its counterexample {wrong!r}")


def _first(items: Iterable[str]) -> str | None:
    return next(iter(items), None)
