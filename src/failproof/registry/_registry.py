"""One typed registry for every pluggable kind: scorers, targets, renderers, aggregators, ...

Built-ins and third-party plugins register the same way: with the ``register`` decorator.
Third-party packages expose an entry point in the ``failproof`` group whose object is a module
(imported) or a callable (called with no arguments); either registers what it brings. Plugins load
once, on the first look-up; a broken plugin is a warning, never a crash.
"""

from __future__ import annotations

import importlib
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Generic, TypeVar

from failproof.errors import PluginError

__all__ = ["ENTRY_POINT_GROUP", "PluginWarning", "Registered", "Registry", "load_plugins"]

ENTRY_POINT_GROUP = "failproof"
_NAME = re.compile(r"^[a-z][a-z0-9_\-]*$")
T = TypeVar("T")

_plugins_loaded = False


class PluginWarning(UserWarning):
    """A third-party plugin failed to load; failproof goes on without it."""


@dataclass(frozen=True)
class Registered(Generic[T]):
    """A registered object with its name and one-line description."""

    name: str
    obj: T
    description: str


class Registry(Generic[T]):
    """A name -> object table for one kind of component, filled by the ``register`` decorator."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, Registered[T]] = {}

    def register(self, name: str, *, description: str | None = None) -> Callable[[T], T]:
        """Decorator: register ``obj`` under ``name``. The description defaults to its docstring."""
        if not _NAME.match(name):
            raise PluginError(
                f"invalid {self.kind} name {name!r}: use lowercase letters, digits, _"
            )

        def decorator(obj: T) -> T:
            doc = description or (getattr(obj, "__doc__", None) or "").strip().splitlines()
            text = doc if isinstance(doc, str) else (doc[0] if doc else "")
            self._items[name] = Registered(name=name, obj=obj, description=text)
            return obj

        return decorator

    def get(self, name: str) -> T:
        """The object registered under ``name``; a `PluginError` naming the known ones if none."""
        return self.entry(name).obj

    def entry(self, name: str) -> Registered[T]:
        load_plugins()
        try:
            return self._items[name]
        except KeyError:
            known = ", ".join(sorted(self._items)) or "none"
            raise PluginError(f"unknown {self.kind} {name!r}", hint=f"known: {known}") from None

    def names(self) -> list[str]:
        load_plugins()
        return sorted(self._items)

    def __contains__(self, name: object) -> bool:
        load_plugins()
        return name in self._items

    def __iter__(self) -> Iterator[Registered[T]]:
        load_plugins()
        return iter([self._items[n] for n in sorted(self._items)])

    def unregister(self, name: str) -> None:
        """Remove ``name`` (tests and plugins that replace a built-in use this)."""
        self._items.pop(name, None)


def load_plugins() -> None:
    """Register the built-ins, then every entry point of the ``failproof`` group, once."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    importlib.import_module("failproof._builtins")
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
            if callable(obj):
                obj()
        except Exception as exc:
            warnings.warn(
                f"failproof plugin {ep.name!r} ({ep.value}) failed to load: {exc}",
                PluginWarning,
                stacklevel=2,
            )
