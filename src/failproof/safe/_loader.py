"""Batch files: ``<data-dir>/<concern_id>/<batch_id>.json`` (a JSON array) or ``.jsonl``.

Every problem names the file and the record (``record[3]``, plus the line in JSONL). By default
the first problem stops the load with an `InputError`; with ``keep_going`` the bad record (or a
file that cannot be read at all) is skipped and listed in `LoadedBatches.skipped`, never dropped
silently.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from failproof.errors import InputError
from failproof.guard._json import JsonObject
from failproof.safe._records import SafeRecord

__all__ = ["Batch", "LoadedBatches", "SkippedRecord", "find_batch_files", "load_batches"]

_SUFFIXES = (".json", ".jsonl")


@dataclass(frozen=True, slots=True)
class SkippedRecord:
    """A record (or a whole file, ``index`` None) that ``--keep-going`` left out, and why."""

    file: str
    index: int | None
    line: int | None
    test_id: str | None
    error: str

    def to_json(self) -> JsonObject:
        return asdict(self)

    def describe(self) -> str:
        """``file: record[3] (line 4) (test_id 'x'): what is wrong``."""
        where = self.file
        if self.index is not None:
            where += f": record[{self.index}]"
        if self.line is not None:
            where += f" (line {self.line})"
        if self.test_id is not None:
            where += f" (test_id {self.test_id!r})"
        return f"{where}: {self.error}"


@dataclass(frozen=True, slots=True)
class Batch:
    """The valid records of one batch file."""

    batch_id: str
    path: Path
    records: tuple[SafeRecord, ...]


@dataclass(frozen=True, slots=True)
class LoadedBatches:
    """Every batch of a concern that the pattern matched, and what was skipped."""

    concern_id: str
    batches: tuple[Batch, ...]
    skipped: tuple[SkippedRecord, ...] = field(default_factory=tuple)

    @property
    def records(self) -> list[tuple[str, SafeRecord]]:
        """(batch_id, record) for every valid record, in file order."""
        return [(b.batch_id, r) for b in self.batches for r in b.records]


def _natural_key(path: Path) -> list[tuple[int, int | str]]:
    parts = re.split(r"(\d+)", path.name)
    return [(1, int(p)) if p.isdigit() else (0, p) for p in parts]


def find_batch_files(data_dir: Path, concern_id: str, pattern: str) -> list[Path]:
    """Batch files of ``concern_id`` whose batch id (file stem) or file name match ``pattern``."""
    folder = data_dir / concern_id
    if not folder.is_dir():
        raise InputError(
            f"no folder {folder} for concern {concern_id!r}",
            hint="batches live in <data-dir>/<concern_id>/<batch_id>.json; check --data-dir",
        )
    candidates = [p for p in folder.iterdir() if p.is_file() and p.suffix in _SUFFIXES]
    chosen = [p for p in candidates if fnmatchcase(p.stem, pattern) or fnmatchcase(p.name, pattern)]
    if not chosen:
        names = ", ".join(sorted(p.stem for p in candidates)) or "none"
        raise InputError(
            f"no batch file in {folder} matches {pattern!r}", hint=f"batches there: {names}"
        )
    return sorted(chosen, key=_natural_key)


@dataclass(frozen=True, slots=True)
class _Raw:
    index: int
    line: int | None
    value: Any


class _BadFile(Exception):
    """The whole file cannot be used (the message says why)."""


def _read_raw(path: Path) -> Iterator[_Raw]:
    """The file's records as parsed JSON, one at a time; `_BadFile` if the file is unusable.

    Each raw record is released once yielded, so a large batch is never held twice.
    """
    if path.suffix == ".jsonl":
        return _jsonl_records(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise _BadFile(f"cannot read the batch file: {exc}") from None
    except (json.JSONDecodeError, RecursionError) as exc:
        raise _BadFile(f"not valid JSON: {_json_problem(exc)}") from None
    if not isinstance(data, list):
        raise _BadFile(
            f"a .json batch must be a JSON array of records, not {_kind(data)} "
            "(write [ {record}, ... ], or one record a line in a .jsonl file)"
        )
    return _array_records(data)


def _array_records(data: list[Any]) -> Iterator[_Raw]:
    for index in range(len(data)):
        value, data[index] = data[index], None
        yield _Raw(index, None, value)


def _jsonl_records(path: Path) -> Iterator[_Raw]:
    index = number = 0
    try:
        with path.open(encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                yield _Raw(index, number, _parse_line(line))
                index += 1
    except (OSError, UnicodeDecodeError) as exc:
        where = f" after line {number}" if number else ""
        raise _BadFile(f"cannot read the batch file{where}: {exc}") from None


def _parse_line(line: str) -> Any:
    try:
        return json.loads(line)
    except (json.JSONDecodeError, RecursionError) as exc:
        return _NotJson(_json_problem(exc))


@dataclass(frozen=True, slots=True)
class _NotJson:
    problem: str


def _json_problem(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} (line {exc.lineno}, column {exc.colno})"
    return "nested too deeply"


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number")


def _format_loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _problem(raw: _Raw) -> tuple[SafeRecord | None, str | None]:
    """The validated record, or what is wrong with it."""
    if isinstance(raw.value, _NotJson):
        return None, f"not valid JSON: {raw.value.problem}"
    if not isinstance(raw.value, dict):
        return None, f"a record must be a JSON object, not {_kind(raw.value)}"
    try:
        return SafeRecord.model_validate(raw.value), None
    except ValidationError as exc:
        errors = exc.errors()
        first = errors[0]
        message = str(first["msg"]).removeprefix("Value error, ")
        loc = _format_loc(tuple(first["loc"]))
        text = f"{loc}: {message}" if loc else message
        if len(errors) > 1:
            text += f" (and {len(errors) - 1} more problem(s))"
        return None, text


def _test_id(raw: _Raw) -> str | None:
    value = raw.value.get("test_id") if isinstance(raw.value, dict) else None
    return value if isinstance(value, str) else None


class _Collector:
    """Records of every batch, duplicate test_id detection, and the skip-or-raise decision."""

    def __init__(self, keep_going: bool) -> None:
        self.keep_going = keep_going
        self.skipped: list[SkippedRecord] = []
        self.seen: dict[str, str] = {}

    def reject(self, skip: SkippedRecord) -> None:
        if not self.keep_going:
            raise InputError(
                skip.describe(), hint="fix the record, or pass --keep-going to skip it"
            )
        self.skipped.append(skip)

    def batch(self, path: Path) -> Batch:
        records: list[SafeRecord] = []
        try:
            for raw in _read_raw(path):
                if (record := self._record(path, raw)) is not None:
                    records.append(record)
        except _BadFile as exc:
            self.reject(SkippedRecord(str(path), None, None, None, str(exc)))
        return Batch(path.stem, path, tuple(records))

    def _record(self, path: Path, raw: _Raw) -> SafeRecord | None:
        record, error = _problem(raw)
        if record is not None and record.test_id in self.seen:
            error = f"duplicate test_id (first seen in {self.seen[record.test_id]})"
        if record is None or error is not None:
            self.reject(SkippedRecord(str(path), raw.index, raw.line, _test_id(raw), str(error)))
            return None
        self.seen[record.test_id] = f"{path} record[{raw.index}]"
        return record


def load_batches(
    data_dir: Path, concern_id: str, pattern: str, *, keep_going: bool = False
) -> LoadedBatches:
    """Load and validate every batch file of ``concern_id`` matching ``pattern``."""
    collector = _Collector(keep_going)
    batches = [collector.batch(path) for path in find_batch_files(data_dir, concern_id, pattern)]
    if not any(batch.records for batch in batches):
        skipped = len(collector.skipped)
        raise InputError(
            f"no valid record to score in {data_dir / concern_id} matching {pattern!r}",
            hint=f"{skipped} record(s) or file(s) were skipped"
            if skipped
            else "the files are empty",
        )
    return LoadedBatches(concern_id, tuple(batches), tuple(collector.skipped))
