"""Every text a server shows the model, with where it sits: names, descriptions, schema docs."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from failproof.mcp._model import ItemKind, ServerSurface

__all__ = ["Text", "surface_texts"]

_SCHEMA_TEXT = ("description", "title", "default", "examples", "enum", "const")


@dataclass(frozen=True)
class Text:
    """One text: the item it belongs to, where in the item, and whether it is a name."""

    kind: ItemKind
    item: str
    location: str
    value: str
    is_name: bool = False


def _schema_texts(schema: Any, where: str) -> Iterator[tuple[str, str, bool]]:
    """(location, text, is_name) for every string a schema holds, property names included."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            path = f"{where}.{key}"
            if key == "properties" and isinstance(value, dict):
                for name, sub in value.items():
                    yield f"{path}.{name}", str(name), True
                    yield from _schema_texts(sub, f"{path}.{name}")
            elif isinstance(value, str) and key in _SCHEMA_TEXT:
                yield path, value, False
            elif isinstance(value, dict | list):
                yield from _schema_texts(value, path)
    elif isinstance(schema, list):
        for index, value in enumerate(schema):
            if isinstance(value, str):
                yield f"{where}[{index}]", value, False
            else:
                yield from _schema_texts(value, f"{where}[{index}]")


def surface_texts(surface: ServerSurface) -> Iterator[Text]:
    """Every text of ``surface`` in a fixed order: instructions, tools, resources, prompts."""
    if surface.instructions:
        yield Text("server", "", "instructions", surface.instructions)
    for tool in surface.tools:
        yield Text("tool", tool.name, "name", tool.name, is_name=True)
        for location, value in (("title", tool.title or ""), ("description", tool.description)):
            if value:
                yield Text("tool", tool.name, location, value)
        for location, value, is_name in _schema_texts(tool.input_schema, "inputSchema"):
            yield Text("tool", tool.name, location, value, is_name)
    for resource in surface.resources:
        item = resource.name or resource.uri
        yield Text("resource", item, "name", resource.name, is_name=True)
        if resource.description:
            yield Text("resource", item, "description", resource.description)
    for prompt in surface.prompts:
        yield Text("prompt", prompt.name, "name", prompt.name, is_name=True)
        if prompt.description:
            yield Text("prompt", prompt.name, "description", prompt.description)
        for name, doc in prompt.arguments.items():
            yield Text("prompt", prompt.name, f"arguments.{name}", name, is_name=True)
            if doc:
                yield Text("prompt", prompt.name, f"arguments.{name}.description", doc)
