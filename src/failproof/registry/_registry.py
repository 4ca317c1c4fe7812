"""One typed registry for every pluggable kind: scorers, targets, renderers, aggregators, ...

Built-ins and third-party plugins register the same way: with the ``register`` decorator. A
built-in is declared by name in `failproof._builtins` and its module is imported the first time
that name is looked up, so a run imports only the components it uses; listing or iterating a
registry imports every built-in of its kind. Third-party packages expose an entry point in the
``failproof`` group whose object is a module (imported) or a callable (called with no
arguments); either registers what it brings. Plugins load once, on the first look-up, and a
plugin that registers a built-in's name replaces it; a broken plugin is a warning, never a crash.
"""

from __future__ import annotations

import importlib
import re
import sys
import warnings
from collections.abc import Callable, Iterator, Mapping
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
    """A name -> object table for one kind of component, filled by the ``register`` decorator.

    ``kind`` also names the kind's built-ins in `failproof._builtins.BUILTINS`.
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, Registered[T]] = {}
        self._origins: dict[str, str] = {}  # name -> the module that registered it
        self._dropped: set[str] = set()  # built-ins unregistered before their module loaded

    def register(self, name: str, *, description: str | None = None) -> Callable[[T], T]:
        """Decorator: register ``obj`` under ``name``. The description defaults to its docstring."""
        if not _NAME.match(name):
            raise PluginError(
                f"invalid {self.kind} name {name!r}: use lowercase letters, digits, _"
            )
        origin = _caller_module()

        def decorator(obj: T) -> T:
            if self._displaced(name, origin):
                return obj
            doc = description or (getattr(obj, "__doc__", None) or "").strip().splitlines()
            text = doc if isinstance(doc, str) else (doc[0] if doc else "")
            self._items[name] = Registered(name=name, obj=obj, description=text)
            self._origins[name] = origin
            return obj

        return decorator

    def _displaced(self, name: str, origin: str) -> bool:
        """Whether this is a built-in's own registration of a name a plugin took (or dropped)."""
        if origin != self._builtins().get(name):
            return False
        taken = name in self._items and self._origins.get(name) != origin
        return taken or name in self._dropped

    def get(self, name: str) -> T:
        """The object registered under ``name``; a `PluginError` naming the known ones if none."""
        return self.entry(name).obj

    def entry(self, name: str) -> Registered[T]:
        load_plugins()
        if name not in self._items and name in self._pending():
            importlib.import_module(self._builtins()[name])
        try:
            return self._items[name]
        except KeyError:
            known = ", ".join(self.names()) or "none"
            raise PluginError(f"unknown {self.kind} {name!r}", hint=f"known: {known}") from None

    def names(self) -> list[str]:
        """Every registered name and every built-in one, sorted (nothing is imported)."""
        load_plugins()
        return sorted({*self._items, *self._pending()})

    def __contains__(self, name: object) -> bool:
        load_plugins()
        return name in self._items or name in self._pending()

    def __iter__(self) -> Iterator[Registered[T]]:
        load_plugins()
        for module in sorted({self._builtins()[name] for name in self._pending()}):
            importlib.import_module(module)
        return iter([self._items[n] for n in sorted(self._items)])

    def unregister(self, name: str) -> None:
        """Remove ``name`` (tests and plugins that replace a built-in use this)."""
        if self._items.pop(name, None) is None and name in self._builtins():
            self._dropped.add(name)
        self._origins.pop(name, None)

    def _pending(self) -> set[str]:
        """Built-in names whose module has not registered them yet (nor been displaced)."""
        return {
            name
            for name, module in self._builtins().items()
            if name not in self._items and name not in self._dropped and module not in sys.modules
        }

    def _builtins(self) -> Mapping[str, str]:
        from failproof._builtins import BUILTINS

        return BUILTINS.get(self.kind, {})


def _caller_module() -> str:
    """The module that called `Registry.register` (two frames up)."""
    return str(sys._getframe(2).f_globals.get("__name__", ""))


def load_plugins() -> None:
    """Load every entry point of the ``failproof`` group, once (built-ins load on first use)."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
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
