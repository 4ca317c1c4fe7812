"""Recorded responses and the replay target."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from failproof.core import Case
from failproof.errors import ResponsesError
from failproof.targets import ReplayTarget, create_target
from failproof.targets._replay import RecordedResponse, load_responses, parse_line


def write(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "responses.jsonl"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def test_responses_join_by_suite_and_id_or_by_id_alone(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '{"case_id": "a", "suite": "s1", "output": "from s1"}\n'
        '{"case_id": "a", "suite": "s2", "output": "from s2"}\n'
        '{"case_id": "b", "output": {"summary": "structured"}, "latency_ms": 5}\n',
    )
    target = ReplayTarget(load_responses(path))
    out_s2 = asyncio.run(target.generate(Case(id="a", suite="s2", input="x")))
    out_b = asyncio.run(target.generate(Case(id="b", suite="s9", input="x")))
    assert out_s2.output == "from s2"
    assert out_b.parsed == {"summary": "structured"} and out_b.latency_ms == 5


def test_a_case_without_a_recording_gets_an_error_response(tmp_path: Path) -> None:
    target = ReplayTarget(load_responses(write(tmp_path, '{"case_id": "a", "output": "x"}\n')))
    response = asyncio.run(target.generate(Case(id="zzz", input="x")))
    assert response.error == "no recorded response for case 'zzz'"


def test_recorded_errors_stay_errors(tmp_path: Path) -> None:
    path = write(tmp_path, '{"case_id": "a", "output": null, "error": "HTTP 429"}\n')
    response = asyncio.run(ReplayTarget(load_responses(path)).generate(Case(id="a", input="x")))
    assert (response.error, response.output) == ("HTTP 429", "")


def test_unmatched_responses_are_reported(tmp_path: Path) -> None:
    recorded = load_responses(
        write(tmp_path, '{"case_id": "a", "output": "x"}\n{"case_id": "ghost", "output": "y"}\n')
    )
    assert recorded.unmatched([Case(id="a", input="q")]) == [(None, "ghost")]


def test_invalid_utf8_in_an_output_is_replaced_not_fatal(tmp_path: Path) -> None:
    path = write(tmp_path, b'{"case_id": "a", "output": "caf\xe9"}\n')
    recorded = load_responses(path)
    assert recorded.by_key[(None, "a")].output == "caf\ufffd"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        pytest.param("not json\n", r"responses\.jsonl:1: not valid JSON", id="not-json"),
        pytest.param("[1, 2]\n", r":1: each line must be a JSON object", id="not-object"),
        pytest.param('{"output": "x"}\n', r":1: case_id: Field required", id="no-case-id"),
        pytest.param(
            '{"case_id": "a", "output": "x", "colour": 1}\n',
            r":1: colour: Extra inputs are not permitted",
            id="unknown-field",
        ),
        pytest.param(
            '{"case_id": "a", "output": "x"}\n{"case_id": "a", "output": "y"}\n',
            r":2: second response for case 'a'",
            id="duplicate",
        ),
    ],
)
def test_malformed_responses_file_names_the_line(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(ResponsesError, match=message):
        load_responses(write(tmp_path, text))


def test_replay_spec_needs_a_file() -> None:
    with pytest.raises(ResponsesError, match="replay needs a file"):
        create_target("replay")


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(b'{"case_id": "a", "output": "plain"}', id="plain"),
        pytest.param(b'{"case_id": "a", "output": {"k": [1, 2.5, null, true]}}', id="structured"),
        pytest.param(b'{"case_id": "a", "output": ' + b"1" * 400 + b"}", id="big-integer"),
        pytest.param(b'{"case_id": "a", "output": 1e400}', id="overflowing-float"),
        pytest.param(b'{"case_id": "a", "output": {"k": NaN}}', id="nan"),
        pytest.param(b'{"case_id": "a", "case_id": "b"}', id="repeated-key"),
        pytest.param(b'{"case_id": "a", "output": "lone \\ud800 escape"}', id="lone-surrogate"),
        pytest.param(b'{"case_id": "a", "output": "caf\xc3\xa9 \xff"}', id="not-utf-8"),
        pytest.param(b'{"case_id": "a", "output": 1.0000000000000002}', id="float-digits"),
        pytest.param(b'{"case_id": "a", "tool_limit": 1}\n', id="lax-bool-and-newline"),
    ],
)
def test_a_line_is_read_as_the_json_module_and_the_model_read_it(raw: bytes) -> None:
    text = raw.decode("utf-8", errors="replace")
    expected = RecordedResponse.model_validate(json.loads(text))
    got = parse_line(raw, Path("answers.jsonl"), 1)
    assert json.dumps(got.model_dump(), default=str) == json.dumps(
        expected.model_dump(), default=str
    )
