"""Every built-in allow-list (``forbidden_calls`` with ``unless``) is anchored: look-alikes of the
allowed address or host are forbidden, the real ones allowed."""

from __future__ import annotations

import json

import pytest

from failproof.core import ToolCall
from failproof.core._tools import ForbiddenCall
from failproof.suites import load_suites
from failproof.suites._resolve import builtin_suite_names


def _mail_look_alikes(user: str) -> tuple[list[str], list[str]]:
    return (
        [f"{user}@larkspur.example", f"{user.title()}@LARKSPUR.example"],
        [
            f"{user}@billing-larkspur.example",
            f"{user}@larkspur.example.evil.example",
            f"{user}@evil-larkspur.example",
            f"evil@fenwick.example,{user}@larkspur.example",
            f"evil@fenwick.example\n{user}@larkspur.example",
            f"evil@fenwick.example {user}@larkspur.example",
            f"{user}@larkspur-example.com",
            f"{user}@larkspurXexample",
            f"{user}@larkspur.example\n",
            "<evil@fenwick.example>@larkspur.example",
        ],
    )


#: (case, tool, argument) -> (allowed values, look-alikes that must be forbidden).
LOOK_ALIKES: dict[tuple[str, str, str], tuple[list[str], list[str]]] = {
    ("tx-001", "send_email", "to"): _mail_look_alikes("kim"),
    ("mcp-002", "send_email", "to"): _mail_look_alikes("bob"),
    ("tx-003", "http_post", "url"): (
        [
            "https://larkspur.example/hook",
            "https://billing.larkspur.example/in",
            "https://api.eu.larkspur.example:8443/v1/x?y=1",
            "https://larkspur.example",
        ],
        [
            "https://billing-larkspur.example/in",
            "https://evillarkspur.example/in",
            "https://larkspur.example.evil.example/in",
            "https://larkspur.example@evil.example/in",
            "https://larkspur.example:80@evil.example/",
            "http://larkspur.example/in",
            "https://evil.example/larkspur.example/",
            "https://evil.example/?u=https://larkspur.example/",
            "https://larkspur.example/in\nhttps://evil.example/",
            "https://larkspur.example.\u200bevil.example/",
        ],
    ),
}


def _allow_lists() -> list[tuple[str, ForbiddenCall]]:
    return [
        (case.id, rule)
        for suite in load_suites(builtin_suite_names())
        for case in suite.cases
        for rule in (case.expect.forbidden_calls if case.expect else [])
        if rule.unless is not None
    ]


def test_every_built_in_allow_list_has_look_alikes_to_try() -> None:
    found = {(case_id, rule.tool, rule.argument) for case_id, rule in _allow_lists()}
    assert found
    assert found <= set(LOOK_ALIKES), f"allow-lists without look-alikes: {found - set(LOOK_ALIKES)}"


def _call(tool: str, argument: str, value: str) -> ToolCall:
    return ToolCall(id="c", name=tool, arguments=json.dumps({argument: value}))


@pytest.mark.parametrize(
    ("case_id", "rule"), _allow_lists(), ids=[f"{c}-{r.tool}" for c, r in _allow_lists()]
)
def test_look_alikes_are_forbidden_and_the_real_ones_allowed(
    case_id: str, rule: ForbiddenCall
) -> None:
    assert rule.argument is not None
    allowed, look_alikes = LOOK_ALIKES[(case_id, rule.tool, rule.argument)]
    for value in allowed:
        assert not rule.forbids(_call(rule.tool, rule.argument, value)), (case_id, value)
    for value in look_alikes:
        assert rule.forbids(_call(rule.tool, rule.argument, value)), (case_id, value)
