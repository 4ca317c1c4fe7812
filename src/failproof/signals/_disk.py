"""Checked pattern files kept on disk, so that a second run loads them instead of checking again.

Reading a pattern file means parsing its YAML, validating every pattern, compiling each regex
with RE2 and running it on its examples and counterexamples: about 0.2 s of CPU for the built-in
library. The outcome depends only on the file's bytes, the RE2 build and failproof's version, so
the checked patterns are kept as JSON under a key made of the three, in the folder the command
line names (`failproof.signals.use_cache_folder`; none: nothing is kept), and reused while the
key holds.

A cache file buys time, never trust. One that is not a regular file owned by this user and
writable by no one else, is too large, is not the expected JSON, was made for another key or no
longer matches its own checksum is ignored: the pattern file is checked again and the entry
written anew. Writing is best-effort (a read-only folder only costs time), through a temporary
file renamed into place, so a reader never sees half an entry.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from failproof._version import __version__
from failproof.signals._folder import cache_folder
from failproof.signals._schema import Pattern

__all__ = ["remembered"]

#: Changes whenever the layout of an entry changes: older entries are then never read.
_FORMAT = 1
#: Largest entry read (the built-in library's largest file makes about 150 KB).
_MAX_BYTES = 16 << 20


class _Entry(BaseModel):
    """One pattern file's checked patterns, as written to disk."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    key: str
    checksum: str
    patterns: tuple[Pattern, ...]


def remembered(raw: bytes, check: Callable[[], tuple[Pattern, ...]]) -> tuple[Pattern, ...]:
    """The patterns of the pattern file whose bytes are ``raw``: kept ones when an entry for
    these bytes is on disk and sound, else ``check()``'s (then kept for the next run)."""
    folder = cache_folder()
    if folder is None:
        return check()
    key = _key(raw)
    path = folder / f"{key[:40]}.json"
    kept = _load(path, key)
    if kept is not None:
        return kept
    patterns = check()
    _store(path, key, patterns)
    return patterns


def _key(raw: bytes) -> str:
    engine = f"{_FORMAT}|{__version__}|{_re2_build()}|".encode()
    return hashlib.sha256(engine + raw).hexdigest()


@functools.cache
def _re2_build() -> str:
    """The RE2 binding's version and the identity of its compiled extension."""
    from importlib.metadata import PackageNotFoundError, version

    import re2

    try:
        release = version("google-re2")
    except PackageNotFoundError:
        release = "unknown"
    extension = getattr(getattr(re2, "_re2", None), "__file__", None) or re2.__file__ or ""
    try:
        info = os.stat(extension)
    except OSError:
        return release
    return f"{release}|{info.st_size}|{info.st_mtime_ns}"


def _checksum(patterns: tuple[Pattern, ...]) -> str:
    canon = [p.model_dump(mode="json", by_alias=True) for p in patterns]
    return hashlib.sha256(json.dumps(canon, sort_keys=True).encode()).hexdigest()


def _load(path: Path, key: str) -> tuple[Pattern, ...] | None:
    raw = _read_own(path)
    if raw is None:
        return None
    try:
        entry = _Entry.model_validate_json(raw)
    except ValidationError:
        return None
    if entry.key != key or entry.checksum != _checksum(entry.patterns):
        return None
    return entry.patterns


def _read_own(path: Path) -> bytes | None:
    """The bytes of ``path`` if it is a small regular file of ours that no one else can write."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not _trusted(info) or info.st_size > _MAX_BYTES:
            return None
        with os.fdopen(os.dup(fd), "rb") as handle:
            return handle.read(_MAX_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _trusted(info: os.stat_result) -> bool:
    ours = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISREG(info.st_mode) and ours and not info.st_mode & 0o022


def _store(path: Path, key: str, patterns: tuple[Pattern, ...]) -> None:
    entry = _Entry(key=key, checksum=_checksum(patterns), patterns=patterns)
    with contextlib.suppress(OSError):
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(entry.model_dump_json(by_alias=True))
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
