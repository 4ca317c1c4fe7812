"""Values of open sections (a plugin's, or one read back from JSON) shown by their key's name.

A typed section says how each of its numbers reads in its presenter; a section known only as a
mapping has nothing but key names, so `kind_of` and `label_of` read those. Nothing here computes
a new metric.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from failproof.render._numbers import Kind, format_value, interval_text, value_of

__all__ = ["format_cell", "kind_of", "label_of"]

_RATE_KEY = re.compile(r"(^|_)(rate|score|share|fraction|accuracy)s?($|_)", re.IGNORECASE)
_COUNT_KEY = re.compile(r"(^|_)(n|count|total|passed|failed|size|hits|cases)($|_)", re.IGNORECASE)
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
