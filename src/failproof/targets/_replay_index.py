"""Recorded responses found in their file by key, without holding them: `failproof score` of
millions of answers in flat memory.

`index_responses` reads the file once, checks every line as `load_responses` does (the same
errors, naming the line), and keeps per line only its key's hash, its byte offset and its line
number: 20 bytes an answer, sorted by hash. `ResponseIndex.find` reads and checks one line again
when its case comes (the key compared in full: a hash shared by two keys costs a second read,
never a wrong answer). The first `HELD` answers stay in memory, so a small file is read once;
when they are the whole file, a dictionary finds them by key.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from failproof.core import Case
from failproof.core._closing import Closing
from failproof.errors import ResponsesError
from failproof.targets._replay import Located, RecordedResponse, parse_line

__all__ = ["HELD", "ResponseIndex", "index_responses"]

#: Answers kept in memory after the first read (about 2 KB each); past that they are read again.
HELD = 10_000

Key = tuple[str | None, str]


def _hash(key: Key) -> int:
    return hash(key)  # stable within the process, which is the index's whole life


class ResponseIndex(Closing):
    """The recorded responses of one JSONL file, found by (suite, case_id) or (None, case_id)."""

    def __init__(self, path: Path, lines: _Lines, held: list[RecordedResponse]) -> None:
        self.source = str(path)
        self.path = path
        hashes = np.frombuffer(lines.hashes, dtype=np.int64)
        order = np.argsort(hashes, kind="stable")
        self._hashes: NDArray[np.int64] = hashes[order]
        self._at: NDArray[np.int64] = order.astype(np.int64)
        self._offsets: NDArray[np.int64] = np.frombuffer(lines.offsets, dtype=np.int64)
        self._linenos: NDArray[np.int64] = np.frombuffer(lines.linenos, dtype=np.int64)
        self._used = np.zeros(len(hashes), dtype=np.bool_)
        self._held = held
        self._by_key: dict[Key, list[int]] | None = None
        if len(held) == len(hashes):
            self._by_key = {}
            for index, record in enumerate(held):
                self._by_key.setdefault((record.suite, record.case_id), []).append(index)
        self._file = path.open("rb")

    def __len__(self) -> int:
        return len(self._offsets)

    def close(self) -> None:
        self._file.close()

    def record(self, index: int) -> RecordedResponse:
        """The answer on the ``index``-th answer line of the file."""
        if index < len(self._held):
            return self._held[index]
        self._file.seek(int(self._offsets[index]))
        return parse_line(self._file.readline(), self.path, int(self._linenos[index]))

    def refuse_duplicates(self) -> None:
        """A second answer for one key is an error naming the first such line (hashes shared
        by different keys are told apart by reading the lines)."""
        seconds: list[int] = []
        shared = np.flatnonzero(self._hashes[1:] == self._hashes[:-1]).tolist()
        for h in sorted({int(self._hashes[at]) for at in shared}):
            first: dict[Key, int] = {}
            for index in sorted(self._indices(h)):
                record = self.record(index)
                key = (record.suite, record.case_id)
                if key in first:
                    seconds.append(index)
                first.setdefault(key, index)
        if seconds:
            record = self.record(min(seconds))
            where = f"suite {record.suite!r}, " if record.suite else ""
            raise ResponsesError(
                f"{self.path}:{int(self._linenos[min(seconds)])}: second response for "
                f"{where}case {record.case_id!r}",
                hint="keep one response per case (use 'suite' to tell apart equal ids)",
            )

    def _indices(self, h: int) -> list[int]:
        """The answer lines whose key hashes to ``h``."""
        start = int(self._hashes.searchsorted(h, side="left"))
        stop = int(self._hashes.searchsorted(h, side="right"))
        return [int(i) for i in self._at[start:stop]]

    def _matches(self, key: Key) -> Iterator[tuple[int, RecordedResponse]]:
        """The answer lines whose key is ``key``, with their answers (at most one: duplicates
        are refused)."""
        if self._by_key is not None:
            yield from ((index, self._held[index]) for index in self._by_key.get(key, ()))
            return
        for index in self._indices(_hash(key)):
            record = self.record(index)
            if (record.suite, record.case_id) == key:
                yield index, record

    def _lookup(self, case: Case) -> list[tuple[int, RecordedResponse]]:
        """The answers of ``case``: under its suite and id, then under its id alone."""
        keys = ((case.suite, case.id), (None, case.id))
        return [found for key in keys for found in self._matches(key)]

    def locate(self, case: Case) -> Located | None:
        """``case``'s answer and its line's place, or None; every answer that names the case is
        marked as used."""
        found = self._lookup(case)
        for index, _ in found:
            self._used[index] = True
        return Located(*found[0]) if found else None

    def find(self, case: Case) -> RecordedResponse | None:
        """``case``'s answer, or None; every answer that names the case is marked as used."""
        located = self.locate(case)
        return located.record if located else None

    def mark(self, cases: Iterable[Case]) -> None:
        """Mark the answers that name any of ``cases`` as used."""
        for case in cases:
            for index, _ in self._lookup(case):
                self._used[index] = True

    def unmatched(self, cases: Iterable[Case] = ()) -> list[Key]:
        """Answers that belong to no case found so far nor of ``cases``, sorted."""
        self.mark(cases)
        out = []
        for index in np.flatnonzero(~self._used).tolist():
            record = self.record(int(index))
            out.append((record.suite, record.case_id))
        return sorted(out, key=lambda k: (k[0] or "", k[1]))


class _Lines:
    """Per answer line: its key's hash, byte offset and line number (8 bytes each)."""

    def __init__(self) -> None:
        self.hashes, self.offsets, self.linenos = array("q"), array("q"), array("q")


def _read_lines(path: Path) -> Iterator[tuple[int, int, bytes]]:
    """(line number, byte offset, line) of every line of ``path``."""
    try:
        handle = path.open("rb")
    except OSError as exc:
        raise ResponsesError(f"{path}: cannot read responses file: {exc.strerror}") from None
    with handle:
        offset = 0
        for lineno, line in enumerate(handle, start=1):
            yield lineno, offset, line
            offset += len(line)


def index_responses(path: str | Path) -> ResponseIndex:
    """Check every line of a JSONL file of recorded responses and index them by key;
    `ResponsesError` names the line of any problem, a second answer for a case included."""
    path = Path(path)
    lines = _Lines()
    held: list[RecordedResponse] = []
    for lineno, offset, line in _read_lines(path):
        if not line.strip():
            continue
        record = parse_line(line, path, lineno)
        lines.hashes.append(_hash((record.suite, record.case_id)))
        lines.offsets.append(offset)
        lines.linenos.append(lineno)
        if len(held) < HELD:
            held.append(record)
    index = ResponseIndex(path, lines, held)
    try:
        index.refuse_duplicates()
    except ResponsesError:
        index.close()
        raise
    return index
