"""JSON from outside parsed without the parser's own limits turning a good answer into a crash."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, TypeAlias

__all__ = [
    "MAX_INT_DIGITS",
    "DuplicateKeyError",
    "JsonObject",
    "JsonValue",
    "RepeatedKeys",
    "big_int",
    "dumps_keeping_repeats",
    "keep_repeats",
    "loads_json",
    "unique_object",
]

#: A JSON value: an object, an array, a string, a number, true / false or null.
#: Arrays and objects are read-only views here, so a ``list[str]`` is one.
JsonValue: TypeAlias = (
    "str | int | float | bool | Sequence[JsonValue] | Mapping[str, JsonValue] | None"
)
#: A JSON object: a body sent on the wire, a document written as JSON or read back from one.
#: Only for data that is JSON at a boundary; data with a shape gets a model.
JsonObject: TypeAlias = dict[str, JsonValue]

#: Integers with more digits stay `Decimal`: Python refuses int() past 4,300 digits by default.
MAX_INT_DIGITS = 4000


def big_int(digits: str) -> int | Decimal:
    """A JSON integer; one too long for Python's int conversion is kept as a `Decimal`."""
    return int(digits) if len(digits) < MAX_INT_DIGITS else Decimal(digits)


class DuplicateKeyError(ValueError):
    """A JSON object names one key twice (readers disagree on which value wins)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key!r} appears twice in one object")
        self.key = key


def unique_object(pairs: list[tuple[str, Any]]) -> JsonObject:
    """An ``object_pairs_hook`` that refuses a key given twice."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKeyError(key)
            seen.add(key)
    return obj


#: One decoder for every call without options (`json.loads` builds a new one per call).
_DECODER = json.JSONDecoder(parse_int=big_int)


def loads_json(text: str | bytes, **options: Any) -> Any:
    """`json.loads` that takes integers of any length; raises ValueError or RecursionError."""
    if options or not isinstance(text, str | bytes | bytearray):
        return json.loads(text, parse_int=big_int, **options)
    if not isinstance(text, str):
        text = text.decode(json.detect_encoding(text), "surrogatepass")
    elif text.startswith("\ufeff"):
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return _DECODER.decode(text)


class RepeatedKeys(dict[str, Any]):
    """A JSON object that named a key twice: a dict (the last value wins), with every pair."""

    pairs: list[tuple[str, Any]]


def keep_repeats(pairs: list[tuple[str, Any]]) -> JsonObject:
    """An ``object_pairs_hook`` that keeps every pair of an object that repeats a key."""
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    repeated = RepeatedKeys(obj)
    repeated.pairs = pairs
    return repeated


def dumps_keeping_repeats(value: Any) -> str:
    """JSON text of a value read with `keep_repeats`, every repeated key written again."""
    try:
        return _dumps(value)
    except RecursionError:
        return json.dumps(value, ensure_ascii=False)


def _dumps(value: Any) -> str:
    if isinstance(value, dict):
        pairs = value.pairs if isinstance(value, RepeatedKeys) else value.items()
        return "{" + ", ".join(f"{json.dumps(str(k))}: {_dumps(v)}" for k, v in pairs) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_dumps(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)
