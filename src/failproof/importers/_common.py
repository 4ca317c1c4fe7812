"""What every importer produces: a suite that validates, and an account of what did not map.

Nothing is dropped silently: every item of the source that has no failproof equivalent is counted
in the `ImportSummary`, and the cases it belonged to keep it in ``metadata.import_unmapped``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import yaml

from failproof.core import Suite
from failproof.errors import InputError
from failproof.guard._text import clean_data
from failproof.importers._taxonomy import label_cases
from failproof.suites import parse_suite

__all__ = ["ImportResult", "ImportSummary", "case_id", "suite_name"]

_NOT_NAME = re.compile(r"[^a-z0-9_]+")
_NOT_ID = re.compile(r"[^A-Za-z0-9_.-]+")


def suite_name(text: str) -> str:
    """A valid suite name from a file stem or a user's name (lower case, ``[a-z0-9_]``)."""
    name = _NOT_NAME.sub("_", text.lower()).strip("_")
    return name or "imported"


def case_id(text: str, taken: set[str]) -> str:
    """A case id from ``text``, made unique against ``taken`` (which it joins)."""
    base = _NOT_ID.sub("-", text).strip("-")[:60] or "case"
    candidate, n = base, 1
    while candidate in taken:
        n += 1
        candidate = f"{base}-{n}"
    taken.add(candidate)
    return candidate


class _NoAliases(yaml.SafeDumper):
    """Writes a value shared by several cases in full each time (no ``&id001`` anchors)."""

    def ignore_aliases(self, data: Any) -> bool:  # noqa: ARG002
        return True


@dataclass
class ImportSummary:
    """Counts of what mapped and what did not, by kind, with where each unmapped item was."""

    source: str
    cases: int = 0
    mapped: Counter[str] = field(default_factory=Counter)
    unmapped: Counter[str] = field(default_factory=Counter)
    where: dict[str, list[str]] = field(default_factory=dict)
    skipped: Counter[str] = field(default_factory=Counter)
    repaired: int = 0

    def map(self, what: str) -> None:
        self.mapped[what] += 1

    def miss(self, what: str, where: str) -> None:
        """``what`` (e.g. ``assert llm-rubric: no equivalent``) at ``where`` did not map."""
        self.unmapped[what] += 1
        self.where.setdefault(what, []).append(where)

    def skip(self, why: str) -> None:
        """A source item that became no case, and why."""
        self.skipped[why] += 1

    def lines(self) -> list[str]:
        """The summary as plain lines for the terminal."""
        out = [f"{self.cases} cases from {self.source}"]
        out += [f"  mapped      {n:>4} x {what}" for what, n in sorted(self.mapped.items())]
        for what, n in sorted(self.unmapped.items()):
            places = "; ".join(self.where[what][:5]) + (
                "; ..." if len(self.where[what]) > 5 else ""
            )
            out.append(f"  NOT mapped  {n:>4} x {what} ({places})")
        out += [f"  skipped     {n:>4} x {why}" for why, n in sorted(self.skipped.items())]
        if self.repaired:
            out.append(
                f"  repaired    {self.repaired:>4} x invalid character (lone surrogate) -> U+FFFD"
            )
        return out


@dataclass
class ImportResult:
    """An imported suite (as the YAML that is written) and its summary."""

    data: dict[str, Any]
    summary: ImportSummary

    def __post_init__(self) -> None:
        """Text from the source made valid Unicode once (JSON's ``\\ud800`` escapes), counted."""
        self.data, self.summary.repaired = clean_data(self.data)
        label_cases(self.data, self.summary)

    def yaml_text(self) -> str:
        head = "".join(
            f"# {line}\n" for line in ["imported by failproof import", *self.summary.lines()]
        )
        body = yaml.dump(
            self.data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True, width=100
        )
        return head + body

    def validate(self, path: str) -> Suite:
        """The suite parsed back exactly as a user's file would be; raises if it is invalid."""
        if not self.data.get("cases"):
            raise InputError(
                f"nothing to import from {self.summary.source}: no case could be built",
                hint="check the file's format and the options (see --help)",
            )
        return parse_suite(self.yaml_text(), path=path)
