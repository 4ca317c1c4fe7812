"""Medium 8 and Low: YAML alias bombs are refused; suites parse with libyaml, still strictly."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import yaml

from failproof.errors import SuiteError
from failproof.suites import parse_suite

#: Not a timing: how long a parse may last before the test calls it a hang.
GUARD_S = 60


def bomb(levels: int, width: int = 9) -> str:
    """The classic: each anchor is a list of ``width`` aliases of the one before (about 600 B)."""
    lines = ['a0: &a0 ["lol"]']
    for i in range(1, levels):
        refs = ", ".join([f"*a{i - 1}"] * width)
        lines.append(f"a{i}: &a{i} [{refs}]")
    anchors = "".join(f"    {line}\n" for line in lines)
    case = f"  - id: c\n    input: x\n    metadata: {{boom: *a{levels - 1}}}\n"
    return f"suite: s\ndefaults:\n  metadata:\n{anchors}cases:\n{case}"


def parse_in_thread(text: str) -> BaseException | None:
    caught: list[BaseException] = []

    def work() -> None:
        try:
            parse_suite(text, path="bomb.yaml")
        except BaseException as exc:
            caught.append(exc)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(GUARD_S)
    assert not thread.is_alive(), "still expanding the aliases"
    return caught[0] if caught else None


@pytest.mark.parametrize("levels", [6, 9, 12])
def test_an_alias_bomb_is_refused_with_a_clear_error(levels: int) -> None:
    text = bomb(levels)
    assert len(text) < 1000
    error = parse_in_thread(text)
    assert isinstance(error, SuiteError)
    assert "refusing an alias bomb" in str(error) or "aliases repeated too often" in str(error)


def test_a_few_aliases_of_small_mappings_are_fine() -> None:
    text = (
        "suite: s\ncases:\n"
        "  - {id: a, input: x, expect: &e {must_contain: [ok]}}\n"
        "  - {id: b, input: y, expect: *e}\n"
    )
    suite = parse_suite(text, path="ok.yaml")
    assert [c.expect.must_contain for c in suite.cases if c.expect] == [["ok"], ["ok"]]


def test_an_alias_that_contains_itself_is_refused() -> None:
    error = parse_in_thread("suite: s\ncases: &c\n  - id: a\n    input: x\n    metadata: *c\n")
    assert isinstance(error, SuiteError)


def test_suites_are_composed_by_libyaml_when_it_is_installed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if not getattr(yaml, "__with_libyaml__", False):
        pytest.skip("PyYAML was built without libyaml")
    loaders: list[Any] = []
    compose = yaml.compose

    def recording(text: str, Loader: Any) -> Any:
        loaders.append(Loader)
        return compose(text, Loader=Loader)

    monkeypatch.setattr(yaml, "compose", recording)
    parse_suite("suite: s\ncases:\n  - {id: a, input: x}\n", path="s.yaml")
    assert loaders == [yaml.CSafeLoader]


def test_duplicate_keys_are_still_refused_with_their_line() -> None:
    text = "suite: s\ncases:\n  - id: a\n    input: x\n    input: y\n"
    with pytest.raises(SuiteError, match=r"s\.yaml:5: duplicate key 'input'"):
        parse_suite(text, path="s.yaml")
