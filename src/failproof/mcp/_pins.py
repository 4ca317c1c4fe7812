"""Pins: each definition hashed when first scanned; a later scan reports what changed.

A pin is the canonical JSON of one tool, resource or prompt (sorted keys) and its SHA-256. A
change against the pins is a possible rug pull: the tool a person trusted is not the tool the
model now sees. Pins change only when a scan pins (the first scan of a server, or ``--pin``).
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Mapping

from failproof.mcp._model import Change, ItemKind, ServerSurface

__all__ = ["Pin", "changes_since", "pins_of"]

#: A pin: the definition's SHA-256 and its canonical JSON.
Pin = tuple[str, str]
_WORDS = frozenset({"description", "title"})


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, indent=1)


def pins_of(surface: ServerSurface) -> dict[str, Pin]:
    """``kind:name`` -> pin, for every tool, resource and prompt of ``surface``."""
    items: list[tuple[str, dict[str, object]]] = []
    items += [(f"tool:{t.name}", t.model_dump()) for t in surface.tools]
    items += [(f"resource:{r.uri}", r.model_dump()) for r in surface.resources]
    items += [(f"prompt:{p.name}", p.model_dump()) for p in surface.prompts]
    pins: dict[str, Pin] = {}
    for key, definition in items:
        text = _canonical(definition)
        pins[key] = (hashlib.sha256(text.encode("utf-8")).hexdigest(), text)
    return pins


def _kind_name(key: str) -> tuple[ItemKind, str]:
    kind, _, name = key.partition(":")
    return ("tool" if kind == "tool" else "prompt" if kind == "prompt" else "resource"), name


def _what_changed(before: str, after: str) -> str:
    old, new = json.loads(before), json.loads(after)
    rest_old = {k: v for k, v in old.items() if k not in _WORDS}
    rest_new = {k: v for k, v in new.items() if k not in _WORDS}
    return "description" if rest_old == rest_new else "schema"


def _diff(before: str, after: str, key: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(), after.splitlines(), f"pinned/{key}", f"now/{key}", lineterm=""
    )
    return "\n".join(lines)


def changes_since(server: str, pinned: Mapping[str, Pin], now: Mapping[str, Pin]) -> list[Change]:
    """Every item added, removed or changed since the pins, in key order."""
    changes: list[Change] = []
    for key in sorted(set(pinned) | set(now)):
        kind, name = _kind_name(key)
        before, after = pinned.get(key), now.get(key)
        if before is not None and after is not None and before[0] == after[0]:
            continue
        if before is None or after is None:
            change = "added" if before is None else "removed"
            text = (
                _diff("", after[1], key) if after else _diff(before[1] if before else "", "", key)
            )
            changes.append(Change(server=server, kind=kind, item=name, change=change, diff=text))
            continue
        what = _what_changed(before[1], after[1])
        diff = _diff(before[1], after[1], key)
        changes.append(Change(server=server, kind=kind, item=name, change=what, diff=diff))
    return changes
