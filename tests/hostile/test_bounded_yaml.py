"""Every YAML read goes through one bounded loader: size, depth, aliases, nodes, duplicate keys."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from failproof.errors import InputError, PatternError
from failproof.guard import UnreadableInput, load_yaml
from failproof.guard import _yaml as bounded
from failproof.guard._input import YamlLimits, decode_text
from failproof.guard._yaml import read_yaml
from failproof.importers import import_promptfoo
from failproof.signals._library import read_pattern_file

SRC = Path(__file__).resolve().parents[2] / "src" / "failproof"


def bomb(levels: int = 10, width: int = 9) -> str:
    """Each anchor a list of ``width`` aliases of the one before: under 600 bytes."""
    lines = ['a0: &a0 ["lol", "lol"]']
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * width) + "]")
    return "\n".join(lines) + f"\ntests:\n  - vars: {{x: *a{levels - 1}}}\n"


@pytest.fixture(params=["libyaml", "python"])
def loader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Both composers: libyaml's when PyYAML has it, and the pure-Python fallback."""
    if request.param == "libyaml" and not getattr(yaml, "__with_libyaml__", False):
        pytest.skip("PyYAML was built without libyaml")
    if request.param == "python":
        monkeypatch.setitem(bounded._LOADERS, "1.1", bounded._PythonLoader)
    return str(request.param)


def test_no_module_reads_yaml_but_the_bounded_loader() -> None:
    direct = re.compile(r"yaml\.(safe_load|load|compose|full_load|unsafe_load)\b|yaml\.parse\(")
    readers = [
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if direct.search(p.read_text(encoding="utf-8")) and p.name != "_yaml.py"
    ]
    assert readers == []


@pytest.mark.parametrize("levels", [pytest.param(7, id="7-levels"), pytest.param(10, id="10")])
def test_an_alias_bomb_is_refused(loader: str, levels: int) -> None:
    text = bomb(levels)
    assert len(text) < 600
    with pytest.raises(UnreadableInput, match="alias bomb") as caught:
        load_yaml(text, source="bomb.yaml")
    assert caught.value.source == "bomb.yaml"
    assert caught.value.line is not None and caught.value.line <= levels


def test_an_alias_bomb_in_a_promptfoo_config_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "promptfooconfig.yaml"
    path.write_text(bomb(10), encoding="utf-8")
    with pytest.raises(InputError, match=r"promptfooconfig\.yaml:\d+: .*alias"):
        import_promptfoo(path)


def test_an_alias_bomb_in_a_pattern_file_is_a_pattern_error(tmp_path: Path) -> None:
    path = tmp_path / "patterns.yaml"
    path.write_text(bomb(10), encoding="utf-8")
    with pytest.raises(PatternError, match="alias"):
        read_pattern_file(path)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("a: " + "[" * 5000 + "]" * 5000, id="flow-lists"),
        pytest.param("a: " + "{b: " * 3000 + "1" + "}" * 3000, id="flow-mappings"),
        pytest.param(
            "".join(" " * i + f"k{i}:\n" for i in range(3000)) + " " * 3000 + "x", id="block"
        ),
        pytest.param("- " * 3000 + "x", id="block-sequence"),
        pytest.param("x: " + "[" * 300 + "]" * 300, id="over-the-limit"),
    ],
)
def test_nesting_thousands_deep_is_refused_with_its_line(loader: str, text: str) -> None:
    with pytest.raises(UnreadableInput, match="nested more than 200 levels") as caught:
        load_yaml(text, source="deep.yaml")
    assert caught.value.line is not None


def test_aliases_count_as_the_depth_they_repeat() -> None:
    text = "a: &a " + "[" * 150 + "]" * 150 + "\nb: " + "[" * 60 + "*a" + "]" * 60 + "\n"
    with pytest.raises(UnreadableInput, match="nested more than 200"):
        load_yaml(text, source="deep.yaml")


def test_a_text_over_the_size_limit_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * 200 + "\n", encoding="utf-8")
    with pytest.raises(UnreadableInput, match="larger than 100 bytes"):
        read_yaml(path, limits=YamlLimits(max_bytes=100))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("a: 1\na: 2\n", "2: duplicate key 'a'", id="duplicate-key"),
        pytest.param("a: &x [*x]\n", "alias refers to the node that contains it", id="self-alias"),
        pytest.param("a: [1, 2\nb: 3\n", "YAML syntax error", id="syntax"),
        pytest.param("a: !!python/object:os.system x\n", "YAML", id="python-tag"),
        pytest.param("a: " + "9" * 5000 + "\n", "not usable", id="huge-int"),
    ],
)
def test_other_bad_yaml_is_refused_naming_the_source(text: str, message: str) -> None:
    with pytest.raises(UnreadableInput, match=message) as caught:
        load_yaml(text, source="bad.yaml")
    assert str(caught.value).startswith("bad.yaml")


def test_a_few_aliases_of_small_mappings_still_load() -> None:
    text = "base: &b {role: user}\nitems: [*b, *b, {<<: *b, extra: 1}]\n"
    data = load_yaml(text, source="ok.yaml")
    assert data["items"][2] == {"role": "user", "extra": 1}


@pytest.mark.parametrize(
    ("scalar", "v11", "v12"),
    [
        pytest.param("Yes", True, "Yes", id="yes"),
        pytest.param("off", False, "off", id="off"),
        pytest.param("2024-01-31", "date", "2024-01-31", id="date"),
        pytest.param("1:30", 90, "1:30", id="sexagesimal"),
        pytest.param("010", 8, 10, id="leading-zero"),
        pytest.param("0o17", "0o17", 15, id="octal-12"),
        pytest.param("1_000", 1000, "1_000", id="underscore"),
        pytest.param("true", True, True, id="true"),
        pytest.param("~", None, None, id="null"),
        pytest.param("1.5e3", "1.5e3", 1500.0, id="float-without-dot-sign"),
    ],
)
def test_yaml_12_reads_plain_scalars_as_javascript_tools_do(
    scalar: str, v11: object, v12: object
) -> None:
    old = load_yaml(f"v: {scalar}\n")["v"]
    assert (type(old).__name__ == "date") if v11 == "date" else old == v11
    assert load_yaml(f"v: {scalar}\n", schema="1.2")["v"] == v12


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        pytest.param("\ufeffa: é\n".encode(), "a: é\n", id="utf-8-bom"),
        pytest.param("a: é\n".encode("utf-16"), "a: é\n", id="utf-16-bom"),
        pytest.param("a: é\n".encode("utf-32"), "a: é\n", id="utf-32-bom"),
    ],
)
def test_text_is_decoded_by_its_byte_order_mark(raw: bytes, text: str) -> None:
    assert decode_text(raw, source="f") == text


def test_bytes_that_are_not_utf8_are_refused_naming_the_line() -> None:
    with pytest.raises(UnreadableInput, match=r"^f:2: not valid UTF-8 \(byte 8\)"):
        decode_text("a: 1\nb: é\n".encode("latin-1"), source="f")
    assert decode_text("b: é".encode("latin-1"), source="f", encoding="latin-1") == "b: é"
