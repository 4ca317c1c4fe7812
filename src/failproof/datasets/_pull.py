"""``pull``: fetch (or reuse) a dataset's files, verify them, convert them into one suite."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import ValidationError

from failproof.core import Case, Suite
from failproof.core._closed import Closed
from failproof.core._result import utc_now
from failproof.datasets._catalogue import DatasetFile, DatasetSpec
from failproof.datasets._convert import CONVERTERS, read_rows
from failproof.datasets._fetch import fetch_file, sha256_of
from failproof.errors import InputError

__all__ = ["FileOutcome", "PullOutcome", "pull_dataset"]


class _Locked(Closed):
    sha256: str
    url: str
    fetched_at: str


@dataclass(frozen=True)
class FileOutcome:
    """One file: where it is, its SHA-256, and how it was checked."""

    name: str
    path: Path
    sha256: str
    fetched: bool
    checked: Literal["pinned", "given", "recorded", "first_pull"]


@dataclass
class PullOutcome:
    """The dataset's suite and how each of its files was obtained."""

    suite: Suite
    files: list[FileOutcome] = field(default_factory=list)


def _lock_path(folder: Path) -> Path:
    return folder / "lock.json"


def _read_lock(folder: Path) -> dict[str, _Locked]:
    path = _lock_path(folder)
    if not path.is_file():
        return {}
    try:
        raw = json.loads(path.read_text("utf-8"))
        return {k: _Locked.model_validate(v) for k, v in raw.items()}
    except (ValueError, ValidationError, AttributeError):
        raise InputError(f"{path}: unreadable", hint="delete it and pull again") from None


def _write_lock(folder: Path, lock: Mapping[str, _Locked]) -> None:
    body = {k: v.model_dump() for k, v in sorted(lock.items())}
    _lock_path(folder).write_text(json.dumps(body, indent=2) + "\n", "utf-8")


def _expected(
    spec: DatasetFile, given: Mapping[str, str], lock: Mapping[str, _Locked]
) -> tuple[str | None, Literal["pinned", "given", "recorded", "first_pull"]]:
    if spec.name in given:
        return given[spec.name], "given"
    if spec.sha256:
        return spec.sha256, "pinned"
    if spec.name in lock:
        return lock[spec.name].sha256, "recorded"
    return None, "first_pull"


def _one_file(
    spec: DatasetFile,
    folder: Path,
    url: str,
    given: Mapping[str, str],
    lock: dict[str, _Locked],
    refresh: bool,
) -> FileOutcome:
    path = folder / spec.name
    expected, how = _expected(spec, given, lock)
    if path.is_file() and not refresh and (expected is None or sha256_of(path) == expected):
        found = sha256_of(path)
        if expected is None:  # cached before a lock was kept: record what is there
            how = "first_pull"
        fetched = False
    else:
        found = fetch_file(url, path, expected)
        fetched = True
    lock[spec.name] = _Locked(sha256=found, url=url, fetched_at=utc_now().isoformat())
    return FileOutcome(spec.name, path, found, fetched, how)


def _convert(spec: DatasetSpec, files: list[FileOutcome]) -> Suite:
    convert, columns = CONVERTERS[spec.converter]
    cases: list[Case] = []
    for file_spec, got in zip(spec.files, files, strict=True):
        try:
            text = got.path.read_text("utf-8-sig")
        except UnicodeDecodeError:
            raise InputError(f"{got.path}: not UTF-8 text") from None
        cases += convert(spec.name, file_spec.role, read_rows(text, columns, str(got.path)))
    if not cases:
        raise InputError(f"{spec.name}: the files hold no rows to convert")
    description = f"{spec.title} ({spec.licence}, {spec.homepage}), fetched and converted"
    return Suite(name=spec.name, description=description, weight=spec.weight, cases=tuple(cases))


def pull_dataset(
    spec: DatasetSpec,
    cache: Path,
    *,
    mirror: str | None = None,
    sha256: Mapping[str, str] | None = None,
    refresh: bool = False,
) -> PullOutcome:
    """Every file of ``spec`` in ``cache``/NAME (fetched when missing, ``refresh`` or not the
    expected checksum), each checked against the checksum given, pinned or recorded at the
    first pull; then the suite. A file whose checksum differs is refused and the cache keeps
    what it had."""
    folder = cache / spec.name
    folder.mkdir(parents=True, exist_ok=True)
    lock = _read_lock(folder)
    files = []
    for file_spec in spec.files:
        url = f"{mirror.rstrip('/')}/{spec.name}/{file_spec.name}" if mirror else file_spec.url
        files.append(_one_file(file_spec, folder, url, sha256 or {}, lock, refresh))
        _write_lock(folder, lock)
    return PullOutcome(_convert(spec, files), files)
