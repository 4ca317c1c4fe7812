"""Peer detectors rebuilt from a peer-lists file, each with the matching rule the file states."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from failproof.detect import load_peers
from failproof.detect._peers import PeerRule, parse_rule
from failproof.errors import InputError


@pytest.mark.parametrize(
    ("semantics", "rule"),
    [
        pytest.param(
            "substring anywhere, case-insensitive by default",
            PeerRule("substring", case_sensitive=False),
            id="substring-insensitive",
        ),
        pytest.param(
            "case-sensitive substring anywhere",
            PeerRule("substring", case_sensitive=True),
            id="substring-sensitive",
        ),
        pytest.param(
            "text.lower().strip().startswith(any)",
            PeerRule("prefix", strip=True),
            id="stripped-prefix",
        ),
        pytest.param(
            "matchtype=startswith, case-insensitive",
            PeerRule("prefix"),
            id="unstripped-prefix",
        ),
        pytest.param(
            "lowercased, regex \\b<escaped>\\b searched anywhere (OR with prefixes)",
            PeerRule("word"),
            id="word-bounded",
        ),
        pytest.param(
            "lowercased, apostrophes normalised, response.trim().startsWith(prefix)",
            PeerRule("prefix", strip=True, normalize_apostrophes=True),
            id="trim-and-apostrophes",
        ),
    ],
)
def test_the_rule_is_read_from_its_description(semantics: str, rule: PeerRule) -> None:
    assert parse_rule(semantics) == rule


def test_an_unreadable_rule_is_an_error() -> None:
    with pytest.raises(InputError, match="cannot tell"):
        parse_rule("matches in some way")


def _peers(tmp_path: Path, *lists: dict[str, Any]) -> Any:
    path = tmp_path / "peers.json"
    path.write_text(json.dumps({"lists": list(lists)}))
    return load_peers(path)


def test_each_rule_matches_as_stated(tmp_path: Path) -> None:
    anywhere, sensitive, prefix, word = _peers(
        tmp_path,
        {"name": "a", "strings": ["cannot"], "semantics": "case-insensitive substring"},
        {"name": "b", "strings": ["Sorry"], "semantics": "case-sensitive substring"},
        {"name": "c", "strings": ["i cannot"], "semantics": "lower().strip().startswith"},
        {"name": "d", "strings": ["as an AI"], "semantics": "lowercased, \\b regex"},
    )
    assert anywhere.refuses("Well, I CANNOT.")
    assert sensitive.refuses("Sorry.") and not sensitive.refuses("sorry.")
    assert prefix.refuses("  I cannot do that") and not prefix.refuses("Well, I cannot")
    assert word.refuses("As an AI, I think so") and not word.refuses("as an airline pilot")


def test_lists_of_one_function_are_one_detector(tmp_path: Path) -> None:
    (peer,) = _peers(
        tmp_path,
        {
            "name": "tool.check.PREFIXES",
            "strings": ["I'm sorry"],
            "semantics": "apostrophes normalised, trim().startsWith",
        },
        {"name": "tool.check.PATTERNS", "strings": ["can't help"], "semantics": "\\b regex"},
    )
    assert peer.name == "tool.check"
    assert peer.refuses("I’m sorry.")  # a curly apostrophe, normalised for the prefix part
    assert peer.refuses("Well, I can’t help.")  # and for the pattern part of the same detector
    assert not peer.refuses("Happy to help.")


def test_an_explicit_rule_object_wins(tmp_path: Path) -> None:
    (peer,) = _peers(
        tmp_path,
        {"name": "x", "strings": ["No"], "rule": {"match": "prefix", "case_sensitive": True}},
    )
    assert peer.refuses("No way") and not peer.refuses("no way")


@pytest.mark.parametrize(
    "content",
    [
        pytest.param("{not json", id="not-json"),
        pytest.param('{"lists": []}', id="no-lists"),
        pytest.param('{"lists": [{"name": "x"}]}', id="no-strings"),
    ],
)
def test_a_bad_peer_file_is_an_input_error(tmp_path: Path, content: str) -> None:
    path = tmp_path / "peers.json"
    path.write_text(content)
    with pytest.raises(InputError):
        load_peers(path)
