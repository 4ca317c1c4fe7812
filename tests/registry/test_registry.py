"""The registry: decorator registration, look-up errors, plugin loading."""

from __future__ import annotations

import gc
import importlib
import sys
from importlib.metadata import EntryPoint

import pytest
from tests.registry import lazy_home

from failproof._builtins import BUILTINS
from failproof.errors import PluginError
from failproof.registry import PluginWarning, Registry
from failproof.registry import _registry as registry_module
from failproof.report import renderers
from failproof.scoring import scorers
from failproof.targets import targets


def test_register_records_name_and_first_docstring_line() -> None:
    things: Registry[object] = Registry("thing")

    @things.register("shiny")
    class Shiny:
        """A shiny thing.

        More text."""

    entry = things.entry("shiny")
    assert entry.obj is Shiny
    assert entry.description == "A shiny thing."
    assert things.names() == ["shiny"]
    assert "shiny" in things


def test_unknown_name_lists_the_known_ones() -> None:
    things: Registry[object] = Registry("thing")
    things.register("a")(object())
    things.register("b")(object())
    with pytest.raises(PluginError, match=r"unknown thing 'c' \(known: a, b\)"):
        things.get("c")


@pytest.mark.parametrize("bad", ["", "Upper", "has space", "1starts-with-digit"])
def test_invalid_names_are_refused(bad: str) -> None:
    with pytest.raises(PluginError, match="invalid thing name"):
        Registry[object]("thing").register(bad)


def test_built_ins_are_registered() -> None:
    assert {"mock", "replay"} <= set(targets.names())
    assert {"console", "json"} <= set(renderers.names())
    assert isinstance(scorers.names(), list)


def test_a_broken_plugin_is_a_warning_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = EntryPoint(name="broken", value="no_such_module_xyz:register", group="failproof")
    monkeypatch.setattr(registry_module, "_plugins_loaded", False)
    monkeypatch.setattr(registry_module, "entry_points", lambda group: [broken])
    with pytest.warns(PluginWarning, match="'broken'.*failed to load"):
        registry_module.load_plugins()
    assert "mock" in targets.names()  # the built-ins are still there


def test_a_plugin_callable_registers_its_components(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    plugin = EntryPoint(name="mine", value="tests.registry.fake_plugin:register", group="failproof")
    monkeypatch.setattr(registry_module, "_plugins_loaded", False)
    monkeypatch.setattr(registry_module, "entry_points", lambda group: [plugin])
    import tests.registry.fake_plugin as fake

    monkeypatch.setattr(fake, "CALLS", calls)
    registry_module.load_plugins()
    assert calls == ["registered"]
    assert "fake_echo" in targets.names()
    targets.unregister("fake_echo")


def every_registry() -> dict[str, Registry[object]]:
    """Each registry of failproof by kind, with every built-in module imported."""
    for module in sorted({m for names in BUILTINS.values() for m in names.values()}):
        importlib.import_module(module)
    found = [obj for obj in gc.get_objects() if isinstance(obj, Registry)]
    return {r.kind: r for r in found if r.kind in BUILTINS}


def test_the_table_of_built_ins_is_what_their_modules_register() -> None:
    registries = every_registry()
    assert set(registries) == set(BUILTINS)
    for kind, registry in registries.items():
        registered = {
            name: origin
            for name, origin in registry._origins.items()
            if origin.startswith("failproof.") and origin != "failproof.testing._check"
        }
        assert registered == BUILTINS[kind], kind


LAZY = "tests.registry.lazy_thing"


@pytest.fixture
def things(monkeypatch: pytest.MonkeyPatch) -> Registry[object]:
    """A registry whose one built-in, ``lazy``, lives in a module not imported yet."""
    monkeypatch.setitem(BUILTINS, "lazy thing", {"lazy": LAZY})
    monkeypatch.delitem(sys.modules, LAZY, raising=False)
    things: Registry[object] = Registry("lazy thing")
    monkeypatch.setattr(lazy_home, "THINGS", things)
    return things


def test_a_built_in_is_listed_without_being_imported(things: Registry[object]) -> None:
    assert things.names() == ["lazy"]
    assert "lazy" in things
    assert LAZY not in sys.modules


def test_a_built_in_is_imported_on_first_look_up(things: Registry[object]) -> None:
    assert things.get("lazy") == "the lazy thing"
    assert LAZY in sys.modules
    assert [entry.name for entry in things] == ["lazy"]


def test_iterating_imports_every_built_in(things: Registry[object]) -> None:
    assert [entry.obj for entry in things] == ["the lazy thing"]


def test_a_plugin_that_takes_a_built_in_name_keeps_it(things: Registry[object]) -> None:
    things.register("lazy")("the plugin's thing")
    assert things.get("lazy") == "the plugin's thing"
    importlib.import_module(LAZY)  # the built-in module loads later, for another reason
    assert things.get("lazy") == "the plugin's thing"


def test_an_unregistered_built_in_stays_away(things: Registry[object]) -> None:
    things.unregister("lazy")
    with pytest.raises(PluginError, match="unknown lazy thing 'lazy'"):
        things.get("lazy")
    assert things.names() == []
