"""High 2: text that is not valid Unicode is repaired at the boundary, never fatal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.hostile.conftest import read_report, write_responses, write_suite
from tests.hostile.servers import HostileServer, raw

from failproof.cli import main
from failproof.core import Response
from failproof.store import Store

SURROGATE_BODY = (
    '{"choices": [{"index": 0, "message": {"role": "assistant", "content": "ok \\ud800 then"},'
    ' "finish_reason": "st\\udfffop"}]}'
)


@pytest.mark.parametrize(
    "fields",
    [
        pytest.param({"output": "a\ud800b"}, id="output"),
        pytest.param({"error": "bad \udc80"}, id="error"),
        pytest.param({"output": "x", "finish_reason": "\ud83d"}, id="finish-reason"),
    ],
)
def test_a_response_is_valid_unicode_whatever_it_was_built_from(fields: dict[str, str]) -> None:
    response = Response(**fields)
    assert response.repairs is not None
    assert response.repairs.replaced_chars == 1
    response.model_dump_json().encode("utf-8")  # would raise on a lone surrogate


def test_structured_output_with_surrogates_is_repaired() -> None:
    response = Response.from_output({"k\ud800": ["v\udc00"]})
    assert response.parsed == {"k\ufffd": ["v\ufffd"]}
    assert response.repairs is not None and response.repairs.replaced_chars == 2


def test_an_openai_answer_with_a_lone_surrogate_is_stored_and_reported(workdir: Path) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x", "expect": {"must_contain": ["ok"]}}])
    with HostileServer({"/v1/chat/completions": raw(200, SURROGATE_BODY)}) as server:
        code = main(["run", suite, "-t", "openai:m", "--base-url", server.base_url, "-q"])
    assert code == 0
    (result,) = read_report(workdir)["results"]
    assert result["output"] == "ok \ufffd then"
    assert result["repairs"]["replaced_chars"] == 2


def test_a_recorded_response_and_a_python_return_with_surrogates_run_to_the_end(
    workdir: Path,
) -> None:
    suite = write_suite(workdir, [{"id": "c", "input": "x", "expect": {"must_contain": ["y"]}}])
    recorded = write_responses(workdir, [{"case_id": "c", "output": "y\ud800"}])
    assert main(["run", suite, "-t", f"replay:{recorded}", "-q"]) == 0
    (workdir / "bot_surrogate.py").write_text(
        "def answer(messages):\n    return 'y' + chr(0xD800)\n", encoding="utf-8"
    )
    assert main(["run", suite, "-t", "python:bot_surrogate.py:answer", "-q"]) == 0


def test_resume_reads_a_stored_result_holding_a_lone_surrogate(workdir: Path) -> None:
    suite = write_suite(
        workdir, [{"id": f"c{i}", "input": "x", "expect": {"must_contain": ["y"]}} for i in (0, 1)]
    )
    recorded = write_responses(workdir, [{"case_id": "c0", "output": "y"}])
    assert main(["run", suite, "-t", f"replay:{recorded}", "-q"]) == 1
    with Store(workdir / "home/failproof.db") as store:
        (summary,) = store.list_runs()
        blob = json.loads(
            store._db.execute("SELECT result_json FROM results WHERE case_id='c0'").fetchone()[0]
        )
        blob["output"] = "y\ud800"
        with store._db:
            store._db.execute(
                "UPDATE results SET result_json = ? WHERE case_id = 'c0'", (json.dumps(blob),)
            )
    assert main(["run", "--resume", summary.id, "-q"]) == 1


@pytest.mark.parametrize(
    "text",
    [
        pytest.param('{"input": "plain", "tags": ["a", "b"]}', id="plain"),
        pytest.param('{"input": "caf\\u00e9 \\ud83d\\ude00 pair"}', id="escaped-pair"),
        pytest.param('{"input": "lone \\ud800 escape"}', id="escaped-lone-high"),
        pytest.param('{"input": "lone \\uDFFF escape"}', id="escaped-lone-low-upper-case"),
        pytest.param('{"k\\udc00": ["v\\ud9ab"]}', id="escaped-in-key-and-list"),
        pytest.param('{"input": "raw \ud800 char"}', id="raw-lone-surrogate"),
        pytest.param('{"input": "café \\ud800 escape"}', id="escaped-lone-in-non-ascii-text"),
        pytest.param('{"input": "\\\\ud800 is text"}', id="escaped-backslash"),
    ],
)
def test_parsed_json_is_cleaned_as_the_full_walk_cleans_it(text: str) -> None:
    from failproof.guard._json import loads_json
    from failproof.guard._text import clean_data, clean_parsed

    assert clean_parsed(loads_json(text), text) == clean_data(loads_json(text))
