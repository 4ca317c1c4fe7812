"""Checked pattern files kept on disk: a second read loads them, a bad entry is never trusted."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from failproof.config import Settings
from failproof.errors import PatternError
from failproof.signals import _library as library_module
from failproof.signals._folder import cache_folder, use_cache_folder
from failproof.signals._library import read_pattern_file

USER = """
patterns:
  - id: user.hello
    label: greets
    kind: safe
    regex: 'hello there'
    examples: ['Well, hello there!']
"""


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    before = cache_folder()
    use_cache_folder(tmp_path / "cache")
    yield tmp_path / "cache" / "signals"
    use_cache_folder(None if before is None else before.parent)


@pytest.fixture
def user_file(tmp_path: Path) -> Path:
    path = tmp_path / "user.yaml"
    path.write_text(USER, encoding="utf-8")
    return path


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


def checks_counted(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Count the pattern files read and checked from their YAML (not loaded from the cache)."""
    checked: list[Path] = []
    real = library_module._checked

    def counting(raw: bytes, path: Path) -> object:
        checked.append(path)
        return real(raw, path)

    monkeypatch.setattr(library_module, "_checked", counting)
    return checked


def test_a_second_read_loads_the_checked_patterns(
    folder: Path, user_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = checks_counted(monkeypatch)
    first = read_pattern_file(user_file)
    second = read_pattern_file(user_file)
    assert checked == [user_file]
    assert second == first
    assert len(entries(folder)) == 1
    assert entries(folder)[0].stat().st_mode & 0o077 == 0


def test_without_a_folder_nothing_is_kept(
    tmp_path: Path, user_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_cache_folder(None)
    checked = checks_counted(monkeypatch)
    read_pattern_file(user_file)
    read_pattern_file(user_file)
    assert checked == [user_file, user_file]
    assert not any(tmp_path.rglob("*.json"))


def test_an_edited_file_is_checked_again(
    folder: Path, user_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    read_pattern_file(user_file)
    edited = USER.replace("regex: 'hello there'", "regex: 'good morning'")
    user_file.write_text(edited, encoding="utf-8")
    with pytest.raises(PatternError, match="does not match its example"):
        read_pattern_file(user_file)


def spoil_truncated(entry: Path) -> None:
    entry.write_bytes(entry.read_bytes()[:-20])


def spoil_regex(entry: Path) -> None:  # still valid JSON and a valid pattern
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["patterns"][0]["regex"] = "anything"
    entry.write_text(json.dumps(data), encoding="utf-8")


def spoil_key(entry: Path) -> None:
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["key"] = "0" * 64
    entry.write_text(json.dumps(data), encoding="utf-8")


def spoil_extra_field(entry: Path) -> None:
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["patterns"][0]["run"] = "rm -rf /"
    entry.write_text(json.dumps(data), encoding="utf-8")


def spoil_shared(entry: Path) -> None:
    entry.chmod(0o666)


def spoil_symlink(entry: Path) -> None:
    elsewhere = entry.with_suffix(".elsewhere")
    entry.rename(elsewhere)
    entry.symlink_to(elsewhere)


def spoil_huge(entry: Path) -> None:
    with entry.open("ab") as out:
        out.truncate(17 << 20)


def spoil_folder(entry: Path) -> None:
    entry.unlink()
    entry.mkdir()


@pytest.mark.parametrize(
    "spoil",
    [
        pytest.param(spoil_truncated, id="truncated-json"),
        pytest.param(spoil_regex, id="pattern-edited-checksum-stale"),
        pytest.param(spoil_key, id="made-for-other-bytes"),
        pytest.param(spoil_extra_field, id="unknown-field"),
        pytest.param(spoil_shared, id="writable-by-others"),
        pytest.param(spoil_symlink, id="symlink"),
        pytest.param(spoil_huge, id="too-large"),
        pytest.param(spoil_folder, id="a-folder"),
    ],
)
def test_a_bad_entry_is_ignored_and_the_file_checked_again(
    spoil: object, folder: Path, user_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = read_pattern_file(user_file)
    assert callable(spoil)
    spoil(entries(folder)[0])
    checked = checks_counted(monkeypatch)
    assert read_pattern_file(user_file) == good
    assert checked == [user_file]


def test_an_unwritable_folder_only_costs_time(
    tmp_path: Path, user_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    use_cache_folder(blocker)
    try:
        checked = checks_counted(monkeypatch)
        first = read_pattern_file(user_file)
        assert read_pattern_file(user_file) == first
        assert checked == [user_file, user_file]
    finally:
        use_cache_folder(None)


def test_the_folder_follows_home_then_the_platform(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("FAILPROOF_HOME", raising=False)
    monkeypatch.delenv("FAILPROOF_CACHE_DIR", raising=False)
    assert Settings(cache_dir=tmp_path / "mine").cache_folder == tmp_path / "mine"
    assert Settings(home=tmp_path / "home").cache_folder == tmp_path / "home" / "cache"
    if os.name == "posix" and "darwin" not in os.uname().sysname.lower():
        assert Settings().cache_folder == tmp_path / "xdg" / "failproof"
