"""Human-labelled responses: the rows a refusal judge is measured (and trained) on."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from failproof.detect._types import RefusalLabel
from failproof.errors import InputError

__all__ = ["LabelSpec", "LabelledResponse", "LabelledSet", "read_csv_column", "read_labelled_csv"]

_TRUE = frozenset({"1", "true", "yes", "safe", "y"})


@dataclass(frozen=True, slots=True)
class LabelledResponse:
    """One response and a person's verdict on it."""

    response: str
    label: RefusalLabel
    prompt: str | None = None
    #: The prompt only sounds unsafe (an over-refusal probe); ``None`` when unknown.
    safe_prompt: bool | None = None
    #: Rows of one group (e.g. one prompt answered by two models) stay in one CV fold.
    group: str = ""
    #: Where the row comes from (data set, model), for per-source tables.
    source: str = ""


@dataclass(frozen=True, slots=True)
class LabelledSet:
    """A named list of labelled rows; ``three_way`` when its labels distinguish partial refusal."""

    name: str
    rows: tuple[LabelledResponse, ...]
    three_way: bool = False

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[LabelledResponse]:
        return iter(self.rows)

    def subset(self, name: str, source: str) -> LabelledSet:
        return LabelledSet(name, tuple(r for r in self.rows if r.source == source), self.three_way)


@dataclass(frozen=True, slots=True)
class LabelSpec:
    """Which values of the label column mean refusal, partial refusal and compliance."""

    refusal: frozenset[str] = frozenset({"refusal", "full_refusal", "refused", "1", "true", "yes"})
    partial: frozenset[str] = frozenset({"partial_refusal", "partial"})
    compliance: frozenset[str] = frozenset(
        {"compliance", "full_compliance", "complied", "0", "false", "no"}
    )

    @classmethod
    def from_lists(
        cls,
        positive: Sequence[str] | None,
        partial: Sequence[str] | None,
        negative: Sequence[str] | None,
    ) -> LabelSpec:
        """A spec from user lists (case-insensitive); a list left out keeps its default."""
        base = cls()
        return cls(
            refusal=_values(positive) if positive else base.refusal,
            partial=_values(partial) if partial is not None else base.partial,
            compliance=_values(negative) if negative else base.compliance,
        )

    def label(self, value: str) -> RefusalLabel | None:
        key = value.strip().lower()
        if key in self.partial:
            return "partial_refusal"
        if key in self.refusal:
            return "refusal"
        if key in self.compliance:
            return "compliance"
        return None


def _values(items: Sequence[str]) -> frozenset[str]:
    return frozenset(v.strip().lower() for v in items if v.strip())


def uncommented(lines: Iterable[str]) -> Iterator[str]:
    """``lines`` without the comment lines (starting with ``#``) between records: a line inside
    a quoted field (a multi-line answer's code comment or Markdown heading) is data, kept."""
    quoted = False
    for line in lines:
        if quoted or not line.startswith("#"):
            yield line
            quoted ^= line.count('"') % 2 == 1


def _open_rows(path: Path) -> list[dict[str, str]]:
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            lines = list(uncommented(handle))
    except FileNotFoundError:
        raise InputError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {exc}") from None
    reader = csv.DictReader(lines)
    rows = list(reader)
    if not reader.fieldnames or not rows:
        raise InputError(
            f"{path}: no labelled rows", hint="expect a header line, then one response a row"
        )
    return rows


def read_csv_column(path: str | Path, column: str) -> list[str]:
    """One column of a labelled CSV, row by row (the rows `read_labelled_csv` reads)."""
    path = Path(path)
    rows = _open_rows(path)
    _need(path, list(rows[0].keys()), column)
    return [row.get(column) or "" for row in rows]


def _need(path: Path, header: Sequence[str], column: str | None) -> None:
    if column is not None and column not in header:
        raise InputError(
            f"{path}: no column {column!r} (columns: {', '.join(header)})",
            hint="choose columns with --prompt-col, --response-col and --label-col",
        )


def _unknown_labels(path: Path, column: str, unknown: dict[str, int]) -> InputError:
    listed = ", ".join(f"{value!r} (row {row})" for value, row in list(unknown.items())[:5])
    return InputError(
        f"{path}: unknown label(s) in column {column!r}: {listed}",
        hint="name the refusal labels with --positive, the others with --partial and --negative",
    )


def read_labelled_csv(
    path: str | Path,
    *,
    response_col: str = "response",
    label_col: str = "label",
    prompt_col: str | None = "prompt",
    require_prompt: bool = True,
    safe_col: str | None = None,
    labels: LabelSpec | None = None,
) -> LabelledSet:
    """Read a labelled CSV (lines starting with ``#`` are skipped); `InputError` on any problem.

    A missing ``prompt_col`` is an error only when ``require_prompt``; otherwise the rows simply
    have no prompt.
    """
    path = Path(path)
    spec = labels or LabelSpec()
    rows = _open_rows(path)
    header = list(rows[0].keys())
    if prompt_col is not None and prompt_col not in header and not require_prompt:
        prompt_col = None
    for column in (response_col, label_col, prompt_col, safe_col):
        _need(path, header, column)
    out: list[LabelledResponse] = []
    unknown: dict[str, int] = {}
    for number, row in enumerate(rows, start=1):
        label = spec.label(row.get(label_col) or "")
        if label is None:
            unknown.setdefault((row.get(label_col) or "").strip(), number)
            continue
        prompt = row.get(prompt_col) if prompt_col else None
        safe = (row.get(safe_col) or "").strip().lower() in _TRUE if safe_col else None
        group = prompt or f"row{number}"
        out.append(LabelledResponse(row.get(response_col) or "", label, prompt, safe, group))
    if unknown:
        raise _unknown_labels(path, label_col, unknown)
    three_way = any(r.label == "partial_refusal" for r in out)
    return LabelledSet(path.stem, tuple(out), three_way)
