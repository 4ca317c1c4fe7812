"""Fetching a dataset file: HTTP(S) only, bounded in size and time, checked by SHA-256."""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from failproof.errors import InputError

__all__ = ["MAX_BYTES", "ChecksumError", "fetch_file", "sha256_of"]

#: The largest dataset file failproof fetches (the known ones are under 1 MB).
MAX_BYTES = 64 * 1024 * 1024
_CHUNK = 1 << 16


class ChecksumError(InputError):
    """A fetched or cached file's SHA-256 is not the one expected: it is refused."""


def sha256_of(path: Path) -> str:
    """The SHA-256 of a file, in hex."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _download(url: str, into: Path, timeout_s: float) -> str:
    if not url.startswith(("https://", "http://")):
        raise InputError(f"{url}: only http and https URLs are fetched")
    digest, size = hashlib.sha256(), 0
    request = urllib.request.Request(url, headers={"User-Agent": "failproof"})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as answer, into.open("wb") as out:
            for chunk in iter(lambda: answer.read(_CHUNK), b""):
                size += len(chunk)
                if size > MAX_BYTES:
                    raise InputError(f"{url}: larger than {MAX_BYTES:,} bytes; not fetched")
                digest.update(chunk)
                out.write(chunk)
    except urllib.error.HTTPError as exc:
        raise InputError(f"{url}: the server answered {exc.code} {exc.reason}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise InputError(
            f"{url}: cannot fetch ({reason})", hint="check the network or --mirror"
        ) from None
    return digest.hexdigest()


def fetch_file(url: str, dest: Path, expected: str | None, *, timeout_s: float = 60.0) -> str:
    """Fetch ``url`` to ``dest`` (atomically) and return its SHA-256; with ``expected``, a
    different checksum raises `ChecksumError` and ``dest`` is left as it was."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=dest.parent, prefix=f".{dest.name}.")
    os.close(handle)
    temp = Path(name)
    try:
        found = _download(url, temp, timeout_s)
        if expected is not None and found != expected:
            raise ChecksumError(
                f"{dest.name}: SHA-256 {found} is not the expected {expected}; refused",
                hint="the file changed or was tampered with; check the source, then give "
                "--sha256 with the new value only if you trust it",
            )
        temp.replace(dest)
        return found
    finally:
        temp.unlink(missing_ok=True)
