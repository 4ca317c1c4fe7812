"""The prompts and tests of a promptfoo config, inline or in the files it names.

Prompts: text, ``{raw|id, label}`` entries, a ``{path: label}`` map, and ``file://`` files and globs
(``.txt``/``.md`` split on ``---`` lines, ``.json`` as one chat or text prompt, ``.jsonl`` one per
line, ``.yaml`` a chat as a list of messages). Tests: mappings, and ``file://`` YAML, JSON, JSONL
and CSV files (vars from the columns; ``__expected``, ``__description``, ``__prefix``,
``__suffix`` as promptfoo reads them). Prompt functions (``.py``, ``.js``) are code: not read,
listed. Every entry keeps where it came from (``file:line``) for the summary.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from failproof.errors import InputError
from failproof.guard import UnreadableInput, compose_yaml, construct_yaml, loads_json
from failproof.importers._common import ImportSummary
from failproof.importers._files import FileRefs, csv_rows
from failproof.importers._promptfoo_assert import parse_csv_assertion

__all__ = [
    "CodeRef",
    "Prompt",
    "Test",
    "load_config",
    "load_prompts",
    "load_tests",
    "read_value",
    "to_test",
]

_CODE_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".sh", ".rb", ".go")
#: ``file://prompts.py:make_prompt``: a function in a code file.
_CODE_FUNCTION = re.compile(r"(\.(?:py|js|mjs|cjs|ts)):[\w.]+$")
_BARE_PATH = re.compile(r"^[\w./-]+\.(?:txt|md|json|jsonl|yaml|yml|csv)$")
_SEPARATOR = re.compile(r"^-{3,}[ \t]*$", re.M)


@dataclass(frozen=True)
class Prompt:
    text: str
    where: str


@dataclass
class Test:
    """One promptfoo test as read: its vars and assertions, and where it was written."""

    where: str
    vars: dict[str, Any] = field(default_factory=dict)
    asserts: list[Any] = field(default_factory=list)
    description: str = ""
    prefix: str = ""
    suffix: str = ""
    transformed: bool = False
    metadata: dict[str, Any] = field(default_factory=dict)


# -- YAML with the line of each list item ------------------------------------------------------


@dataclass(frozen=True)
class Located:
    """Data read from a YAML file, with the line of each item of its top-level lists."""

    data: Any
    source: str
    lines: dict[str, list[int]]

    def where(self, key: str, index: int) -> str:
        found = self.lines.get(key, [])
        line = f":{found[index]}" if index < len(found) else ""
        return f"{self.source}{line}"


def _locate(text: str, source: str) -> Located:
    try:
        root = compose_yaml(text, source=source, schema="1.2")
        data = construct_yaml(root, source=source, schema="1.2")
    except UnreadableInput as exc:
        raise InputError(str(exc)) from None
    return Located(data, source, _item_lines(root))


def _item_lines(root: yaml.Node | None) -> dict[str, list[int]]:
    def lines(node: yaml.Node) -> list[int]:
        if isinstance(node, yaml.SequenceNode):
            return [int(item.start_mark.line) + 1 for item in node.value]
        return [int(node.start_mark.line) + 1]

    if isinstance(root, yaml.MappingNode):
        return {str(k.value): lines(v) for k, v in root.value}
    return {"": lines(root)} if root is not None else {}


def bare_path(text: str, refs: FileRefs) -> str:
    """``prompts.txt`` as older promptfoo configs write a file: ``file://prompts.txt`` when it
    names a file beside the config, else the text itself."""
    if _BARE_PATH.match(text) and (refs.base / text).is_file():
        return f"file://{text}"
    return text


def load_config(path: Path, refs: FileRefs) -> Located:
    found = _locate(refs.read(path), path.name)
    if not isinstance(found.data, dict):
        raise InputError(
            f"{path}: not a promptfoo config (a mapping)", hint="give a promptfooconfig.yaml"
        )
    return found


# -- values that may name a file ------------------------------------------------------------------


def read_value(value: Any, refs: FileRefs, where: str) -> Any:
    """A var or schema that is ``file://...``: the file's text (or data, for JSON and YAML);
    a `CodeRef` for code (``file://vars.py``, ``file://make.js:fn``)."""
    if not (isinstance(value, str) and value.startswith("file://")):
        return value
    (path,) = refs.paths(_CODE_FUNCTION.sub(r"\1", value), where)[:1]
    if path.suffix.lower() in _CODE_SUFFIXES:
        return CodeRef(value)
    text = refs.read(path)
    if path.suffix.lower() in (".json", ".yaml", ".yml"):
        return _parse_data(text, path)
    return text


@dataclass(frozen=True)
class CodeRef:
    """A reference to code (a var or schema made by a function): never run by an importer."""

    ref: str


def _parse_data(text: str, path: Path) -> Any:
    if path.suffix.lower() == ".json":
        try:
            return loads_json(text)
        except (ValueError, RecursionError) as exc:
            raise InputError(f"{path}: not JSON: {str(exc)[:200]}") from None
    return _locate(text, path.name).data


# -- prompts ------------------------------------------------------------------------------------


def load_prompts(found: Located, refs: FileRefs, summary: ImportSummary) -> list[Prompt]:
    raw = found.data.get("prompts")
    if raw is None:
        return [Prompt("{{prompt}}", "default prompt")]
    if isinstance(raw, dict):  # {path: label}
        raw = list(raw)
    prompts: list[Prompt] = []
    for index, entry in enumerate(raw if isinstance(raw, list) else [raw]):
        where = found.where("prompts", index)
        text = entry.get("raw") or entry.get("id") if isinstance(entry, dict) else entry
        text = bare_path(text, refs) if isinstance(text, str) else text
        if not isinstance(text, str):
            summary.miss("prompt that is not text: not read", where)
        elif text.startswith("file://"):
            prompts += _prompt_files(text, refs, where, summary)
        else:
            prompts.append(Prompt(text, where))
    return prompts


def _prompt_files(ref: str, refs: FileRefs, where: str, summary: ImportSummary) -> list[Prompt]:
    prompts: list[Prompt] = []
    for path in refs.paths(_CODE_FUNCTION.sub(r"\1", ref), where):
        suffix = path.suffix.lower()
        if suffix in _CODE_SUFFIXES:
            summary.miss(
                f"prompt function ({suffix}): code, not read", f"{where} {refs.label(path)}"
            )
            continue
        prompts += _prompts_of(refs.label(path), refs.read(path), suffix)
    return prompts


def _prompts_of(name: str, text: str, suffix: str) -> list[Prompt]:
    if suffix == ".jsonl":
        lines = text.splitlines()
        return [Prompt(t, f"{name}:{n}") for n, t in enumerate(lines, 1) if t.strip()]
    if suffix in (".yaml", ".yml"):
        data = _locate(text, name).data
        return [Prompt(data if isinstance(data, str) else json.dumps(data), name)]
    if suffix == ".json":
        return [Prompt(text.strip(), name)]
    parts = [p.strip() for p in _SEPARATOR.split(text)]
    return [Prompt(p, f"{name} prompt {n}") for n, p in enumerate(parts, 1) if p]


# -- tests ----------------------------------------------------------------------------------------


def load_tests(found: Located, refs: FileRefs, summary: ImportSummary) -> list[Test]:
    raw = found.data.get("tests") or []
    tests: list[Test] = []
    for index, entry in enumerate(raw if isinstance(raw, list) else [raw]):
        where = found.where("tests", index) + f" (test {index + 1})"
        entry = bare_path(entry, refs) if isinstance(entry, str) else entry
        if isinstance(entry, str) and _CODE_FUNCTION.search(entry):
            summary.miss("tests generated by code: not read", where)
        elif isinstance(entry, str) and entry.startswith("file://"):
            for path in refs.paths(entry, where):
                tests += _test_file(path, refs, summary)
        elif isinstance(entry, dict):
            tests.append(to_test(entry, where, summary, refs))
        else:
            summary.miss(f"test that is not a mapping ({type(entry).__name__}): not read", where)
    return tests


def to_test(
    entry: dict[str, Any], where: str, summary: ImportSummary, refs: FileRefs | None = None
) -> Test:
    """A test mapping, its parts checked: vars a mapping (or a file of one), assert a list of
    mappings."""
    variables = entry.get("vars") or {}
    if refs is not None and isinstance(variables, str) and variables.startswith("file://"):
        variables = read_value(variables, refs, where)
    if not isinstance(variables, dict):
        summary.miss("vars that are not a mapping: not read", where)
        variables = {}
    asserts = entry.get("assert") or []
    if isinstance(asserts, dict):
        asserts = [asserts]
    if not isinstance(asserts, list):
        summary.miss("assert that is not a list of assertions: not read", where)
        asserts = []
    found = entry.get("options")
    options: dict[str, Any] = found if isinstance(found, dict) else {}
    return Test(
        where=where,
        vars=variables,
        asserts=asserts,
        description=str(entry.get("description") or ""),
        prefix=str(options.get("prefix") or ""),
        suffix=str(options.get("suffix") or ""),
        transformed=bool(options.get("transform")),
        metadata=entry["metadata"] if isinstance(entry.get("metadata"), dict) else {},
    )


def _test_file(path: Path, refs: FileRefs, summary: ImportSummary) -> list[Test]:
    text, name = refs.read(path), refs.label(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return _csv_tests(text, path, name)
    if suffix == ".jsonl":
        entries = [(_json_line(t, path, n), f"{name}:{n}") for n, t in _numbered(text)]
    elif suffix == ".json":
        data = _parse_data(text, path)
        items = data if isinstance(data, list) else [data]
        entries = [(item, f"{name} (test {n})") for n, item in enumerate(items, 1)]
    elif suffix in (".yaml", ".yml"):
        found = _locate(text, name)
        items = found.data if isinstance(found.data, list) else [found.data]
        entries = [(item, found.where("", n) + f" (test {n + 1})") for n, item in enumerate(items)]
    else:
        summary.miss(f"tests file of type {suffix or '(none)'}: not read", name)
        return []
    tests = []
    for item, where in entries:
        if isinstance(item, dict):
            tests.append(to_test(item, where, summary, refs))
        else:
            summary.miss(f"test that is not a mapping ({type(item).__name__}): not read", where)
    return tests


def _numbered(text: str) -> list[tuple[int, str]]:
    return [(n, t) for n, t in enumerate(text.splitlines(), 1) if t.strip()]


def _json_line(text: str, path: Path, number: int) -> Any:
    try:
        return loads_json(text)
    except (ValueError, RecursionError) as exc:
        raise InputError(f"{path}:{number}: not a JSON line: {str(exc)[:200]}") from None


def _csv_tests(text: str, path: Path, name: str) -> list[Test]:
    """promptfoo's CSV tests: a column per var, ``__expected*`` assertions, ``__`` options."""
    tests = []
    for number, row in csv_rows(text, path):
        test = Test(where=f"{name}:{number}")
        for column, cell in row.items():
            if column.startswith("__expected") and cell.strip():
                test.asserts.append(parse_csv_assertion(cell))
            elif column in ("__description", "__prefix", "__suffix"):
                setattr(test, column.removeprefix("__"), cell)
            elif not column.startswith("__"):
                test.vars[column] = cell
        tests.append(test)
    return tests
