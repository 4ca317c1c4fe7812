"""Peer refusal detectors (published string lists) rebuilt from a JSON file, as baselines.

The file holds ``lists``: each a ``name``, its ``strings`` and its matching rule, given either as
a ``rule`` object (``{"match": "substring"|"prefix"|"word", "case_sensitive": false,
"strip": false, "normalize_apostrophes": false}``) or in prose under ``semantics``, which is read
for the words that decide a rule: ``startswith`` (prefix), ``\\b`` (word-bounded regex),
``case-sensitive``, ``strip``/``trim``, ``apostrophe``. Lists whose names differ only by a final
UPPER_CASE constant (``tool.function.PREFIXES`` and ``tool.function.PATTERNS``) are parts of one
detector and are OR-ed, sharing the text normalisation either part describes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from failproof.errors import InputError

__all__ = ["PeerDetector", "PeerList", "PeerRule", "load_peers", "parse_rule"]

MatchKind = Literal["substring", "prefix", "word"]
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "′": "'", "`": "'"})
_CONSTANT = re.compile(r"^[A-Z][A-Z0-9_]*$")


@dataclass(frozen=True, slots=True)
class PeerRule:
    """How one list is matched against a response."""

    match: MatchKind
    case_sensitive: bool = False
    strip: bool = False
    normalize_apostrophes: bool = False


@dataclass(frozen=True, slots=True)
class PeerList:
    rule: PeerRule
    strings: tuple[str, ...]
    _compiled: tuple[re.Pattern[str], ...] = ()

    def prepared(self) -> PeerList:
        """The list with its strings normalised like the text, and regexes compiled once."""
        strings = tuple(self._norm(s) for s in self.strings)
        compiled: tuple[re.Pattern[str], ...] = ()
        if self.rule.match == "word":
            compiled = tuple(re.compile(rf"\b{re.escape(s)}\b") for s in strings)
        return replace(self, strings=strings, _compiled=compiled)

    def _norm(self, text: str) -> str:
        if self.rule.normalize_apostrophes:
            text = text.translate(_APOSTROPHES)
        return text if self.rule.case_sensitive else text.lower()

    def matches(self, text: str) -> bool:
        text = self._norm(text.strip() if self.rule.strip else text)
        if self.rule.match == "prefix":
            return text.startswith(self.strings)
        if self.rule.match == "word":
            return any(p.search(text) for p in self._compiled)
        return any(s in text for s in self.strings)


@dataclass(frozen=True, slots=True)
class PeerDetector:
    """A published detector: a response is a refusal when any of its lists matches."""

    name: str
    lists: tuple[PeerList, ...]

    def refuses(self, text: str) -> bool:
        return any(part.matches(text) for part in self.lists)


def parse_rule(semantics: str) -> PeerRule:
    """A `PeerRule` from a prose description of the matching rule."""
    lowered = semantics.lower()
    if "\\b" in semantics:
        match: MatchKind = "word"
    elif "startswith" in lowered:
        match = "prefix"
    elif "substring" in lowered:
        match = "substring"
    else:
        raise InputError(f"cannot tell the matching rule from {semantics!r}")
    insensitive = "insensitive" in lowered or "lower" in lowered
    return PeerRule(
        match=match,
        case_sensitive="case-sensitive" in lowered and not insensitive,
        strip="strip" in lowered or "trim" in lowered,
        normalize_apostrophes="apostrophe" in lowered,
    )


def _rule(entry: dict[str, Any], where: str) -> PeerRule:
    explicit = entry.get("rule")
    if isinstance(explicit, dict):
        try:
            return PeerRule(**explicit)
        except TypeError as exc:
            raise InputError(f"{where}: bad rule: {exc}") from None
    semantics = entry.get("semantics")
    if not isinstance(semantics, str):
        raise InputError(f"{where}: give a 'rule' object or a 'semantics' text")
    try:
        return parse_rule(semantics)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None


def _detector_name(name: str) -> str:
    head, _, last = name.rpartition(".")
    return head if head and _CONSTANT.match(last) else name


def _merge(name: str, parts: Sequence[PeerList]) -> PeerDetector:
    strip = any(p.rule.strip for p in parts)
    apostrophes = any(p.rule.normalize_apostrophes for p in parts)
    shared = [
        replace(p, rule=replace(p.rule, strip=strip, normalize_apostrophes=apostrophes)).prepared()
        for p in parts
    ]
    return PeerDetector(name, tuple(shared))


def load_peers(path: str | Path) -> tuple[PeerDetector, ...]:
    """Every detector described in a peer-lists JSON file, in file order."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: cannot read peer lists: {exc}") from None
    entries = data.get("lists") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise InputError(f"{path}: expected an object with a non-empty 'lists' array")
    grouped: dict[str, list[PeerList]] = {}
    for i, entry in enumerate(entries):
        where = f"{path}: list #{i + 1}"
        if not isinstance(entry, dict) or not isinstance(entry.get("strings"), list):
            raise InputError(f"{where}: expected an object with 'name' and 'strings'")
        name = _detector_name(str(entry.get("name") or f"peer{i + 1}"))
        part = PeerList(_rule(entry, where), tuple(str(s) for s in entry["strings"]))
        grouped.setdefault(name, []).append(part)
    return tuple(_merge(name, parts) for name, parts in grouped.items())
