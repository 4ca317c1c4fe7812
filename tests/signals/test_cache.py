"""Matchers compiled once per pattern-file set, and one scan per response for every scorer."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from failproof.config import Settings, load_settings
from failproof.core import Response
from failproof.errors import PatternError
from failproof.scoring import Evidence
from failproof.signals import SignalMatcher, SignalScan, default_matcher, matcher_for, scan_response

USER = "patterns: [{id: user.hello, label: greets, kind: safe, regex: 'hello there'}]"


def settings_with(*paths: Path, opening: int | None = None) -> Settings:
    probe: dict[str, object] = {"patterns": [str(p) for p in paths]}
    if opening is not None:
        probe["opening_chars"] = opening
    return load_settings({"probe": probe}, config_file=None, cwd=Path("/nonexistent"))


def test_without_user_files_the_settings_matcher_is_the_default_one() -> None:
    assert matcher_for(Settings()) is default_matcher()


def test_a_user_file_set_is_compiled_once(tmp_path: Path) -> None:
    path = tmp_path / "user.yaml"
    path.write_text(USER, encoding="utf-8")
    first = matcher_for(settings_with(path))
    assert first is matcher_for(settings_with(path))
    assert first is not default_matcher()
    assert len(first) == len(default_matcher()) + 1
    assert [h.label for h in first.scan("Well, hello there!").hits] == ["greets"]


def test_an_edited_user_file_is_compiled_again(tmp_path: Path) -> None:
    path = tmp_path / "user.yaml"
    path.write_text(USER, encoding="utf-8")
    first = matcher_for(settings_with(path))
    path.write_text(USER.replace("hello there", "good morning"), encoding="utf-8")
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000))
    second = matcher_for(settings_with(path))
    assert second is not first
    assert [h.label for h in second.scan("good morning").hits] == ["greets"]


def test_the_opening_length_comes_from_the_settings() -> None:
    assert matcher_for(settings_with(opening=50)).opening_chars == 50


def test_a_missing_user_file_is_a_pattern_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(PatternError, match=r"missing\.yaml"):
        matcher_for(settings_with(tmp_path / "missing.yaml"))


class CountingMatcher(SignalMatcher):
    calls = 0

    def scan(self, text: str) -> SignalScan:
        CountingMatcher.calls += 1
        return super().scan(text)


def test_scan_response_scans_each_response_once_for_every_caller() -> None:
    matcher = CountingMatcher(default_matcher().library)
    evidence = Evidence(Response(output="The code is ZX-CANARY-7731."))
    first = scan_response(evidence, matcher)
    second = scan_response(evidence, matcher)
    assert first is second
    assert CountingMatcher.calls == 1
    assert evidence.memo("signals", lambda: None) is first
