"""Numbers and intervals, written the same way by every report.

A section holds plain numbers or `Interval` objects (a report read back from JSON may hold their
``{estimate, low, high, ...}`` mappings); `value_of` reads either. Each report writes an interval's
bounds in its own `Notation` (the run report ``78.1–91.2%``, the attack report ``[0.70, 0.93]``,
SAFE ``85% - 93%``), through the one `Notation.text`. Nothing here computes a new metric.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from failproof.core import Interval

__all__ = [
    "Kind",
    "Notation",
    "Value",
    "format_value",
    "human_size",
    "interval_text",
    "value_of",
]

#: How a number reads: a percentage, a plain number, a count, milliseconds, or text.
Kind = Literal["pct", "num", "count", "ms", "text"]


@dataclass(frozen=True, slots=True)
class Value:
    """A number with its interval bounds when the report gives them."""

    estimate: float
    low: float | None = None
    high: float | None = None

    @property
    def has_interval(self) -> bool:
        return self.low is not None and self.high is not None


@dataclass(frozen=True, slots=True)
class Notation:
    """How a report writes an interval's bounds: each bound's format (after ``scale``), the text
    between them, around them, and in their place when the interval has none."""

    spec: str = ".2f"
    between: str = "–"
    before: str = ""
    after: str = ""
    missing: str = ""
    scale: float = 1.0

    def text(self, low: float | None, high: float | None) -> str:
        """``low`` and ``high`` in this notation, or ``missing`` when either is absent."""
        if low is None or high is None:
            return self.missing
        first, last = format(low * self.scale, self.spec), format(high * self.scale, self.spec)
        return f"{self.before}{first}{self.between}{last}{self.after}"


#: The run report's bounds: ``78.1–91.2%`` for rates, ``0.42–0.50`` for other numbers.
RUN_PCT = Notation(".1f", after="%", scale=100)
RUN_NUM = Notation(".2f")


def _finite(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def value_of(raw: object) -> Value | None:
    """A plain number or an interval (object or mapping) as a `Value`; anything else is None."""
    if isinstance(raw, Value):
        return raw
    if isinstance(raw, Interval):
        estimate = _finite(raw.estimate)
        return None if estimate is None else Value(estimate, _finite(raw.low), _finite(raw.high))
    if isinstance(raw, Mapping):
        estimate = _finite(raw.get("estimate", raw.get("value", raw.get("mean"))))
        if estimate is None:
            return None
        return Value(estimate, _finite(raw.get("low")), _finite(raw.get("high")))
    number = _finite(raw)
    return None if number is None else Value(number)


def format_value(value: Value | float | None, kind: Kind = "num") -> str:
    """One number: ``85.0%``, ``0.42``, ``1,234`` or ``812 ms``; an en dash when absent."""
    if value is None:
        return "–"
    number = value.estimate if isinstance(value, Value) else value
    if kind == "pct":
        return f"{number:.1%}"
    if kind == "count" and float(number).is_integer():
        return f"{int(number):,}"
    if kind == "ms":
        return f"{number:,.0f} ms"
    return f"{number:.3g}" if abs(number) >= 1000 else f"{number:.2f}"


def interval_text(value: Value | None, kind: Kind = "num") -> str:
    """``78.1–91.2%`` (the 95% interval), or '' when the report gives no interval."""
    if value is None:
        return ""
    return (RUN_PCT if kind == "pct" else RUN_NUM).text(value.low, value.high)


def human_size(n_bytes: int) -> str:
    """``812 B``, ``48.2 KB``, ``3.1 MB`` (powers of 1,000)."""
    if n_bytes < 1000:
        return f"{n_bytes} B"
    if n_bytes < 1_000_000:
        return f"{n_bytes / 1000:.1f} KB"
    return f"{n_bytes / 1_000_000:.1f} MB"
