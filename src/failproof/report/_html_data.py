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
from collections.abc import Iterable, Mapping
from typing import Any

from failproof.core import CaseResult, CaseScore
from failproof.core._intern import Interner
from failproof.core._result import Reason
from failproof.core._tools import ToolUse
from failproof.report._model import Report
from failproof.report._verdict import case_verdict
from failproof.store import StoredResults

__all__ = [
    "FIELDS",
    "OUTPUT_LIMIT",
    "case_payload",
    "page_payload",
    "script_json",
    "script_json_parts",
    "stored_points",
]

OUTPUT_LIMIT = 4000  # characters of each output and message kept in the page (all in report.json)
#: Each field of a case row, and how it is stored: ``r`` raw, ``s`` an index into ``strings``,
#: ``ls`` a list of such indices, ``lls`` a list of lists of them, ``kv`` a flat list of
#: (key index, value) pairs, ``e`` an index into the field's own table in ``enums``.
FIELDS: dict[str, str] = {
    "id": "r",
    "sample": "r",
    "suite": "e",
    "category": "e",
    "severity": "e",
    "cls": "e",
    "verdict": "e",
    "risk": "r",
    "wrisk": "r",
    "latency": "r",
    "output": "s",
    "outlen": "r",
    "error": "s",
    "msgs": "lls",
    "sent": "s",
    "turns": "lls",
    "broke": "r",
    "tools": "lls",
    "reasons": "lls",
    "unsafe": "ls",
    "safe_hits": "ls",
    "modes": "ls",
    "detected": "ls",
    "evidenced": "ls",
    "score": "kv",
    "explain": "s",
    "refusal": "kv",
    "signals": "r",
    "safe": "r",
    "scores": "r",
    "origin": "s",
    "mutator": "s",
    "cluster": "r",
    "x": "r",
    "y": "r",
    "decided": "e",
    "why": "s",
}
_ENUMS = [name for name, kind in FIELDS.items() if kind == "e"]
_UNSAFE_JSON = re.compile("[<>&\u2028\u2029\ud800-\udfff]")


def script_json(data: Any) -> str:
    """``data`` as JSON that is inert inside a ``<script type="application/json">`` element."""
    return "".join(script_json_parts(data))


def script_json_parts(data: Any) -> list[str]:
    """`script_json` of ``data`` in parts, an object's members one by one: joined, the same
    text; apart, a member whose text is all ASCII is escaped (and written) as the compact
    string it is, whatever characters the others hold."""
    try:
        if isinstance(data, dict) and all(type(key) is str for key in data):
            return _member_parts(data)
        return [_inert(_dumps(data))]
    except ValueError:  # NaN or infinity somewhere: JSON has no such number
        return [_inert(json.dumps(_clean(data), ensure_ascii=False, separators=(",", ":")))]


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def _member_parts(data: dict[str, Any]) -> list[str]:
    """The object's JSON as ``{``, each member's key and value, ``}`` (what `json.dumps` writes
    for it, in parts)."""
    parts = ["{"]
    for i, (key, value) in enumerate(data.items()):
        parts += [("," if i else "") + _inert(_dumps(key)) + ":", *_value_parts(value)]
    return [*parts, "}"]


#: Items of a long list dumped (and escaped) together: a few non-ASCII strings in a table of
#: thousands leave the other parts ASCII, escaped by `str.replace`.
_ITEMS = 256


def _value_parts(value: Any) -> list[str]:
    """A member's JSON value in parts: a long list ``[``, its items `_ITEMS` at a time, ``]``."""
    if type(value) is not list or len(value) <= _ITEMS:
        return [_inert(_dumps(value))]
    parts = [
        ("," if start else "[") + _inert(_dumps(value[start : start + _ITEMS])[1:-1])
        for start in range(0, len(value), _ITEMS)
    ]
    return [*parts, "]"]


def _inert(text: str) -> str:
    """JSON text with ``<``, ``>``, ``&``, U+2028, U+2029 and lone surrogates escaped."""
    if not text.isascii():
        return _UNSAFE_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    for char, escaped in _ASCII_UNSAFE:  # ASCII text holds no separator and no surrogate
        if char in text:
            text = text.replace(char, escaped)
    return text


_ASCII_UNSAFE = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"))


def _clean(value: Any) -> Any:
    """Non-finite floats become null (JSON has no NaN); containers are copied recursively."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def _points(report: Report) -> dict[int, tuple[Any, Any, Any]]:
    """Scatter point of each result index (a point names its case by suite, id and sample)."""
    by_key = {r.key: i for i, r in enumerate(report.results)}
    by_id: dict[str, list[int]] = {}
    for i, result in enumerate(report.results):
        by_id.setdefault(result.case_id, []).append(i)
    out: dict[int, tuple[Any, Any, Any]] = {}
    points = report.observability.points if report.observability else []
    for point in points:
        found = by_key.get((point.suite, point.case_id, point.sample))
        if found is None:
            free = [i for i in by_id.get(point.case_id, []) if i not in out]
            found = free[0] if free else None
        if found is not None:
            out[found] = (point.cluster, point.scatter_x, point.scatter_y)
    return out


def _scalars(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The scalar entries of a case score (its lists and texts are drawn separately)."""
    skip = ("task", "probe_input", "explanation")
    out = {k: v for k, v in data.items() if k not in skip and not isinstance(v, list | dict)}
    return out or None


#: Case-score fields `_scalars` never keeps (lists and texts), left out of the dump.
_NOT_SCALAR = {
    "matched_safe_patterns",
    "matched_unsafe_patterns",
    "detected_failure_modes",
    "evidenced_failure_modes",
    "signals",
    "task",
    "probe_input",
    "explanation",
}


def _score_scalars(score: CaseScore) -> dict[str, Any]:
    """``score`` dumped as JSON without what `_scalars` drops (a judgement present is a dict)."""
    judged = {name for name in ("refusal", "harm") if getattr(score, name) is not None}
    return score.model_dump(mode="json", exclude=_NOT_SCALAR | judged)


def _signals(score: CaseScore | None, length: int) -> list[list[Any]]:
    """Matched signals as ``[kind, label, start, end]`` inside the first ``length`` characters."""
    hits = score.signals if score is not None else []
    return [[h.kind, h.label, h.start, h.end] for h in hits if 0 <= h.start < h.end <= length]


def _safe(result: CaseResult) -> Any:
    card = result.safe_v0
    if card is None:
        return None
    return {
        "scores": card.scores.model_dump(mode="json"),
        "label": card.label,
        "details": card.details.model_dump(mode="json"),
    }


def _round(value: object, digits: int) -> object:
    return round(value, digits) if isinstance(value, float) else value


def _kv(data: Mapping[str, Any] | None, strings: Interner) -> list[Any] | None:
    if not data:
        return None
    return [item for k, v in data.items() for item in (strings(str(k)), v)]


class _Encoder:
    """Turns results into rows: strings stored once, enums as small indices."""

    def __init__(self) -> None:
        self.strings = Interner()
        self.index = self.strings.index
        self.enums = {name: Interner() for name in _ENUMS}
        self._enum = [self.enums[name] for name in _ENUMS]  # in FIELDS order

    def text(self, value: object) -> int | None:
        if value is None:
            return None
        text = value if type(value) is str else str(value)
        if len(text) > OUTPUT_LIMIT:
            text = text[:OUTPUT_LIMIT]
        found = self.index.get(text)  # the interner's work without its call, for a string seen
        return self.strings(text) if found is None else found

    def texts(self, values: object) -> list[int | None]:
        if not values or not isinstance(values, list | tuple):
            return []
        return [self.text(v) for v in values]

    def row(self, result: CaseResult, point: tuple[Any, ...]) -> list[Any]:
        """The result's values in `FIELDS` order."""
        score = result.case_score
        found = result.classification
        suite, category, severity, cls, verdict, decided = self._enum
        return [
            result.case_id,
            result.sample,
            suite(str(result.suite)),
            category(str(result.category)),
            severity(str(result.severity)),
            cls(str(result.primary)),
            verdict(case_verdict(result)),
            *_risks(score),
            _round(result.latency_ms, 1),
            *self._exchange(result),
            *self._findings(result, score),
            _safe(result),
            result.scores or None,
            self.text(result.metadata.get("origin")),
            self.text(result.metadata.get("mutator")),
            point[0],
            _round(point[1], 4),
            _round(point[2], 4),
            decided(str(found.decided_by) if found else ""),
            self.text(found.decided_why if found else None),
        ]

    def _exchange(self, result: CaseResult) -> list[Any]:
        """output .. reasons: what was sent and answered, and why it was classed so."""
        text = self.text
        reasons = result.classification.reasons if result.classification else []
        if result.unsupported is not None:  # not sent: the reason is its only finding
            reasons = [Reason(rule="unsupported", detail=result.unsupported.reason)]
        return [
            text(result.output),
            len(result.output),
            text(result.error),
            [[text(m.role), text(m.content)] for m in result.messages],
            text(result.request_body),
            [[text(t.user), text(t.output), text(t.primary), text(t.error)] for t in result.turns],
            result.broke_at,
            [self.texts(_tool(u)) for u in result.tool_uses],
            [[text(r.rule), text(r.detail), text(r.evidence)] for r in reasons],
        ]

    def _findings(self, result: CaseResult, score: CaseScore | None) -> list[Any]:
        """unsafe .. signals: the case score's lists and texts, and the failure modes."""
        texts, length = self.texts, min(len(result.output), OUTPUT_LIMIT)
        if score is None:
            return [[], [], texts(result.failure_modes), [], [], None, None, None, []]
        return [
            texts(score.matched_unsafe_patterns),
            texts(score.matched_safe_patterns),
            texts(result.failure_modes),
            texts(score.detected_failure_modes),
            texts(score.evidenced_failure_modes),
            _score_kv(score, self.strings),
            self.text(score.explanation),
            _refusal_kv(score, self.strings),
            _signals(score, length),
        ]


def _tool(use: ToolUse) -> list[object]:
    return [use.call.name, use.call.arguments, use.result, use.error, str(use.step)]


def _risks(score: CaseScore | None) -> tuple[object, object]:
    if score is None:
        return None, None
    return _round(score.risk_score, 4), _round(score.weighted_risk, 4)


#: The case-score fields `_scalars` keeps, in the order a dump gives them.
_SCALAR_FIELDS = tuple(name for name in CaseScore.model_fields if name not in _NOT_SCALAR)
_JUDGEMENTS = frozenset({"refusal", "harm"})


def _score_kv(score: CaseScore, strings: Interner) -> list[Any] | None:
    """``_kv(_scalars(_score_scalars(score)))`` read from the attributes (the dump only for a
    score that carries keys a newer producer added)."""
    if score.model_extra:
        return _kv(_scalars(_score_scalars(score)), strings)
    values = score.__dict__  # the fields' values, as pydantic keeps them
    index = strings.index
    out: list[Any] = []
    for name in _SCALAR_FIELDS:
        value = values[name]
        if value is None or name not in _JUDGEMENTS:  # a judgement present dumps as a dict
            key = index.get(name)
            out += (strings(name) if key is None else key), value
    return out or None


def _refusal_kv(score: CaseScore, strings: Interner) -> list[Any] | None:
    """``_kv`` of the refusal judgement dumped as JSON, read from its attributes."""
    found = score.refusal
    if found is None:
        return None
    if found.model_extra:
        return _kv(found.model_dump(mode="json"), strings)
    return [
        strings("label"),
        found.label,
        strings("score"),
        found.score,
        strings("reasons"),
        list(found.reasons),
    ]


def case_payload(report: Report) -> dict[str, Any]:
    """Every result as a compact row, with the string tables the rows refer to."""
    points = _points(report)
    payload = page_payload(report.results, 0, points)
    payload["has_points"] = bool(points)
    return payload


def page_payload(
    results: Iterable[CaseResult], offset: int, points: Mapping[int, tuple[Any, Any, Any]]
) -> dict[str, Any]:
    """The rows of the results from index ``offset`` on, with their own string tables."""
    encoder = _Encoder()
    rows = [
        encoder.row(result, points.get(offset + i, (None, None, None)))
        for i, result in enumerate(results)
    ]
    return {
        "fields": FIELDS,
        "enums": {name: table.items for name, table in encoder.enums.items()},
        "strings": encoder.strings.items,
        "cases": rows,
        "offset": offset,
        "output_limit": OUTPUT_LIMIT,
    }


def stored_points(report: Report, source: StoredResults) -> dict[int, tuple[Any, Any, Any]]:
    """`_points` of a streamed report: the scatter's (bounded) points found by one pass over
    the keys of the store, without reading a result."""
    points = report.observability.points if report.observability else []
    wanted = {(p.suite, p.case_id, p.sample): p for p in points}
    if not wanted:
        return {}
    keys = source.keys() if source.held is None else (r.key for r in source.held)
    return {
        i: (wanted[key].cluster, wanted[key].scatter_x, wanted[key].scatter_y)
        for i, key in enumerate(keys)
        if key in wanted
    }
