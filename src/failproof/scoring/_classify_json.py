"""Format checks of the FailProof classifier: strict JSON parsing and JSON Schema validation.

Strict means what a careful consumer of the output would accept: RFC 8259 JSON (no ``NaN`` or
``Infinity``), no key twice in one object (consumers disagree on which value wins), and nesting
the parser can handle. A Markdown code fence around the whole output (```` ``` ```` or
```` ```json ````) is unwrapped when the settings allow it; prose around the JSON never is.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import TYPE_CHECKING, Any

from failproof.errors import InputError
from failproof.guard import loads_json
from failproof.guard._json import DuplicateKeyError, unique_object
from failproof.guard._schema import linear_validator

if TYPE_CHECKING:
    from jsonschema import ValidationError
    from jsonschema.protocols import Validator

__all__ = ["JsonCheck", "parse_strict_json", "schema_problem", "shorten"]

_FENCE = "```"
_MAX_EVIDENCE = 300


def shorten(text: str, limit: int = _MAX_EVIDENCE) -> str:
    """``text`` cut to ``limit`` characters, with an ellipsis when cut (evidence stays small)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True, slots=True)
class JsonCheck:
    """The outcome of parsing an output as JSON: the value, or the rule that failed and why."""

    ok: bool
    value: Any = None
    rule: str | None = None
    problem: str | None = None
    fenced: bool = False


class _NonFiniteError(ValueError):
    def __init__(self, token: str) -> None:
        super().__init__(token)
        self.token = token


def _reject_constant(token: str) -> Any:
    raise _NonFiniteError(token)


def _unfence(text: str) -> str | None:
    """The body of a single Markdown code fence spanning the whole text, or None."""
    if not (text.startswith(_FENCE) and text.endswith(_FENCE) and len(text) > 2 * len(_FENCE)):
        return None
    first_newline = text.find("\n")
    if first_newline < 0:
        return None
    language = text[len(_FENCE) : first_newline].strip().lower()
    body = text[first_newline + 1 : -len(_FENCE)]
    if language not in ("", "json") or _FENCE in body:
        return None
    return body


def parse_strict_json(text: str, *, accept_fenced: bool) -> JsonCheck:
    """Parse ``text`` as strict JSON; never raises."""
    stripped = text.strip()
    if not stripped:
        return JsonCheck(ok=False, rule="not_json", problem="the output is empty")
    body = _unfence(stripped)
    if body is not None and not accept_fenced:
        return JsonCheck(
            ok=False, rule="fenced_json", problem="JSON wrapped in a Markdown code fence"
        )
    check = _loads(stripped if body is None else body)
    if body is not None and check.ok:
        return JsonCheck(ok=True, value=check.value, fenced=True)
    return check


def _loads(text: str) -> JsonCheck:
    try:
        value = loads_json(text, object_pairs_hook=unique_object, parse_constant=_reject_constant)
    except DuplicateKeyError as exc:
        key = shorten(exc.key, 80)
        return JsonCheck(ok=False, rule="duplicate_key", problem=f"key {key!r} appears twice")
    except _NonFiniteError as exc:
        return JsonCheck(ok=False, rule="not_json", problem=f"{exc.token} is not valid JSON")
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        return JsonCheck(ok=False, rule="not_json", problem=f"{exc.msg} at {where}")
    except RecursionError:
        return JsonCheck(ok=False, rule="json_too_deep", problem="nested too deeply to parse")
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        return JsonCheck(ok=False, rule="not_json", problem=shorten(f"not usable JSON: {exc}"))
    return JsonCheck(ok=True, value=value)


@lru_cache(maxsize=256)
def _validator(schema_text: str) -> Validator:
    validator: Validator = linear_validator(json.loads(schema_text))
    return validator


def schema_problem(value: Any, schema: dict[str, Any], *, case_id: str) -> str | None:
    """Why ``value`` breaks ``schema`` (JSON path and message of the best error), or None.

    A schema that is itself invalid is an `InputError`: the suite is wrong, not the output.
    """
    from jsonschema import SchemaError  # only cases with a schema load jsonschema
    from jsonschema.exceptions import best_match

    try:
        validator = _validator(json.dumps(schema, sort_keys=True))
    except SchemaError as exc:
        raise InputError(
            f"case {case_id!r}: json_schema is not a valid JSON Schema: {shorten(exc.message)}",
            hint="fix the case's expect.json_schema",
        ) from None
    except ValueError as exc:
        raise InputError(
            f"case {case_id!r}: json_schema: {shorten(str(exc))}",
            hint="rewrite the pattern without backreferences or lookaround",
        ) from None
    try:
        errors: list[ValidationError] = list(islice(validator.iter_errors(value), 100))
    except RecursionError:
        return "nested too deeply to validate against the schema"
    best = best_match(errors)
    if best is None:
        return None
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{best.json_path}: {shorten(best.message)}{more}"
