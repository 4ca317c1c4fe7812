"""The python: and exec: targets."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from failproof.core import Case, Response
from failproof.errors import TargetError
from failproof.targets import CallError, PythonTarget, Target, create_target

CASE = Case(id="c1", suite="s", system="sys", input="hello")


def call(target: Target, case: Case = CASE) -> Response:
    async def go() -> Response:
        async with target:
            return await target.generate(case)

    return asyncio.run(go())


def takes_case(case: Case) -> str:
    return f"case {case.id}: {case.messages()[-1].content}"


async def takes_messages(messages: list[dict[str, str]]) -> dict[str, object]:
    return {"roles": [m["role"] for m in messages]}


def gives_response(case: Case) -> Response:
    return Response(output="ready", finish_reason="length")


def raises(case: Case) -> str:
    raise RuntimeError("app crashed")


def raises_call_error(case: Case) -> str:
    raise CallError("busy", retryable=True, status=503)


@pytest.mark.parametrize(
    ("fn", "output", "parsed"),
    [
        pytest.param(takes_case, "case c1: hello", None, id="sync-callable-gets-the-case"),
        pytest.param(
            takes_messages,
            '{"roles": ["system", "user"]}',
            {"roles": ["system", "user"]},
            id="async-callable-named-messages-gets-the-messages-and-returns-a-dict",
        ),
        pytest.param(gives_response, "ready", None, id="a-returned-response-is-kept"),
    ],
)
def test_python_callables(fn: object, output: str, parsed: object) -> None:
    response = call(PythonTarget(fn))  # type: ignore[arg-type]
    assert (response.output, response.parsed, response.error) == (output, parsed, None)
    assert response.latency_ms is not None


def test_an_exception_becomes_a_non_retryable_call_error() -> None:
    with pytest.raises(CallError, match="RuntimeError: app crashed") as caught:
        call(PythonTarget(raises))
    assert not caught.value.retryable


def test_a_call_error_raised_by_the_callable_passes_through() -> None:
    with pytest.raises(CallError) as caught:
        call(PythonTarget(raises_call_error))
    assert (caught.value.retryable, caught.value.status) == (True, 503)


def test_spec_loads_module_function_and_file_function(tmp_path: Path) -> None:
    target = create_target(f"python:{__name__}:takes_case")
    assert call(target).output == "case c1: hello"
    app = tmp_path / "my_app.py"
    app.write_text("def answer(case):\n    return 'from file'\n", encoding="utf-8")
    assert call(create_target(f"python:{app}:answer")).output == "from file"


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        pytest.param("python:nomodule_xyz:f", "cannot import", id="unknown-module"),
        pytest.param(f"python:{__name__}:nothing_here", "no attribute", id="unknown-function"),
        pytest.param("python:just_a_name", "module:function", id="no-colon"),
    ],
)
def test_bad_python_specs(spec: str, words: str) -> None:
    with pytest.raises(TargetError, match=words):
        create_target(spec)


def script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "app.py"
    path.write_text("import json, sys\n" + body, encoding="utf-8")
    return f"exec:{sys.executable} {path}"


def test_exec_gets_the_case_as_json_and_answers_on_stdout(tmp_path: Path) -> None:
    spec = script(
        tmp_path,
        "case = json.load(sys.stdin)\n"
        "print(case['id'], case['messages'][0]['role'], case['messages'][-1]['content'])\n",
    )
    assert call(create_target(spec)).output == "c1 system hello"


def test_exec_non_zero_exit_is_an_error_with_the_stderr_tail(tmp_path: Path) -> None:
    spec = script(tmp_path, "sys.stderr.write('x' * 2000 + 'the end')\nsys.exit(2)\n")
    with pytest.raises(CallError, match=r"status 2: x+the end$") as caught:
        call(create_target(spec))
    assert len(caught.value.message) < 600


def test_exec_past_the_timeout_is_killed_and_retryable(tmp_path: Path) -> None:
    spec = script(tmp_path, "import time\ntime.sleep(30)\n")
    with pytest.raises(CallError, match="killed") as caught:
        call(create_target(spec, {"timeout_s": 0.5}))
    assert caught.value.retryable


def test_exec_needs_a_command() -> None:
    with pytest.raises(TargetError, match="needs a command"):
        create_target("exec:")


@pytest.mark.parametrize(
    ("spec", "where"),
    [
        pytest.param("exec:no-such-program-here --flag", "on PATH", id="not-on-path"),
        pytest.param("exec:/no/such/dir/app", "at that path", id="no-such-path"),
    ],
)
def test_exec_refuses_a_program_it_cannot_start_before_any_case(spec: str, where: str) -> None:
    with pytest.raises(TargetError, match=f"no executable program of that name {where}"):
        create_target(spec)
