"""Schemas that reach the network: every ``$ref`` outside the suite is refused, never fetched."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from aiohttp import web
from tests.hostile.replay import Attempt, check, guarded
from tests.hostile.servers import HostileServer

from failproof.errors import SuiteError
from failproof.guard._schema import linear_validator, offline_validator
from failproof.suites import parse_suite

#: Where a reference may hide, and how it is written ({url} is a server that records requests).
REFS = {
    "absolute": "{url}/a.json",
    "pointer": "{url}/a.json#/definitions/x",
    "protocol-relative": "//127.0.0.1:{port}/a.json",
    "upper-scheme": "HTTP://127.0.0.1:{port}/a.json",
    "relative-no-id": "a.json",
    "file": "file:///etc/passwd",
    "unknown-anchor": "#nowhere",
}
PLACES = {
    "root": lambda ref: {"$ref": ref},
    "items": lambda ref: {"type": "array", "items": {"$ref": ref}},
    "dynamic": lambda ref: {"$dynamicRef": ref},
    "under-id": lambda ref: {"$id": "{url}/root.json", "properties": {"a": {"$ref": ref}}},
    "all-of": lambda ref: {"allOf": [{"type": "object"}, {"anyOf": [{"$ref": ref}]}]},
}


async def _never_answers(request: web.Request) -> web.StreamResponse:
    import asyncio

    await asyncio.sleep(3600)
    return web.Response()


def _filled(value: Any, server: HostileServer) -> Any:
    text = json.dumps(value).replace("{url}", server.url()).replace("{port}", str(server.port))
    return json.loads(text)


def _case(where: str, schema: dict[str, Any]) -> dict[str, Any]:
    if where == "tool":
        return {"id": "hostile-ref", "input": "x", "tools": [{"name": "t", "parameters": schema}]}
    expect = {"format": "json", "json_schema": schema}
    if where == "turn":
        return {"id": "hostile-ref", "input": "x", "turns": [{"content": "y", "expect": expect}]}
    return {"id": "hostile-ref", "input": "x", "expect": expect}


def load_attempt(ref_name: str, place: str, where: str) -> Attempt:
    def run(folder: Path) -> None:
        with HostileServer({"/{tail:.*}": _never_answers}) as server:
            schema = _filled(PLACES[place](REFS[ref_name]), server)
            text = json.dumps({"suite": "s", "cases": [_case(where, schema)]})
            try:
                guarded(lambda: parse_suite(text, path="s.json"))
            except SuiteError as exc:
                check("hostile-ref" in str(exc), f"the refusal does not name the case: {exc}")
            else:
                raise AssertionError("a schema reaching outside the suite was accepted")
            check(server.requests == [], f"fetched {len(server.requests)} times")

    return Attempt(f"schema/{where}/{place}/{ref_name}", run)


def validate_attempt(ref_name: str) -> Attempt:
    def run(folder: Path) -> None:
        with HostileServer({"/{tail:.*}": _never_answers}) as server:
            schema = _filled({"$ref": REFS[ref_name]}, server)
            for build in (linear_validator, offline_validator):
                try:
                    guarded(lambda build=build: list(build(schema).iter_errors({"a": 1})))
                except AssertionError:
                    raise
                except Exception:  # an unresolvable reference: the check fails, never passes
                    pass
                else:
                    raise AssertionError("validated against a reference it does not hold")
            check(server.requests == [], f"fetched {len(server.requests)} times")

    return Attempt(f"schema/validator/{ref_name}", run)


def attempts() -> list[Attempt]:
    found = [
        load_attempt(ref, "root", where) for ref in REFS for where in ("expect", "tool", "turn")
    ]
    found += [load_attempt("absolute", place, "expect") for place in PLACES if place != "root"]
    found += [load_attempt("relative-no-id", "under-id", "tool")]
    found += [validate_attempt(ref) for ref in REFS if ref != "unknown-anchor"]
    return found
