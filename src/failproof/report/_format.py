"""Numbers, intervals and untrusted text, formatted the same way by every renderer.

Report sections hold plain numbers or interval objects (``{estimate, low, high, n, method}``, see
`failproof.core.Interval.as_dict`); `value_of` reads either. Nothing here computes a new metric.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from failproof.core import Interval
from failproof.guard._text import strip_controls

__all__ = [
    "Kind",
    "Value",
    "excerpt",
    "format_cell",
    "format_value",
    "human_size",
    "interval_text",
    "kind_of",
    "label_of",
    "value_of",
]

Kind = Literal["pct", "num", "count", "ms", "text"]

_RATE_KEY = re.compile(r"(^|_)(rate|score|share|fraction|accuracy)s?($|_)", re.IGNORECASE)
_COUNT_KEY = re.compile(r"(^|_)(n|count|total|passed|failed|size|hits|cases)($|_)", re.IGNORECASE)
_SPACE = re.compile(r"\s+")
_LABELS = {
    "n": "cases",
    "pass_rate": "pass rate",
    "fail_rate": "fail rate",
    "mean_risk": "mean risk",
    "median_risk": "median risk",
    "mean_weighted_risk": "mean weighted risk",
    "weighted_risk": "weighted risk",
    "risk_score": "risk",
    "case_id": "case",
    "latency_p50_ms": "p50 latency",
    "latency_p95_ms": "p95 latency",
    "latency_score": "latency score",
    "penalty_score": "penalty score",
}


@dataclass(frozen=True, slots=True)
class Value:
    """A number with its interval bounds when the report gives them."""

    estimate: float
    low: float | None = None
    high: float | None = None

    @property
    def has_interval(self) -> bool:
        return self.low is not None and self.high is not None


def _finite(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    number = float(value)
    return number if math.isfinite(number) else None


def value_of(raw: object) -> Value | None:
    """A plain number or an interval object as a `Value`; anything else is None."""
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


def kind_of(key: str) -> Kind:
    """How a section key's number reads: rates and scores as percentages, counts as integers."""
    if "risk" in key or "index" in key:
        return "num"
    if _RATE_KEY.search(key):
        return "pct"
    if _COUNT_KEY.search(key):
        return "count"
    if key.endswith("_ms") or key.startswith("latency"):
        return "ms"
    return "num"


def label_of(key: str) -> str:
    """A section key as a column or card label."""
    return _LABELS.get(key, key.replace("_", " "))


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
    if value is None or value.low is None or value.high is None:
        return ""
    if kind == "pct":
        return f"{value.low * 100:.1f}–{value.high * 100:.1f}%"
    return f"{value.low:.2f}–{value.high:.2f}"


def format_cell(key: str, raw: object) -> str:
    """Any section value as table-cell text, formatted by its key."""
    if raw is None:
        return "–"
    if isinstance(raw, bool):
        return "yes" if raw else "no"
    if isinstance(raw, int):
        return f"{raw:,}"
    value = value_of(raw)
    if value is not None:
        kind = kind_of(key)
        text = format_value(value, kind)
        ci = interval_text(value, kind)
        return f"{text} ({ci})" if ci else text
    if isinstance(raw, list | tuple):
        return ", ".join(format_cell(key, item) for item in raw[:12]) + (
            " …" if len(raw) > 12 else ""
        )
    if isinstance(raw, Mapping):
        return ", ".join(f"{k} {format_cell(str(k), v)}" for k, v in list(raw.items())[:8])
    return str(raw)


def excerpt(text: object, limit: int = 120) -> str:
    """``text`` on one line, whitespace collapsed, control characters shown as ``\\xNN``, cut to
    ``limit`` characters with an ellipsis."""
    flat = strip_controls(_SPACE.sub(" ", str(text or "")).strip())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def human_size(n_bytes: int) -> str:
    """``812 B``, ``48.2 KB``, ``3.1 MB`` (powers of 1,000)."""
    if n_bytes < 1000:
        return f"{n_bytes} B"
    if n_bytes < 1_000_000:
        return f"{n_bytes / 1000:.1f} KB"
    return f"{n_bytes / 1_000_000:.1f} MB"
