"""The files an importer reads: bounded in size, decoded by byte-order mark or the encoding the
user names, and, for files a config refers to, only inside the folder the user allowed.

A config from elsewhere must not make ``failproof import`` copy ``~/.ssh/id_rsa`` into a prompt:
``file://`` references (and their globs) resolve relative to the config, symlinks followed, and
must land inside ``root`` (the config's folder unless the user names another with ``--root``).
"""

from __future__ import annotations

import csv
import glob
import io
from dataclasses import dataclass, field
from pathlib import Path

from failproof.errors import InputError
from failproof.guard import UnreadableInput
from failproof.guard._input import decode_text, read_limited

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_REFERENCED_FILES",
    "MAX_TOTAL_BYTES",
    "FileRefs",
    "csv_rows",
    "read_source",
]

#: Largest file an importer reads (a benchmark CSV is a few MB).
MAX_FILE_BYTES = 64 << 20
#: Most text all the files of one config may hold together.
MAX_TOTAL_BYTES = 256 << 20
#: Most files one config may pull in through references and globs.
MAX_REFERENCED_FILES = 1000
_ENCODING_HINT = "save it as UTF-8, or name its encoding with --encoding (e.g. --encoding cp1252)"


def read_source(path: Path, encoding: str | None = None) -> str:
    """The text of ``path``: at most `MAX_FILE_BYTES`, by BOM or ``encoding``, else UTF-8."""
    try:
        raw = read_limited(path, MAX_FILE_BYTES)
        return decode_text(raw, source=str(path), encoding=encoding, hint=_ENCODING_HINT)
    except UnreadableInput as exc:
        raise InputError(str(exc)) from None
    except IsADirectoryError:
        raise InputError(f"{path} is a folder, not a file") from None


@dataclass
class FileRefs:
    """Resolves a config's ``file://`` references relative to ``base``, inside ``root``."""

    base: Path
    root: Path
    encoding: str | None = None
    seen: set[Path] = field(default_factory=set)
    total: int = 0
    texts: dict[Path, str] = field(default_factory=dict)

    @classmethod
    def beside(cls, config: Path, root: Path | None, encoding: str | None) -> FileRefs:
        base = config.resolve().parent
        return cls(base=base, root=(root or base).resolve(), encoding=encoding)

    def paths(self, ref: str, where: str) -> list[Path]:
        """The files ``ref`` names (a path or a glob, with or without ``file://``), sorted."""
        name = ref.removeprefix("file://").strip()
        if not name:
            raise InputError(f"{where}: an empty file reference")
        pattern = str(self.base / Path(name).expanduser())
        if glob.has_magic(name):  # a glob's folders are not files it names
            found = sorted(p for p in glob.glob(pattern, recursive=True) if not Path(p).is_dir())
        else:
            found = [pattern]
        if not found:
            raise InputError(
                f"{where}: {ref} matches no file", hint=f"paths are relative to {self.base}"
            )
        return [self._inside(Path(p), ref, where) for p in found]

    def label(self, path: Path) -> str:
        """``path`` as the summary names it: relative to the config when it is beside it."""
        return str(path.relative_to(self.base)) if path.is_relative_to(self.base) else str(path)

    def read(self, path: Path) -> str:
        """The text of ``path``, read once however often the config names it; all the files
        together at most `MAX_TOTAL_BYTES`."""
        if path not in self.texts:
            text = read_source(path, self.encoding)
            self.total += len(text)
            if self.total > MAX_TOTAL_BYTES:
                raise InputError(
                    f"{path}: the config's files hold more than {MAX_TOTAL_BYTES:,} characters",
                    hint="import the tests in parts",
                )
            self.texts[path] = text
        return self.texts[path]

    def _inside(self, path: Path, ref: str, where: str) -> Path:
        real = path.resolve()
        if not real.is_relative_to(self.root):
            raise InputError(
                f"{where}: {ref} is outside {self.root}; refusing to read it",
                hint="if you trust this config, allow the folder with --root DIR",
            )
        if not real.is_file():
            raise InputError(f"{where}: {ref}: no such file ({path})")
        self.seen.add(real)
        if len(self.seen) > MAX_REFERENCED_FILES:
            raise InputError(
                f"{where}: the config refers to more than {MAX_REFERENCED_FILES} files"
            )
        return real


def csv_rows(text: str, path: Path) -> list[tuple[int, dict[str, str]]]:
    """The rows of a CSV text with the line each starts on (fields up to `MAX_FILE_BYTES`)."""
    if csv.field_size_limit() < MAX_FILE_BYTES:
        csv.field_size_limit(MAX_FILE_BYTES)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    rows: list[tuple[int, dict[str, str]]] = []
    try:
        start = 2
        for row in reader:
            rows.append((start, {k: v or "" for k, v in row.items() if isinstance(k, str)}))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise InputError(f"{path}:{reader.line_num}: not valid CSV: {exc}") from None
    return rows
