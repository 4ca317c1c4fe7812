"""The registry: decorator registration, look-up errors, plugin loading."""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

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
