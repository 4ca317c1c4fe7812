"""What a server offers: its tools, resources and prompts, read page by page within limits.

A hostile server may list without end: at most `MAX_ITEMS` of each kind over `MAX_PAGES` pages
are kept (the cut is recorded in ``truncated`` and reported), a text longer than `MAX_TEXT`
characters is cut, and a schema larger than `MAX_SCHEMA` characters of JSON is replaced by a
marker. Text is made valid Unicode once, here.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from failproof.guard._json import JsonObject
from failproof.guard._text import clean_data, clean_text
from failproof.mcp._connect import Connection
from failproof.mcp._model import PromptDef, ResourceDef, ServerSurface, ToolDef

__all__ = ["MAX_ITEMS", "MAX_PAGES", "MAX_SCHEMA", "MAX_TEXT", "list_surface", "list_tools"]

MAX_ITEMS = 1000
MAX_PAGES = 50
MAX_TEXT = 20_000
MAX_SCHEMA = 100_000

Page = Callable[[Any], Awaitable[Any]]


def text(value: object) -> str:
    """A listed text made valid and cut to `MAX_TEXT` characters ('' for None)."""
    if not isinstance(value, str):
        return ""
    return clean_text(value[:MAX_TEXT])[0]


def _schema(value: object) -> JsonObject:
    if not isinstance(value, dict):
        return {}
    if len(json.dumps(value, default=str)) > MAX_SCHEMA:
        return {"x-failproof": f"schema larger than {MAX_SCHEMA} characters; not kept"}
    cleaned: dict[str, Any] = clean_data(value)[0]
    return cleaned


async def _pages(fetch: Page, field: str) -> tuple[list[Any], bool]:
    """Every item of a paginated listing, and whether it was cut at a limit."""
    from mcp.types import PaginatedRequestParams

    items: list[Any] = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        params = PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await fetch(params)
        items += list(getattr(page, field, []) or [])
        cursor = getattr(page, "next_cursor", None)
        if len(items) >= MAX_ITEMS:
            return items[:MAX_ITEMS], True
        if not cursor:
            return items, False
    return items, True


def _tool(tool: Any) -> ToolDef:
    annotations = (
        tool.annotations.model_dump(by_alias=True, exclude_none=True) if tool.annotations else {}
    )
    return ToolDef(
        name=text(tool.name),
        title=text(tool.title) or None,
        description=text(tool.description),
        input_schema=_schema(tool.input_schema),
        output_schema=_schema(tool.output_schema) if tool.output_schema else None,
        annotations=clean_data(annotations)[0],
    )


def _resource(resource: Any, uri_field: str) -> ResourceDef:
    return ResourceDef(
        uri=text(str(getattr(resource, uri_field, ""))),
        name=text(resource.name),
        description=text(resource.description),
        mime_type=text(resource.mime_type) or None,
    )


def _prompt(prompt: Any) -> PromptDef:
    arguments = {text(a.name): text(a.description) for a in prompt.arguments or []}
    return PromptDef(
        name=text(prompt.name), description=text(prompt.description), arguments=arguments
    )


async def list_surface(connection: Connection) -> ServerSurface:
    """The server's tools, resources (and templates) and prompts, as it lists them."""
    session = connection.session
    init = session.initialize_result
    capabilities = session.server_capabilities
    truncated: list[str] = []
    tools: list[ToolDef] = []
    resources: list[ResourceDef] = []
    prompts: list[PromptDef] = []
    if capabilities is None or capabilities.tools is not None:
        found, cut = await _pages(lambda p: session.list_tools(params=p), "tools")
        tools, truncated = [_tool(t) for t in found], truncated + ["tools"] * cut
    if capabilities is not None and capabilities.resources is not None:
        found, cut = await _pages(lambda p: session.list_resources(params=p), "resources")
        resources, truncated = [_resource(r, "uri") for r in found], truncated + ["resources"] * cut
        found, cut = await _pages(
            lambda p: session.list_resource_templates(params=p), "resource_templates"
        )
        resources += [_resource(r, "uri_template") for r in found]
        truncated += ["resource templates"] * cut
    if capabilities is not None and capabilities.prompts is not None:
        found, cut = await _pages(lambda p: session.list_prompts(params=p), "prompts")
        prompts, truncated = [_prompt(p) for p in found], truncated + ["prompts"] * cut
    info = session.server_info
    return ServerSurface(
        server_name=text(info.name if info else ""),
        server_version=text(info.version if info else ""),
        instructions=text(init.instructions if init else ""),
        tools=tools,
        resources=resources,
        prompts=prompts,
        truncated=truncated,
    )


async def list_tools(connection: Connection) -> list[ToolDef]:
    """The server's tools as it lists them now (within the limits)."""
    session = connection.session
    found, _ = await _pages(lambda p: session.list_tools(params=p), "tools")
    return [_tool(t) for t in found]
