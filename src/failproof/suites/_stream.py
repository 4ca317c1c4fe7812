"""Suites whose cases are read as they are run: a JSONL suite of millions of cases in flat memory.

`stream_suites` checks every suite file completely before anything runs (the same errors as
`load_suites`, naming the line), but keeps of a JSONL file only its first `HELD` cases and, for
its duplicate-id check, one 8-byte hash per case; `SuiteSource.cases` then reads the rest of the
file again, line by line. Other suites (YAML, JSON, built-in names, JSONL in UTF-16 or UTF-32)
are loaded whole, as `load_suites` does.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from failproof.core import Case, Suite
from failproof.errors import SuiteError
from failproof.guard._input import YAML_LIMITS
from failproof.suites._loader import check_unique, jsonl_case, stem_name
from failproof.suites._resolve import resolve_suite, unique_names

__all__ = ["HELD", "SuiteSource", "stream_suites"]

#: Cases of a JSONL suite kept in memory after the check; past that they are read again.
HELD = 10_000

_OTHER_BOMS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")


@dataclass
class SuiteSource:
    """A suite's name, weight and size, and its cases in order (read again when not held)."""

    name: str
    weight: float
    source: str | None
    count: int
    has_expectations: bool
    held: tuple[Case, ...]
    resume_at: int | None = None  # byte offset of the first case not held
    resume_line: int = 0
    description: str = ""
    _path: Path | None = field(default=None, repr=False)
    _stamp: tuple[int, int] = field(default=(0, 0), repr=False)  # size, mtime when checked

    @classmethod
    def of(cls, suite: Suite) -> SuiteSource:
        """A suite loaded whole."""
        return cls(
            name=suite.name,
            weight=suite.weight,
            source=suite.source,
            count=len(suite.cases),
            has_expectations=any(c.expectations is not None for c in suite.cases),
            held=suite.cases,
            description=suite.description,
        )

    def cases(self) -> Iterator[Case]:
        """Every case of the suite, in the file's order."""
        yield from self.held
        if self.resume_at is None or self._path is None:
            return
        _check_stamp(self._path, self._stamp)
        for _, _, lineno, text in _lines(self._path, self.resume_at, self.resume_line):
            case = jsonl_case(text, lineno, self.name, str(self._path))
            if case is not None:
                yield case


def _stamp(path: Path) -> tuple[int, int]:
    stat = path.stat()
    return stat.st_size, stat.st_mtime_ns


def _check_stamp(path: Path, stamp: tuple[int, int]) -> None:
    """Refuse to read again a file that changed since it was checked: the cases read would not
    be the ones checked (nor those a run's fingerprint was computed from)."""
    if _stamp(path) != stamp:
        raise SuiteError(
            "the suite file changed while it was being read",
            path=str(path),
            hint="leave suite files alone while a run or a score reads them, then run again",
        )


def stream_suites(names_or_paths: Sequence[str | Path]) -> list[SuiteSource]:
    """Every suite checked, JSONL files kept as sources read again; names must be unique."""
    return unique_names(_source(item) for item in names_or_paths)


def _source(item: str | Path) -> SuiteSource:
    path = Path(item)
    if path.suffix.lower() == ".jsonl" and path.is_file() and not _other_encoding(path):
        return _check_jsonl(path)
    return SuiteSource.of(resolve_suite(item))


def _other_encoding(path: Path) -> bool:
    """The file starts with a UTF-16 or UTF-32 byte-order mark (read whole, as before)."""
    with path.open("rb") as handle:
        head = handle.read(4)
    return head.startswith(_OTHER_BOMS)


def _lines(path: Path, offset: int = 0, lineno: int = 0) -> Iterator[tuple[int, int, int, str]]:
    """From byte ``offset`` (after ``lineno`` lines) on: (byte offset of the physical line,
    lines before it, line number, text) of every line, numbered as `str.splitlines` numbers the
    whole text; a line that is not UTF-8 or longer than the suite-file limit is refused."""
    limit = YAML_LIMITS.max_bytes
    with path.open("rb") as handle:
        handle.seek(offset)
        while raw := handle.readline(limit + 1):
            if len(raw) > limit:
                raise SuiteError(
                    f"line longer than {limit:,} bytes; refusing to read it",
                    path=str(path),
                    line=lineno + 1,
                )
            before = lineno
            for part in _decoded(raw, path, offset, lineno).splitlines():
                lineno += 1
                yield offset, before, lineno, part
            offset += len(raw)


def _decoded(raw: bytes, path: Path, offset: int, lineno: int) -> str:
    bom = 3 if offset == 0 and raw.startswith(b"\xef\xbb\xbf") else 0
    try:
        return raw[bom:].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SuiteError(
            f"not valid UTF-8 (byte {offset + bom + exc.start})",
            path=str(path),
            line=lineno + 1,
            hint="save the file as UTF-8",
        ) from None


@dataclass
class _Check:
    """What the check of a JSONL file keeps: the first cases, one hash per id, the suite name."""

    path: Path
    name: str
    held: list[Case] = field(default_factory=list)
    hashes: array[int] = field(default_factory=lambda: array("q"))
    suite: str | None = None
    has_expectations: bool = False
    resume_at: int | None = None
    resume_line: int = 0

    def add(self, case: Case, offset: int, before: int) -> None:
        if self.suite is not None and case.suite != self.suite:
            names = sorted({self.suite, case.suite})
            raise SuiteError(f"cases name several suites: {names}", path=str(self.path))
        self.suite = case.suite
        self.has_expectations = self.has_expectations or case.expectations is not None
        self.hashes.append(hash(case.id))
        if len(self.held) < HELD:
            self.held.append(case)
        elif self.resume_at is None:
            self.resume_at, self.resume_line = offset, before


def _check_jsonl(path: Path) -> SuiteSource:
    stamp = _stamp(path)
    check = _Check(path, stem_name(str(path)))
    for offset, before, lineno, text in _lines(path):
        case = jsonl_case(text, lineno, check.name, str(path))
        if case is not None:
            check.add(case, offset, before)
    if not check.hashes:
        raise SuiteError("no cases in file", path=str(path), hint="one JSON object per line")
    _refuse_duplicates(path, check)
    source = SuiteSource(
        name=check.suite or check.name,
        weight=1.0,
        source=str(path),
        count=len(check.hashes),
        has_expectations=check.has_expectations,
        held=tuple(check.held),
        resume_at=check.resume_at,
        resume_line=check.resume_line,
    )
    source._path, source._stamp = path, stamp
    return source


def _repeated(hashes: array[int]) -> set[int]:
    """The values found more than once in ``hashes`` (sorted by numpy past `HELD` of them: a
    Python set of a million ints would cost far more memory)."""
    if len(hashes) <= HELD:
        seen: set[int] = set()
        repeated: set[int] = set()
        for value in hashes:
            (repeated if value in seen else seen).add(value)
        return repeated
    import numpy as np

    ordered = np.sort(np.frombuffer(hashes, dtype=np.int64))
    return set(ordered[1:][ordered[1:] == ordered[:-1]].tolist())


def _refuse_duplicates(path: Path, check: _Check) -> None:
    """Two cases with one id are refused as `load_suite` refuses them (the file is read again,
    for the ids whose hash is shared, only when there are some)."""
    shared = _repeated(check.hashes)
    if not shared:
        return
    seen: dict[str, int] = {}
    count = 0
    for _, _, lineno, text in _lines(path):
        case = jsonl_case(text, lineno, check.name, str(path))
        if case is None:
            continue
        count += 1
        if hash(case.id) in shared:
            if case.id in seen:
                check_unique(case, seen, str(path), lineno)  # raises, naming the first
            seen[case.id] = count
