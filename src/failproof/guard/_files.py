"""Files written in one step: a reader sees the old file or the new one, never half of one."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

__all__ = ["atomic_write_text", "atomic_writer"]


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to a temporary file beside ``path``, then rename it over ``path``."""
    with atomic_writer(path) as out:
        out.write(text)


@contextlib.contextmanager
def atomic_writer(path: Path) -> Iterator[TextIO]:
    """A UTF-8 text handle on a temporary file beside ``path``, renamed over ``path`` when the
    block ends without an exception (and removed when it raises): for files written in parts."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with _naming(path):
        handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(temp, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        with _naming(path):
            os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


@contextlib.contextmanager
def _naming(path: Path) -> Iterator[None]:
    """An error about the temporary file names ``path``, the file that was asked for."""
    try:
        yield
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, str(path)) from None
