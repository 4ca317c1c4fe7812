"""The case data embedded in the HTML report, and how it is embedded without ever becoming code.

Cases are rows of a fixed field list (``fields``), with repeated strings (suite, category, class,
message contents such as a shared system prompt) stored once. The JSON goes into a
``<script type="application/json">`` element with ``<``, ``>``, ``&``, U+2028 and U+2029 escaped,
so that no output can close the element or start markup; the page reads it with ``JSON.parse``
and writes it with ``textContent`` only.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from failproof.core import CaseResult
from failproof.report._model import Report
from failproof.report._present import section
from failproof.report._verdict import case_verdict

__all__ = ["FIELDS", "OUTPUT_LIMIT", "case_payload", "script_json"]

OUTPUT_LIMIT = 4000  # characters of each output and message kept in the page (all in report.json)
FIELDS = (
    "id",
    "suite",
    "category",
    "severity",
    "cls",
    "verdict",
    "risk",
    "wrisk",
    "latency",
    "output",
    "outlen",
    "error",
    "msgs",
    "reasons",
    "unsafe",
    "safe_hits",
    "modes",
    "detected",
    "evidenced",
    "score",
    "explain",
    "refusal",
    "signals",
    "safe",
    "scores",
    "origin",
    "mutator",
    "cluster",
    "x",
    "y",
)
_ENUMS = ("suite", "category", "severity", "cls", "verdict")
_UNSAFE_JSON = re.compile("[<>&\u2028\u2029\ud800-\udfff]")


def script_json(data: Any) -> str:
    """``data`` as JSON that is inert inside a ``<script type="application/json">`` element."""
    text = json.dumps(_clean(data), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return _UNSAFE_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _clean(value: Any) -> Any:
    """Non-finite floats become null (JSON has no NaN); containers are copied recursively."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


class _Interner:
    """Stores each distinct string once; rows refer to it by position."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._index: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        if text not in self._index:
            self._index[text] = len(self.items)
            self.items.append(text)
        return self._index[text]


def _points(report: Report) -> dict[int, tuple[Any, Any, Any]]:
    """Scatter point of each result index (points name a case by suite and id)."""
    slots: dict[tuple[str, str], list[int]] = {}
    by_id: dict[str, list[int]] = {}
    for i, result in enumerate(report.results):
        slots.setdefault((result.suite, result.case_id), []).append(i)
        by_id.setdefault(result.case_id, []).append(i)
    out: dict[int, tuple[Any, Any, Any]] = {}
    points = section(report.observability, "points")
    for point in points if isinstance(points, list) else []:
        if not isinstance(point, Mapping):
            continue
        key = (str(point.get("suite")), str(point.get("case_id")))
        free = slots.get(key) or by_id.get(key[1]) or []
        if free:
            out[free.pop(0)] = (
                point.get("cluster"),
                point.get("scatter_x"),
                point.get("scatter_y"),
            )
    return out


def _cut(text: str) -> str:
    return text if len(text) <= OUTPUT_LIMIT else text[:OUTPUT_LIMIT]


def _scalars(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The scalar entries of a case score (its lists and texts are drawn separately)."""
    skip = ("task", "probe_input", "explanation")
    out = {k: v for k, v in data.items() if k not in skip and not isinstance(v, list | Mapping)}
    return out or None


def _signals(data: Mapping[str, Any], length: int) -> list[list[Any]]:
    """Matched signals as ``[kind, label, start, end]`` inside the first ``length`` characters."""
    out: list[list[Any]] = []
    for hit in data.get("signals") or []:
        if not isinstance(hit, Mapping):
            continue
        start, end = hit.get("start"), hit.get("end")
        if isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= length:
            out.append([str(hit.get("kind", "")), str(hit.get("label", "")), start, end])
    return out


def _safe(result: CaseResult) -> Any:
    if result.safe_v0 is None:
        return None
    keep = ("scores", "label", "details")
    return {k: result.safe_v0[k] for k in keep if k in result.safe_v0}


def _row(
    result: CaseResult, strings: _Interner, enums: dict[str, _Interner], point: tuple[Any, ...]
) -> list[Any]:
    cs = result.case_score or {}
    reasons = result.classification.reasons if result.classification else []
    values: dict[str, Any] = {
        "id": result.case_id,
        "suite": enums["suite"](result.suite),
        "category": enums["category"](result.category),
        "severity": enums["severity"](result.severity),
        "cls": enums["cls"](result.primary),
        "verdict": enums["verdict"](case_verdict(result)),
        "risk": cs.get("risk_score"),
        "wrisk": cs.get("weighted_risk"),
        "latency": result.latency_ms,
        "output": _cut(result.output),
        "outlen": len(result.output),
        "error": result.error,
        "msgs": [[m.role[0], strings(_cut(m.content))] for m in result.messages],
        "reasons": [[r.rule, r.detail, r.evidence] for r in reasons],
        "unsafe": cs.get("matched_unsafe_patterns") or [],
        "safe_hits": cs.get("matched_safe_patterns") or [],
        "modes": result.failure_modes,
        "detected": cs.get("detected_failure_modes") or [],
        "evidenced": cs.get("evidenced_failure_modes") or [],
        "score": _scalars(cs),
        "explain": cs.get("explanation"),
        "refusal": cs.get("refusal") if isinstance(cs.get("refusal"), Mapping) else None,
        "signals": _signals(cs, min(len(result.output), OUTPUT_LIMIT)),
        "safe": _safe(result),
        "scores": result.scores or None,
        "origin": result.metadata.get("origin"),
        "mutator": result.metadata.get("mutator"),
        "cluster": point[0],
        "x": point[1],
        "y": point[2],
    }
    return [values[f] for f in FIELDS]


def case_payload(report: Report) -> dict[str, Any]:
    """Every result as a compact row, with the string tables the rows refer to."""
    strings = _Interner()
    enums = {name: _Interner() for name in _ENUMS}
    points = _points(report)
    rows = [
        _row(result, strings, enums, points.get(i, (None, None, None)))
        for i, result in enumerate(report.results)
    ]
    return {
        "fields": list(FIELDS),
        "enums": {name: table.items for name, table in enums.items()},
        "strings": strings.items,
        "cases": rows,
        "output_limit": OUTPUT_LIMIT,
        "has_points": bool(points),
    }
