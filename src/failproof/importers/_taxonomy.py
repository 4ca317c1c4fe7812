"""The taxonomy of imported cases, from what their source says (garak's probe, promptfoo's
plugin id); a case that says nothing mappable keeps no taxonomy, and the summary counts it."""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from functools import cache
from importlib import resources
from typing import Any, Protocol

from failproof.guard import load_yaml

__all__ = ["label_cases"]


class _Summary(Protocol):
    def map(self, what: str) -> None: ...


@cache
def _tables() -> dict[str, dict[str, list[str]]]:
    text = resources.files("failproof.importers").joinpath("data/taxonomy.yaml").read_text()
    loaded: dict[str, dict[str, list[str]]] = load_yaml(text, source="taxonomy.yaml")
    return loaded


def _plugin_id(metadata: Mapping[str, Any]) -> str | None:
    for holder in (metadata.get("promptfoo_metadata"), metadata):
        if isinstance(holder, Mapping) and isinstance(holder.get("pluginId"), str):
            return str(holder["pluginId"])
    return None


def _source_ids(metadata: Mapping[str, Any]) -> tuple[str, list[str]] | None:
    tables = _tables()
    probe = metadata.get("garak_probe")
    if isinstance(probe, str):
        module = probe.split(".")[0]
        found = tables["garak_probes"].get(module)
        return (f"garak probe {module}", found) if found else None
    plugin = _plugin_id(metadata)
    if plugin is None:
        return None
    plugin = plugin.removeprefix("promptfoo:redteam:")
    table = tables["promptfoo_plugins"]
    found = table.get(plugin) or table.get(plugin.split(":")[0])
    return (f"promptfoo plugin {plugin}", found) if found else None


def label_cases(data: MutableMapping[str, Any], summary: _Summary) -> None:
    """Give each imported case the taxonomy its source names (kept if the case has one)."""
    for case in data.get("cases") or ():
        if not isinstance(case, MutableMapping) or case.get("taxonomy"):
            continue
        metadata = case.get("metadata")
        found = _source_ids(metadata) if isinstance(metadata, Mapping) else None
        if found is not None:
            case["taxonomy"] = list(found[1])
            summary.map(f"taxonomy from the {found[0]}")
