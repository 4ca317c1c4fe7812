"""High 1: scoring never touches the network; a schema's ``$ref`` resolves inside the suite only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from referencing.exceptions import Unresolvable
from tests.hostile.conftest import read_report, write_suite
from tests.hostile.servers import HostileServer

from failproof.cli import main
from failproof.guard._schema import linear_validator, offline_validator, ref_problems


async def a_schema(request: web.Request) -> web.StreamResponse:
    return web.json_response({"type": "object", "required": ["never"]})


def _json_case(schema: dict[str, Any]) -> dict[str, Any]:
    return {"id": "schema-case", "input": "x", "expect": {"format": "json", "json_schema": schema}}


def _tool_case(schema: dict[str, Any]) -> dict[str, Any]:
    tool = {"name": "send", "parameters": schema}
    return {"id": "tool-case", "input": "x", "tools": [tool]}


@pytest.mark.parametrize(
    ("build", "ref", "named"),
    [
        pytest.param(_json_case, "{url}/s.json", "schema-case", id="json-schema-absolute"),
        pytest.param(_json_case, "{url}/s.json#/defs/a", "schema-case", id="json-schema-pointer"),
        pytest.param(_tool_case, "{url}/s.json", "tool-case", id="tool-parameters"),
    ],
)
def test_a_remote_ref_is_refused_at_load_naming_the_case_and_never_fetched(
    workdir: Path, capsys: pytest.CaptureFixture[str], build: Any, ref: str, named: str
) -> None:
    with HostileServer({"/s.json": a_schema}) as server:
        schema = {"type": "object", "properties": {"a": {"$ref": ref.format(url=server.url())}}}
        suite = write_suite(workdir, [build(schema)])
        code = main(["run", suite, "-t", "mock", "-q"])
        assert server.requests == []
    assert code == 3
    err = capsys.readouterr().err
    assert named in err
    assert "never fetches" in err


def test_a_validator_built_directly_resolves_nothing_from_outside() -> None:
    with HostileServer({"/s.json": a_schema}) as server:
        schema = {"$ref": server.url("/s.json")}
        for validator in (linear_validator(schema), offline_validator(schema)):
            with pytest.raises(Unresolvable):
                list(validator.iter_errors({}))
        assert server.requests == []


@pytest.mark.parametrize(
    "schema",
    [
        pytest.param({"$ref": "#/$defs/a", "$defs": {"a": {"type": "object"}}}, id="pointer"),
        pytest.param({"$ref": "#a", "$defs": {"a": {"$anchor": "a"}}}, id="anchor"),
        pytest.param(
            {
                "$id": "https://example.com/r.json",
                "$ref": "i.json",
                "$defs": {"i": {"$id": "i.json"}},
            },
            id="relative-id-inside",
        ),
    ],
)
def test_references_the_schema_holds_are_accepted(schema: dict[str, Any]) -> None:
    assert ref_problems(schema) == []


def test_a_local_ref_still_checks_the_answer(workdir: Path) -> None:
    schema = {"$ref": "#/$defs/reply", "$defs": {"reply": {"type": "array"}}}
    suite = write_suite(workdir, [_json_case(schema)])
    assert main(["run", suite, "-t", "mock", "-q", "-f", "json"]) == 1
    (result,) = read_report(workdir)["results"]
    assert result["classification"]["primary"] == "wrong_format"
