"""Suites read as they run: the same cases and the same errors as loading them whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import failproof.suites._stream as stream
from failproof.errors import SuiteError
from failproof.suites import load_suites
from failproof.suites._stream import stream_suites


@pytest.fixture(params=[10_000, 2], ids=["held", "read-again"])
def held(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> int:
    """Cases kept in memory: all of them, or only the first two (the rest read again)."""
    monkeypatch.setattr(stream, "HELD", request.param)
    return int(request.param)


def jsonl(tmp_path: Path, lines: list[str], name: str = "cases.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
    return path


def case(i: int, **more: object) -> str:
    return json.dumps({"id": f"c{i}", "input": f"question {i}", **more})


def test_a_jsonl_suite_gives_the_cases_loading_it_whole_gives(tmp_path: Path, held: int) -> None:
    lines = [case(i) for i in range(7)]
    lines[3:3] = ["", case(99, expect={"must_not_contain": ["x"]}), "\r"]
    path = jsonl(tmp_path, lines)
    yaml_suite = tmp_path / "other.yaml"
    yaml_suite.write_text("suite: other\ncases:\n  - id: a\n    input: hi\n", encoding="utf-8")
    whole = load_suites([path, yaml_suite, "unicode"])
    sources = stream_suites([path, yaml_suite, "unicode"])
    assert [list(s.cases()) for s in sources] == [list(s.cases) for s in whole]
    assert [(s.name, s.weight, s.count) for s in sources] == [
        (s.name, s.weight, len(s.cases)) for s in whole
    ]
    assert [list(s.cases()) for s in sources] == [list(s.cases()) for s in sources]  # re-readable


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        pytest.param(
            [case(1), case(2), case(3), case(1)],
            r":4: case .c1.: duplicate case id \(first used by case #1\)",
            id="duplicate",
        ),
        pytest.param([case(1), case(2), case(3), "{oops"], r":4: JSON syntax error", id="json"),
        pytest.param(
            [case(1), json.dumps({"id": "x", "input": "q", "suite": "other"})],
            "cases name several suites",
            id="two-suites",
        ),
        pytest.param(["", "  "], "no cases in file", id="empty"),
    ],
)
def test_a_bad_jsonl_suite_is_refused_as_loading_it_whole_refuses_it(
    tmp_path: Path, held: int, lines: list[str], message: str
) -> None:
    path = jsonl(tmp_path, lines)
    with pytest.raises(SuiteError, match=message) as whole:
        load_suites([path])
    with pytest.raises(SuiteError, match=message) as streamed:
        stream_suites([path])
    assert str(streamed.value) == str(whole.value)


def test_bytes_that_are_not_utf8_are_refused_naming_line_and_byte(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(case(1).encode() + b"\n" + b'{"id": "c\xff", "input": "q"}\n')
    with pytest.raises(SuiteError) as whole:
        load_suites([path])
    with pytest.raises(SuiteError) as streamed:
        stream_suites([path])
    assert str(streamed.value) == str(whole.value)


def test_two_suites_of_one_name_are_refused(tmp_path: Path) -> None:
    path = jsonl(tmp_path, [case(1)])
    with pytest.raises(SuiteError, match="suite name 'cases' is also used"):
        stream_suites([path, path])


def test_a_jsonl_suite_changed_after_its_check_is_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cases read past those held would not be the ones checked: the reading stops."""
    monkeypatch.setattr(stream, "HELD", 2)
    path = jsonl(tmp_path, [case(i) for i in range(5)])
    (source,) = stream_suites([path])
    path.write_bytes(path.read_bytes().replace(b"question 4", b"question 44"))
    with pytest.raises(SuiteError, match="changed while it was being read"):
        list(source.cases())
