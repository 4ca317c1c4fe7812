"""JSON Schema validation whose regular expressions run in linear time (RE2).

The ``pattern``, ``patternProperties`` and ``additionalProperties`` keywords of jsonschema run
their regexes on Python's backtracking engine, where ``^([a-zA-Z0-9]+\\s?)*$`` against a short
hostile answer takes minutes. `linear_validator` swaps those keywords for RE2 versions. RE2 has
no backreferences or lookaround: `regex_problems` names every pattern of a schema it cannot
take, so a suite is refused when it loads, not when it runs.

Scoring never touches the network: `ref_problems` names every ``$ref`` that points outside the
schema itself (a suite is refused for it when it loads), and every validator built here
resolves references from the schema alone, never by fetching.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any, NoReturn
from urllib.parse import urldefrag, urljoin

import re2

__all__ = ["linear_validator", "offline_validator", "ref_problems", "regex_problems"]

_REF_KEYWORDS = ("$ref", "$dynamicRef", "$recursiveRef")


@lru_cache(maxsize=512)
def _compiled(pattern: str) -> Any:
    options = re2.Options()
    options.max_mem = 64 << 20
    options.log_errors = False  # a pattern RE2 cannot take is reported once, in a message
    return re2.compile(pattern, options)


def _search(pattern: str, text: str) -> bool:
    return _compiled(pattern).search(text) is not None


def _patterns(schema: Any) -> Iterator[str]:
    """Every regex of a schema: ``pattern`` values and ``patternProperties`` keys, at any depth."""
    if isinstance(schema, dict):
        if isinstance(schema.get("pattern"), str):
            yield schema["pattern"]
        if isinstance(schema.get("patternProperties"), dict):
            yield from (str(key) for key in schema["patternProperties"])
        for value in schema.values():
            yield from _patterns(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _patterns(value)


def _unevaluated_with_patterns(schema: Any) -> bool:
    if isinstance(schema, dict):
        if "unevaluatedProperties" in schema and "patternProperties" in schema:
            return True
        return any(_unevaluated_with_patterns(v) for v in schema.values())
    if isinstance(schema, list):
        return any(_unevaluated_with_patterns(v) for v in schema)
    return False


def regex_problems(schema: Any) -> list[str]:
    """Why each regex of ``schema`` cannot run in linear time; empty when all can."""
    problems = []
    for pattern in dict.fromkeys(_patterns(schema)):
        try:
            _compiled(pattern)
        except re2.error as exc:
            problems.append(
                f"pattern {pattern!r} cannot run on RE2 ({exc}): RE2 takes no backreferences "
                "or lookaround"
            )
    if _unevaluated_with_patterns(schema):
        problems.append(
            "unevaluatedProperties together with patternProperties is not supported: its "
            "regexes would run on Python's backtracking engine"
        )
    return problems


def _pattern(validator: Any, pattern: str, instance: Any, _schema: Any) -> Iterator[Any]:
    from jsonschema import ValidationError

    if validator.is_type(instance, "string") and not _search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(
    validator: Any, patterns: Any, instance: Any, _schema: Any
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if _search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _extras(instance: Any, schema: Any) -> list[str]:
    known = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    return [
        key for key in instance if key not in known and not any(_search(p, key) for p in patterns)
    ]


def _additional_properties(
    validator: Any, allowed: Any, instance: Any, schema: Any
) -> Iterator[Any]:
    from jsonschema import ValidationError

    if not validator.is_type(instance, "object"):
        return
    extras = _extras(instance, schema)
    if validator.is_type(allowed, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], allowed, path=extra)
    elif not allowed and extras:
        shown = ", ".join(repr(e) for e in sorted(extras))
        verb = "was" if len(extras) == 1 else "were"
        yield ValidationError(f"Additional properties are not allowed ({shown} {verb} unexpected)")


def _ids(schema: Any, base: str) -> Iterator[str]:
    """Every ``$id`` (and ``$anchor``) of a schema, resolved against its parents' ids."""
    if isinstance(schema, dict):
        if isinstance(schema.get("$id"), str):
            base = urljoin(base, schema["$id"])
            yield urldefrag(base).url
        for key in ("$anchor", "$dynamicAnchor"):
            if isinstance(schema.get(key), str):
                yield f"{urldefrag(base).url}#{schema[key]}"
        for value in schema.values():
            yield from _ids(value, base)
    elif isinstance(schema, list):
        for value in schema:
            yield from _ids(value, base)


def _refs(schema: Any, base: str) -> Iterator[tuple[str, str]]:
    """Every reference of a schema: ``(as written, resolved against the ids around it)``."""
    if isinstance(schema, dict):
        if isinstance(schema.get("$id"), str):
            base = urljoin(base, schema["$id"])
        for key in _REF_KEYWORDS:
            if isinstance(schema.get(key), str):
                yield schema[key], urljoin(base, schema[key])
        for value in schema.values():
            yield from _refs(value, base)
    elif isinstance(schema, list):
        for value in schema:
            yield from _refs(value, base)


def ref_problems(schema: Any) -> list[str]:
    """Every reference of ``schema`` that points outside it (it would have to be fetched)."""
    root = "https://schema.failproof.invalid/root.json"  # never fetched: a base to resolve against
    refs = dict.fromkeys(_refs(schema, root))
    if not refs:  # most schemas refer to nothing: no need to know their ids
        return []
    known = set(_ids(schema, root)) | {root}
    problems = []
    for written, resolved in refs:
        target, fragment = urldefrag(resolved)
        if target in known and (not fragment or fragment.startswith("/") or resolved in known):
            continue
        problems.append(
            f"$ref {written!r} is not inside the schema: failproof never fetches schemas "
            "while scoring; copy what it points to into the schema's $defs and refer to it as "
            "'#/$defs/NAME'"
        )
    return problems


def _refuse_retrieval(uri: str) -> NoReturn:
    raise LookupError(f"{uri!r} is outside the schema and failproof never fetches schemas")


def _offline_registry() -> Any:
    from referencing import Registry

    return Registry(retrieve=_refuse_retrieval)  # type: ignore[call-arg]


def offline_validator(schema: Any) -> Any:
    """A jsonschema validator for ``schema`` that resolves references only inside it."""
    from jsonschema.validators import validator_for

    return validator_for(schema)(schema, registry=_offline_registry())


def linear_validator(schema: Any) -> Any:
    """A jsonschema validator for ``schema`` (checked first) whose regexes run on RE2.

    Raises `jsonschema.SchemaError` for an invalid schema and `ValueError` naming every regex
    RE2 cannot take.
    """
    from jsonschema.validators import extend, validator_for

    base = validator_for(schema)
    base.check_schema(schema)
    if problems := regex_problems(schema):
        raise ValueError("; ".join(problems))
    linear = extend(  # type: ignore[no-untyped-call]
        base,
        {
            "pattern": _pattern,
            "patternProperties": _pattern_properties,
            "additionalProperties": _additional_properties,
        },
    )
    return linear(schema, registry=_offline_registry())
