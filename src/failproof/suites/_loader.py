"""Load suite files (YAML, JSON, JSONL) into validated `Suite` objects.

Every problem is reported as a `SuiteError` naming the file, the line where it can be known, the
case id and what to fix. Nothing is run from a file that does not load completely.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from failproof.core import Case, Suite
from failproof.errors import SuiteError
from failproof.guard import UnreadableInput, loads_json
from failproof.guard._input import YAML_LIMITS, decode_text, read_limited
from failproof.guard._schema import regex_problems
from failproof.guard._text import clean_data, clean_parsed

if TYPE_CHECKING:
    import yaml

__all__ = ["SUITE_SUFFIXES", "check_unique", "jsonl_case", "load_suite", "parse_suite", "stem_name"]

SUITE_SUFFIXES = (".yaml", ".yml", ".json", ".jsonl")
_TOP_KEYS = ("suite", "description", "weight", "defaults", "cases")
_CASE_KEYS = tuple(Case.model_fields)
_DEFAULTS = tuple(key for key in _CASE_KEYS if key != "id")
_NAME = re.compile(r"^[a-z0-9_]+$")


class _SuiteHeader(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)
    suite: str = Field(pattern=r"^[a-z0-9_]+$")
    description: str = ""
    weight: float = Field(default=1.0, ge=0)
    defaults: dict[str, Any] = Field(default_factory=dict)
    cases: list[Any]


def load_suite(path: str | Path) -> Suite:
    """Load and validate one suite file; raises `SuiteError` with the location of any problem."""
    path = Path(path)
    try:
        text = decode_text(read_limited(path, YAML_LIMITS.max_bytes), source=str(path))
    except FileNotFoundError:
        raise SuiteError("file not found", path=str(path)) from None
    except OSError as exc:
        raise SuiteError(f"cannot read file: {exc.strerror}", path=str(path)) from None
    except UnreadableInput as exc:
        raise SuiteError(exc.message, path=str(path), line=exc.line, hint=exc.hint) from None
    return parse_suite(text, path=str(path))


def parse_suite(text: str, *, path: str = "<suite>") -> Suite:
    """Parse suite text; the format follows the file's suffix (YAML when unknown)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".jsonl":
        return _from_jsonl(text, path)
    lines: _YamlLines | _JsonLines
    if suffix == ".json":
        data, lines = _parse_json(text, path), _JsonLines(text)
    else:
        data, lines = _parse_yaml(text, path)
    if isinstance(data, list):
        data = {"suite": stem_name(path), "cases": data}
    return _build(data, path, lines)


# -- YAML ------------------------------------------------------------------------------------


class _YamlLines:
    """Line numbers (1-based) of the cases and of their keys, from the YAML node tree."""

    def __init__(self, root: yaml.Node | None) -> None:
        import yaml  # a JSON or JSONL suite never pays for it

        self._top: dict[str, int] = {}
        self._cases: list[tuple[int, dict[str, int]]] = []
        if not isinstance(root, yaml.MappingNode):
            return
        for key, value in root.value:
            self._top[str(key.value)] = key.start_mark.line + 1
            if key.value == "cases" and isinstance(value, yaml.SequenceNode):
                for item in value.value:
                    keys = {}
                    if isinstance(item, yaml.MappingNode):
                        keys = {str(k.value): k.start_mark.line + 1 for k, _ in item.value}
                    self._cases.append((item.start_mark.line + 1, keys))

    def top(self, key: str) -> int | None:
        return self._top.get(key)

    def case(self, index: int, key: str | None = None) -> int | None:
        if index >= len(self._cases):
            return None
        line, keys = self._cases[index]
        return keys.get(key, line) if key else line


def _parse_yaml(text: str, path: str) -> tuple[Any, _YamlLines]:
    """Compose once within the limits (libyaml when installed), then build the data from it."""
    from failproof.guard import compose_yaml, construct_yaml

    try:
        root = compose_yaml(text, source=path)
        data = clean_data(construct_yaml(root, source=path))[0]
    except UnreadableInput as exc:
        raise SuiteError(exc.message, path=path, line=exc.line, hint=exc.hint) from None
    if data is None:
        raise SuiteError("file is empty", path=path, hint="a suite needs 'suite:' and 'cases:'")
    return data, _YamlLines(root)


# -- JSON / JSONL ----------------------------------------------------------------------------


class _JsonLines:
    """Best-effort line numbers in a JSON file: the line where a case's id first appears."""

    def __init__(self, text: str) -> None:
        self._text = text
        self._ids: list[str] = []

    def top(self, key: str) -> int | None:
        return self._find(f'"{key}"')

    def case(self, index: int, key: str | None = None) -> int | None:  # noqa: ARG002
        if index < len(self._ids):
            return self._find(json.dumps(self._ids[index]))
        return None

    def remember_ids(self, ids: list[str]) -> None:
        self._ids = ids

    def _find(self, needle: str) -> int | None:
        pos = self._text.find(needle)
        return self._text.count("\n", 0, pos) + 1 if pos >= 0 else None


def _parse_json(text: str, path: str) -> Any:
    try:
        return clean_parsed(loads_json(text), text)[0]
    except json.JSONDecodeError as exc:
        raise SuiteError(f"JSON syntax error: {exc.msg}", path=path, line=exc.lineno) from None
    except RecursionError:
        raise SuiteError("JSON nested too deeply", path=path) from None
    except ValueError as exc:
        raise SuiteError(f"JSON not usable: {exc}", path=path) from None


def _from_jsonl(text: str, path: str) -> Suite:
    cases: list[Case] = []
    seen: dict[str, int] = {}
    name = stem_name(path)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        case = jsonl_case(raw, lineno, name, path)
        if case is None:
            continue
        check_unique(case, seen, path, lineno)
        cases.append(case)
    if not cases:
        raise SuiteError("no cases in file", path=path, hint="one JSON object per line")
    suite_names = {c.suite for c in cases}
    if len(suite_names) > 1:
        raise SuiteError(f"cases name several suites: {sorted(suite_names)}", path=path)
    return Suite(name=cases[0].suite, cases=tuple(cases), source=path)


def jsonl_case(raw: str, lineno: int, name: str, path: str) -> Case | None:
    """The case on line ``lineno`` of a JSONL suite (None for a blank line), checked; ``name``
    is the suite's name when the line does not give one."""
    if not raw.strip():
        return None
    try:
        record = clean_parsed(loads_json(raw), raw)[0]
    except (ValueError, RecursionError) as exc:
        raise SuiteError(f"JSON syntax error: {exc}", path=path, line=lineno) from None
    if not isinstance(record, dict):
        raise SuiteError("each line must be a JSON object (one case)", path=path, line=lineno)
    suite = record.pop("suite", name)
    return _validate_case(record, suite, path, lambda _k, n=lineno: n)


# -- shared ----------------------------------------------------------------------------------


def stem_name(path: str) -> str:
    """The suite name a file gives when it names none: its stem, lower-cased, ``[a-z0-9_]``."""
    stem = re.sub(r"[^a-z0-9_]", "_", Path(path).stem.lower())
    return stem or "suite"


def _build(data: Any, path: str, lines: _YamlLines | _JsonLines) -> Suite:
    if not isinstance(data, Mapping):
        raise SuiteError(
            f"top level must be a mapping with 'suite' and 'cases', not {type(data).__name__}",
            path=path,
            line=1,
        )
    header = _validate_header(data, path, lines)
    _check_defaults(header.defaults, path, lines.top("defaults"))
    raw_cases = header.cases
    if isinstance(lines, _JsonLines):
        lines.remember_ids([str(c.get("id", "")) if isinstance(c, dict) else "" for c in raw_cases])
    cases: list[Case] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(raw_cases):
        line = lines.case(index)
        if not isinstance(raw, Mapping):
            raise SuiteError(f"case #{index + 1} must be a mapping", path=path, line=line)
        merged = _merge_defaults(header.defaults, raw)
        case = _validate_case(merged, header.suite, path, lambda k, i=index: lines.case(i, k))
        check_unique(case, seen, path, line)
        cases.append(case)
    if not cases:
        raise SuiteError("suite has no cases", path=path, line=lines.top("cases"))
    return Suite(
        name=header.suite,
        description=header.description,
        weight=header.weight,
        cases=tuple(cases),
        source=path,
    )


def _validate_header(data: Mapping[str, Any], path: str, lines: _YamlLines | _JsonLines) -> Any:
    for key in data:
        if key not in _TOP_KEYS:
            raise SuiteError(
                f"unknown top-level key {key!r}",
                path=path,
                line=lines.top(str(key)),
                hint=_suggest(str(key), _TOP_KEYS),
            )
    for key in ("suite", "cases"):
        if key not in data:
            raise SuiteError(f"missing required key {key!r}", path=path, line=1)
    try:
        return _SuiteHeader.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        key = str(err["loc"][0])
        raise SuiteError(_describe(err), path=path, line=lines.top(key)) from None


def _check_defaults(defaults: Mapping[str, Any], path: str, line: int | None) -> None:
    """Every key of ``defaults`` is a case's key other than ``id``: a wrong one is the defaults'
    error, not the first case's."""
    for key in defaults:
        if key == "id" or key not in _CASE_KEYS:
            hint = "each case gives its own id" if key == "id" else _suggest(str(key), _DEFAULTS)
            raise SuiteError(f"unknown key {key!r} in defaults", path=path, line=line, hint=hint)


def _validate_case(raw: Mapping[str, Any], suite: str, path: str, line_of: Any) -> Case:
    case_id = str(raw["id"]) if "id" in raw and raw["id"] is not None else None
    for key in raw:
        if key not in _CASE_KEYS:
            raise SuiteError(
                f"unknown key {key!r}",
                path=path,
                line=line_of(str(key)),
                case_id=case_id,
                hint=_suggest(str(key), _CASE_KEYS),
            )
    if "suite" in raw and raw["suite"] != suite:
        raise SuiteError(
            f"case names suite {raw['suite']!r} but the file is suite {suite!r}",
            path=path,
            line=line_of("suite"),
            case_id=case_id,
        )
    if "id" not in raw:
        raise SuiteError("missing required key 'id'", path=path, line=line_of(None))
    if "input" not in raw:
        raise SuiteError(
            "missing required key 'input'",
            path=path,
            line=line_of(None),
            case_id=case_id,
            hint="give the text (or list of messages) sent to the model",
        )
    _check_empty_any(raw, path, line_of, case_id)
    try:
        case = Case.model_validate({**raw, "suite": suite})
    except ValidationError as exc:
        err = _first_error(exc)
        field = str(err["loc"][0]) if err["loc"] else None
        raise SuiteError(_describe(err), path=path, line=line_of(field), case_id=case_id) from None
    _check_json_schema(case, path, line_of("expect"))
    return case


def _expects(raw: Mapping[str, Any]) -> list[Any]:
    turns = raw.get("turns")
    listed = turns if isinstance(turns, list) else []
    return [raw.get("expect"), *(t.get("expect") for t in listed if isinstance(t, Mapping))]


def _check_empty_any(raw: Mapping[str, Any], path: str, line_of: Any, case_id: str | None) -> None:
    """``must_contain_any: []`` names no acceptable phrase: refused, never a check that passes."""
    for expect in _expects(raw):
        if isinstance(expect, Mapping) and expect.get("must_contain_any") == []:
            raise SuiteError(
                "expect.must_contain_any is an empty list: no phrase could be found, so the "
                "check would mean nothing",
                path=path,
                line=line_of("expect"),
                case_id=case_id,
                hint="list the phrases of which one must appear, or remove must_contain_any",
            )


def _check_json_schema(case: Case, path: str, line: int | None) -> None:
    """A case's ``expect.json_schema`` must itself be a valid JSON Schema."""
    schema = case.expect.json_schema if case.expect else None
    if schema is None:
        return
    key = repr(schema)
    if key not in _SCHEMA_PROBLEMS:
        if len(_SCHEMA_PROBLEMS) >= 256:
            _SCHEMA_PROBLEMS.clear()
        _SCHEMA_PROBLEMS[key] = _schema_problem(schema)
    problem = _SCHEMA_PROBLEMS[key]
    if problem is not None:
        message, hint = problem
        raise SuiteError(message, path=path, line=line, case_id=case.id, hint=hint)


#: What `_schema_problem` found, by the schema's repr: the cases of a suite often share a schema.
_SCHEMA_PROBLEMS: dict[str, tuple[str, str | None] | None] = {}


def _schema_problem(schema: dict[str, Any]) -> tuple[str, str | None] | None:
    """What is wrong with ``schema`` as a JSON Schema (message, hint), or None."""
    from jsonschema.exceptions import SchemaError  # only a suite with a schema loads jsonschema
    from jsonschema.validators import validator_for

    try:
        validator_for(schema).check_schema(schema)
    except SchemaError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "(root)"
        return f"expect.json_schema is not a valid JSON Schema at {where}: {exc.message}", None
    for problem in regex_problems(schema):
        return (
            f"expect.json_schema: {problem}",
            "schema patterns run on RE2 so that no answer can freeze a run",
        )
    return None


def _merge_defaults(defaults: Mapping[str, Any], case: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults under the case's own keys; mapping values (expect, metadata) merge key by key."""
    merged = dict(defaults)
    for key, value in case.items():
        base = merged.get(key)
        if isinstance(base, Mapping) and isinstance(value, Mapping):
            merged[key] = _merge_defaults(base, value)
        else:
            merged[key] = value
    return merged


def check_unique(case: Case, seen: dict[str, int], path: str, line: int | None) -> None:
    """A second case with an id already ``seen`` is an error naming the first."""
    if case.id in seen:
        raise SuiteError(
            f"duplicate case id (first used by case #{seen[case.id]})",
            path=path,
            line=line,
            case_id=case.id,
            hint="case ids must be unique within a suite",
        )
    seen[case.id] = len(seen) + 1


def _first_error(exc: ValidationError) -> ErrorDetails:
    """The first error, with a union's per-branch errors folded into one plain message."""
    errors = exc.errors()
    first = errors[0]
    if first["loc"] and first["loc"][0] == "input" and len(first["loc"]) > 1:
        branch = str(first["loc"][1])
        if branch in ("str", "list[Message]"):
            same = [e for e in errors if e["loc"][:1] == ("input",)]
            deeper = [e for e in same if len(e["loc"]) > 2]
            if deeper:  # a message inside the list is wrong: report that one
                inner = deeper[0].copy()
                inner["loc"] = ("input", *deeper[0]["loc"][2:])
                return inner
            return {
                "type": "union",
                "loc": ("input",),
                "msg": "give a string or a list of {role, content} messages",
                "input": first.get("input"),
            }
    return first


def _describe(err: Mapping[str, Any]) -> str:
    loc = ".".join(str(p) for p in err["loc"])
    msg = str(err["msg"]).removeprefix("Value error, ")
    got = err.get("input")
    shown = "" if isinstance(got, (dict, list)) or got is None else f" (got {got!r})"
    return f"{loc}: {msg}{shown}" if loc else f"{msg}{shown}"


def _suggest(key: str, known: tuple[str, ...]) -> str:
    close = difflib.get_close_matches(key, known, n=1)
    if close:
        return f"did you mean {close[0]!r}?"
    return "allowed keys: " + ", ".join(known)


def iter_suite_files(folder: Path) -> Iterator[Path]:
    """Suite files directly inside ``folder``, sorted by name."""
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() in SUITE_SUFFIXES and path.is_file():
            yield path
