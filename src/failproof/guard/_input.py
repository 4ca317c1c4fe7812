"""Files and texts from outside read within limits: their size, their encoding, and the error
that says where one cannot be read. Nothing here parses; `_yaml` and the suite readers build on it
(importing YAML costs a JSON-only run nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["YAML_LIMITS", "UnreadableInput", "YamlLimits", "decode_text", "read_limited"]


@dataclass(frozen=True)
class YamlLimits:
    """How much a YAML text may hold; the defaults are far above any real suite or config."""

    max_bytes: int = 64 << 20
    max_depth: int = 200
    max_alias_expansion: int = 100_000
    max_nodes: int = 2_000_000


YAML_LIMITS = YamlLimits()


class UnreadableInput(ValueError):
    """A file or text from outside that cannot be read: where, and what to do about it."""

    def __init__(
        self, message: str, *, source: str, line: int | None = None, hint: str | None = None
    ) -> None:
        self.message, self.source, self.line, self.hint = message, source, line, hint
        where = source if line is None else f"{source}:{line}"
        super().__init__(f"{where}: {message}" + (f" ({hint})" if hint else ""))


# -- reading and decoding ---------------------------------------------------------------------

_BOMS = (
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def read_limited(path: Path, max_bytes: int) -> bytes:
    """The bytes of ``path``; more than ``max_bytes`` is refused before it is all read."""
    with path.open("rb") as handle:
        raw = handle.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise UnreadableInput(
            f"larger than {max_bytes:,} bytes; refusing to read it",
            source=str(path),
            hint="split the file, or check that it is the file you meant",
        )
    return raw


def decode_text(
    raw: bytes,
    *,
    source: str,
    encoding: str | None = None,
    hint: str = "save the file as UTF-8",
) -> str:
    """Text from bytes: ``encoding`` when given, else by byte-order mark (UTF-8, UTF-16 or
    UTF-32), else UTF-8; bytes that do not decode are refused naming their line."""
    name = encoding
    if name is None:
        found = next(((bom, enc) for bom, enc in _BOMS if raw.startswith(bom)), None)
        if found is not None:
            raw, name = raw[len(found[0]) :], found[1]
        else:
            name = "utf-8"
    try:
        return raw.decode(name)
    except LookupError:
        raise UnreadableInput(f"unknown encoding {name!r}", source=source) from None
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise UnreadableInput(
            f"not valid {name.upper() if name == 'utf-8' else name} (byte {exc.start})",
            source=source,
            line=line,
            hint=hint,
        ) from None
