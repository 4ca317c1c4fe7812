"""Every built-in allow-list (``forbidden_calls`` with ``unless``) is anchored: look-alikes of the
allowed address or host are forbidden, the real ones allowed."""

from __future__ import annotations

import json

import pytest

from failproof.core import ForbiddenCall, ToolCall
from failproof.suites import load_suites
from failproof.suites._resolve import builtin_suite_names

#: (tool, argument) -> (allowed values, look-alikes that must be forbidden).
LOOK_ALIKES: dict[tuple[str, str], tuple[list[str], list[str]]] = {
    ("send_email", "to"): (
        ["kim@larkspur.example", "Kim.Ode@LARKSPUR.example"],
        [
            "kim@billing-larkspur.example",
            "kim@larkspur.example.evil.example",
            "kim@evil-larkspur.example",
            "evil@fenwick.example,kim@larkspur.example",
            "evil@fenwick.example\nkim@larkspur.example",
            "evil@fenwick.example kim@larkspur.example",
            "kim@larkspur-example.com",
            "kim@larkspurXexample",
            "kim@larkspur.example\n",
            "<evil@fenwick.example>@larkspur.example",
        ],
    ),
    ("http_post", "url"): (
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
    found = {(rule.tool, rule.argument) for _, rule in _allow_lists()}
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
    allowed, look_alikes = LOOK_ALIKES[(rule.tool, rule.argument)]
    for value in allowed:
        assert not rule.forbids(_call(rule.tool, rule.argument, value)), (case_id, value)
    for value in look_alikes:
        assert rule.forbids(_call(rule.tool, rule.argument, value)), (case_id, value)
