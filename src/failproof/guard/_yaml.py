"""The one YAML reader of failproof: every YAML file and text is read within limits.

A few hundred bytes of YAML can expand to billions of nodes through aliases (an "alias bomb"),
nest thousands deep, or be gigabytes long. Every YAML read (suites, pattern files, importers,
configs, the package's own data) goes through `load_yaml` / `read_yaml`, which refuse:

* more than `YamlLimits.max_bytes` of text;
* nesting deeper than ``max_depth`` (aliases counted as what they repeat);
* aliases that add more than ``max_alias_expansion`` nodes beyond those written, more than
  ``max_nodes`` nodes in all, or an alias inside its own anchor;
* a key given twice in one mapping (YAML readers disagree on which value wins).

Each refusal is an `UnreadableInput` naming the source and, where known, the line.
``schema="1.2"`` reads plain scalars as YAML 1.2's core schema does (``Yes``, ``on``, ``2024-01-01``
and ``1:30`` stay text; only ``true``/``false`` are booleans): the reading of JavaScript tools.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

import yaml

from failproof.guard._input import (
    YAML_LIMITS,
    UnreadableInput,
    YamlLimits,
    decode_text,
    read_limited,
)

__all__ = ["compose_yaml", "construct_yaml", "load_yaml", "read_yaml"]

Schema = Literal["1.1", "1.2"]


# -- YAML 1.2 core schema -----------------------------------------------------------------------

_INT_12 = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT_12 = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)


class _PythonLoader(yaml.SafeLoader):
    """PyYAML's pure-Python loader (when libyaml is missing), refusing nesting past the depth
    limit as libyaml does past 1,000 levels, instead of exhausting Python's stack."""

    depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        self.depth += 1
        try:
            if self.depth > YAML_LIMITS.max_depth + 1:
                mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
                raise yaml.composer.ComposerError(
                    None, None, "exceeded maximum nesting depth", mark
                )
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


_LOADER: Any = getattr(yaml, "CSafeLoader", _PythonLoader)


def _int_12(loader: Any, node: yaml.ScalarNode) -> int:
    text = str(loader.construct_scalar(node))
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text)


class _Core12Loader(_LOADER):  # type: ignore[misc]
    """libyaml's parser with YAML 1.2's core schema (plus ``<<`` merges) for plain scalars."""

    yaml_implicit_resolvers: dict[Any, Any] = {}  # noqa: RUF012 - PyYAML's class registry


for _tag, _pattern, _first in (
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("int", _INT_12.pattern, "-+0123456789"),
    ("float", _FLOAT_12.pattern, "-+0123456789."),
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("merge", r"^(?:<<)$", "<"),
):
    _Core12Loader.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(_pattern), _first)
_Core12Loader.add_constructor("tag:yaml.org,2002:int", _int_12)
_LOADERS: dict[str, Any] = {"1.1": _LOADER, "1.2": _Core12Loader}


# -- composing within limits ----------------------------------------------------------------------


def compose_yaml(
    text: str, *, source: str = "<yaml>", limits: YamlLimits = YAML_LIMITS, schema: Schema = "1.1"
) -> yaml.Node | None:
    """The node tree of ``text`` (libyaml when installed), checked against ``limits``."""
    if len(text) > limits.max_bytes:
        raise UnreadableInput(f"larger than {limits.max_bytes:,} bytes", source=source)
    try:
        root = yaml.compose(text, Loader=_LOADERS[schema])
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(text, exc, source, schema) from None
    except yaml.YAMLError as exc:
        raise UnreadableInput(f"not valid YAML: {str(exc)[:200]}", source=source) from None
    except RecursionError:  # the pure-Python composer, on nesting libyaml refuses itself
        raise _too_deep(source, None, limits) from None
    if root is not None:
        _TreeCheck(source, limits).run(root)
    return root


def construct_yaml(
    root: yaml.Node | None, *, source: str = "<yaml>", schema: Schema = "1.1"
) -> Any:
    """The Python data of a checked node tree (mappings, lists, strings, numbers, ...)."""
    if root is None:
        return None
    constructor = _LOADERS[schema].__new__(_LOADERS[schema])
    yaml.constructor.SafeConstructor.__init__(constructor)
    try:
        return constructor.construct_document(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or exc.context or "not valid YAML"
        raise UnreadableInput(f"YAML: {problem}", source=source, line=line) from None
    except (ValueError, OverflowError, TypeError) as exc:  # a value Python cannot hold
        raise UnreadableInput(f"YAML value not usable: {str(exc)[:200]}", source=source) from None


def load_yaml(
    text: str | bytes,
    *,
    source: str = "<yaml>",
    limits: YamlLimits = YAML_LIMITS,
    schema: Schema = "1.1",
) -> Any:
    """The data of one YAML document read within ``limits``; raises `UnreadableInput`."""
    if isinstance(text, bytes):
        if len(text) > limits.max_bytes:
            raise UnreadableInput(f"larger than {limits.max_bytes:,} bytes", source=source)
        text = decode_text(text, source=source)
    root = compose_yaml(text, source=source, limits=limits, schema=schema)
    return construct_yaml(root, source=source, schema=schema)


def read_yaml(path: Path, *, limits: YamlLimits = YAML_LIMITS, schema: Schema = "1.1") -> Any:
    """The data of the YAML file ``path`` read within ``limits``; raises `UnreadableInput` (or
    `OSError` when the file cannot be opened)."""
    raw = read_limited(path, limits.max_bytes)
    return load_yaml(raw, source=str(path), limits=limits, schema=schema)


def _syntax_error(
    text: str, exc: yaml.MarkedYAMLError, source: str, schema: Schema
) -> UnreadableInput:
    if "maximum nesting depth" in str(exc.problem or ""):
        mark = exc.problem_mark
        return _too_deep(source, mark.line + 1 if mark else None, YAML_LIMITS)
    exc = _python_account(text, exc, schema)
    mark = exc.problem_mark or exc.context_mark
    return UnreadableInput(
        f"YAML syntax error: {exc.problem or exc.context or 'invalid YAML'}",
        source=source,
        line=mark.line + 1 if mark else None,
        hint="check indentation and quoting around this line",
    )


def _python_account(text: str, exc: yaml.MarkedYAMLError, schema: Schema) -> yaml.MarkedYAMLError:
    """The pure-Python parser's account of a syntax error: it says what it expected and where."""
    if _LOADERS[schema] is _PythonLoader:
        return exc
    try:
        for _ in yaml.parse(text, Loader=_PythonLoader):
            pass
    except yaml.MarkedYAMLError as python_exc:
        return python_exc
    except RecursionError:
        return exc
    return exc


def _too_deep(source: str, line: int | None, limits: YamlLimits) -> UnreadableInput:
    return UnreadableInput(
        f"YAML nested more than {limits.max_depth} levels deep",
        source=source,
        line=line,
        hint="flatten the structure; no suite or config needs such depth",
    )


_COLLECTIONS = (yaml.MappingNode, yaml.SequenceNode)


class _TreeCheck:
    """One walk of the node tree (no recursion): depth and size with aliases expanded, each
    collection visited once (a scalar counts one wherever it appears), duplicate keys."""

    def __init__(self, source: str, limits: YamlLimits) -> None:
        self.source, self.limits = source, limits
        self.size: dict[int, int] = {}
        self.height: dict[int, int] = {}
        self.written = 0
        self.repeated = 0

    def run(self, root: yaml.Node) -> None:
        if not isinstance(root, _COLLECTIONS):
            return
        stack: list[tuple[yaml.Node, bool]] = [(root, False)]
        open_nodes: set[int] = set()
        while stack:
            node, done = stack.pop()
            key = id(node)
            if done:
                open_nodes.discard(key)
                self._finish(node)
            elif key in open_nodes:
                raise UnreadableInput(
                    "a YAML alias refers to the node that contains it",
                    source=self.source,
                    line=_line(node),
                )
            elif key in self.size:  # an alias of a collection already walked
                self.repeated += self.size[key]
                if self.repeated > self.limits.max_alias_expansion:
                    raise self._bomb(self.repeated, _line(node))
            else:
                open_nodes.add(key)
                stack.append((node, True))
                stack.extend((c, False) for c in _children(node) if isinstance(c, _COLLECTIONS))
        expanded = self.size[id(root)]
        if expanded - self.written > self.limits.max_alias_expansion:
            raise self._bomb(expanded - self.written, None)

    def _bomb(self, repeated: int, line: int | None) -> UnreadableInput:
        where = f"the anchor on line {line}" if line else "anchors"
        return UnreadableInput(
            f"YAML aliases of {where} repeat more than {self.limits.max_alias_expansion:,} nodes "
            f"({repeated:,} so far); refusing an alias bomb",
            source=self.source,
            line=line,
            hint="write the repeated parts out instead of repeating aliases",
        )

    def _finish(self, node: yaml.Node) -> None:
        size, height = 1, 1
        values = node.value
        if isinstance(node, yaml.MappingNode):
            _reject_duplicate_keys(node, self.source)
            for k, v in values:
                size += self._size(k)
                height = max(height, 1 + self._height(v))  # a key and its value: one level
            size += sum(self._size(v) for _, v in values)
        else:
            for item in values:
                size += self._size(item)
                height = max(height, 1 + self._height(item))
        self.written += 1 + sum(2 if isinstance(node, yaml.MappingNode) else 1 for _ in values)
        self.size[id(node)], self.height[id(node)] = size, height
        if height > self.limits.max_depth:
            raise _too_deep(self.source, _line(node), self.limits)
        if size > self.limits.max_nodes:
            raise UnreadableInput(
                f"the YAML expands to more than {self.limits.max_nodes:,} nodes "
                "(aliases repeated too often)",
                source=self.source,
                line=_line(node),
                hint="write the repeated parts out instead of repeating aliases",
            )

    def _size(self, node: yaml.Node) -> int:
        return self.size[id(node)] if isinstance(node, _COLLECTIONS) else 1

    def _height(self, node: yaml.Node) -> int:
        return self.height[id(node)] if isinstance(node, _COLLECTIONS) else 1


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    return list(node.value)


def _line(node: yaml.Node) -> int:
    return int(node.start_mark.line) + 1


def _reject_duplicate_keys(node: yaml.MappingNode, source: str) -> None:
    names = [(k.tag, k.value) for k, _ in node.value if isinstance(k, yaml.ScalarNode)]
    if len(set(names)) == len(names):
        return
    seen: set[tuple[str, str]] = set()
    for key, _ in node.value:
        if not isinstance(key, yaml.ScalarNode):
            continue
        name = (str(key.tag), str(key.value))
        if name in seen:
            raise UnreadableInput(
                f"duplicate key {key.value!r} in one mapping",
                source=source,
                line=_line(key),
                hint="each key may appear once; the second would silently replace the first",
            )
        seen.add(name)
