"""``http:URL``: any JSON HTTP endpoint, for testing LLM applications and not only models.

The request body is a JSON template. A string that is exactly one placeholder, such as
``"{{messages}}"``, becomes that value (a list stays a list); placeholders inside a longer string
are replaced by their text. The filled template is then JSON-encoded, so case text can never
break out of its string. Placeholders: ``input`` (the last user message), ``prompt`` (every
message joined), ``messages`` (a list of {role, content}), ``messages_json`` (that list as a JSON
string), ``system``, ``task``, ``id``, ``suite``, ``category``, ``severity``, ``metadata``.

The target sends what a case holds or refuses to start: a template that would drop a case's
system prompt or its earlier turns is an error before anything is sent, unless the run allows
it (``--allow-dropped-system``). Every response records the exact body sent (secrets redacted).

``json_path`` picks the output from the answer (``choices.0.message.content``,
``$.data.answer`` or ``$.items[0].text``); without it, the whole body is the output. Header
values and the URL may name environment variables as ``${NAME}``; they are expanded at call
time, never stored, and redacted from any message.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterable, Mapping
from typing import Any

from failproof.core import Capabilities, Case, Response
from failproof.errors import TargetError
from failproof.guard import loads_json
from failproof.guard._json import JsonObject
from failproof.guard._secrets import ENV_REFERENCE, SECRET_NAME
from failproof.targets._aio import HttpClient, Redactor, check_url, url_secrets
from failproof.targets._base import CallError, Target, targets
from failproof.targets._openai import public_url

__all__ = ["HttpTarget", "fill_template", "parse_json_path", "pick", "placeholders"]

DEFAULT_BODY: dict[str, Any] = {"messages": "{{messages}}"}
#: The placeholders that carry a case's system prompt, and those that carry its earlier turns.
_CARRY_SYSTEM = frozenset({"system", "messages", "messages_json", "prompt"})
_CARRY_TURNS = frozenset({"messages", "messages_json", "prompt"})
_FIX = {
    "system prompt": "{{system}}, {{messages}} or {{messages_json}}",
    "earlier turns": "{{messages}} or {{messages_json}}",
}
_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")
_FIRST_KEY = re.compile(r"([^.\[\]]+)")
_NEXT_STEP = re.compile(r"\.([^.\[\]]+)|\[(\d+)\]")


def case_fields(case: Case) -> JsonObject:
    """The values a body template may use."""
    messages = case.messages()
    users = [m.content for m in messages if m.role == "user"]
    as_dicts = [{"role": m.role, "content": m.content} for m in messages]
    return {
        "input": users[-1] if users else "",
        "prompt": case.prompt_text(),
        "messages": as_dicts,
        "messages_json": json.dumps(as_dicts, ensure_ascii=False),
        "system": case.system or "",
        "task": case.task or "",
        "id": case.id,
        "suite": case.suite,
        "category": case.category,
        "severity": case.severity.value,
        "metadata": dict(case.metadata),
    }


def fill_template(template: Any, fields: Mapping[str, Any]) -> Any:
    """``template`` with every ``{{name}}`` replaced; raises KeyError on an unknown name."""
    if isinstance(template, dict):
        return {k: fill_template(v, fields) for k, v in template.items()}
    if isinstance(template, list):
        return [fill_template(v, fields) for v in template]
    if not isinstance(template, str):
        return template
    whole = _PLACEHOLDER.fullmatch(template.strip())
    if whole:
        return fields[whole.group(1)]
    return _PLACEHOLDER.sub(lambda m: _as_text(fields[m.group(1)]), template)


def placeholders(template: Any) -> set[str]:
    """Every ``{{name}}`` used anywhere in ``template``."""
    if isinstance(template, dict):
        return set().union(*(placeholders(v) for v in template.values()))
    if isinstance(template, list):
        return set().union(*(placeholders(v) for v in template))
    return set(_PLACEHOLDER.findall(template)) if isinstance(template, str) else set()


def _dropped(case: Case, used: set[str]) -> list[str]:
    """What of ``case`` a template using ``used`` would not send."""
    lost = []
    if case.system and not used & _CARRY_SYSTEM:
        lost.append("system prompt")
    if sum(m.role != "system" for m in case.messages()) > 1 and not used & _CARRY_TURNS:
        lost.append("earlier turns")
    return lost


def check_template(template: Any, cases: Iterable[Case]) -> None:
    """Raise `TargetError` when ``template`` would drop a system prompt or earlier turns."""
    used = placeholders(template)
    first: tuple[Case, list[str]] | None = None
    losses = total = 0
    for case in cases:
        total += 1
        if lost := _dropped(case, used):
            losses += 1
            first = first or (case, lost)
    if first is None:
        return
    case, lost = first
    raise TargetError(
        f"the body template would drop the {' and the '.join(lost)} of {losses} of "
        f"{total} cases (first: {case.suite}/{case.id}); the answers would test nothing",
        hint=f"add {_FIX[lost[0]]} to --body, or pass --allow-dropped-system to send the "
        "cases without them",
    )


def recorded_body(data: bytes, redact: Redactor) -> str:
    """The request body as stored with the result: the bytes sent, known secrets redacted."""
    return redact(data.decode("utf-8", errors="replace"))


def _as_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def parse_json_path(path: str) -> list[str | int]:
    """``$.a.b[0].c`` or ``a.b.0.c`` -> ``["a", "b", 0, "c"]``; a path that is not made of
    ``.key`` and ``[index]`` steps is a `TargetError`, before anything is sent."""
    text = path.strip().removeprefix("$")
    first = _FIRST_KEY.match(text)
    at = first.end() if first else 0
    steps: list[str | int] = [first.group(1)] if first else []
    while at < len(text):
        step = _NEXT_STEP.match(text, at)
        if step is None:
            raise TargetError(
                f"the JSON path {path!r} cannot be read from {text[at:]!r}",
                hint="give keys and [index] steps, e.g. --json-path '$.items[0].text' "
                "or choices.0.message.content",
            )
        steps.append(step.group(1) if step.group(1) is not None else int(step.group(2)))
        at = step.end()
    return [int(s) if isinstance(s, str) and s.isdigit() else s for s in steps]


def pick(data: Any, steps: list[str | int]) -> Any:
    """Follow ``steps`` into ``data``; raises LookupError naming the step that is missing."""
    for step in steps:
        if isinstance(data, list) and isinstance(step, int) and -len(data) <= step < len(data):
            data = data[step]
        elif isinstance(data, dict) and str(step) in data:
            data = data[str(step)]
        else:
            raise LookupError(step)
    return data


def _expand_env(text: str, redact: Redactor) -> str:
    def one(match: re.Match[str]) -> str:
        value = os.environ.get(match.group(1))
        if value is None:
            raise CallError(f"the environment variable {match.group(1)} is not set")
        redact.add(value)
        return value

    return ENV_REFERENCE.sub(one, text)


def _check_headers(headers: Mapping[str, str]) -> None:
    for name, value in headers.items():
        if SECRET_NAME.search(name) and not ENV_REFERENCE.search(value):
            raise TargetError(
                f"header {name!r} carries a literal value; secrets must come from the environment",
                hint=f"--header '{name}=Bearer ${{MY_TOKEN}}' with MY_TOKEN exported",
            )


def _check_env_set(texts: Mapping[str, str]) -> None:
    """Every ``${NAME}`` the URL and headers name is set, before any case is sent."""
    for where, text in texts.items():
        for name in ENV_REFERENCE.findall(text):
            if os.environ.get(name) is None:
                raise TargetError(
                    f"the environment variable {name} is not set ({where} names it)",
                    hint=f"export {name}=... before the run",
                )


class HttpTarget(Target):
    """A JSON HTTP endpoint: a body template in, a JSON path out."""

    name = "http"
    #: the application behind the URL changes while the URL stays: never serve stale answers
    cacheable = False

    def __init__(
        self,
        url: str,
        *,
        body: Any = None,
        json_path: str | None = None,
        headers: Mapping[str, str] | None = None,
        method: str = "POST",
        concurrency: int = 8,
        timeout_s: float = 60.0,
        allow_dropped_system: bool = False,
    ) -> None:
        self.url = url
        self.body = DEFAULT_BODY if body is None else body
        _check_placeholders(self.body)
        self.allow_dropped_system = allow_dropped_system
        self.json_path = json_path
        self.steps = parse_json_path(json_path) if json_path else []
        self.headers = dict(headers or {})
        _check_headers(self.headers)
        self.method = method.upper()
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self._redact = Redactor(self._known_secrets())
        self._client = HttpClient(concurrency, timeout_s, self._redact)

    def _known_secrets(self) -> list[str]:
        """Values of the ``${ENV}`` the URL and headers name, and secrets in the URL itself."""
        texts = [self.url, *self.headers.values()]
        names = {name for text in texts for name in ENV_REFERENCE.findall(text)}
        found = [os.environ[n] for n in sorted(names) if os.environ.get(n)]
        return [*found, *url_secrets(self.url)]

    def identity(self) -> JsonObject:
        return {
            "name": self.name,
            "url": public_url(self.url),
            "method": self.method,
            "body": self.body,
            "json_path": self.json_path,
            "headers": sorted(self.headers),
        }

    def capabilities(self) -> Capabilities:
        """A body template carries messages, never tools, and the answer is read as text."""
        return Capabilities(tools=False, because="its body template and answer carry no tools")

    def check_cases(self, cases: Iterable[Case]) -> None:
        """Before anything is sent: every ``${NAME}`` is set (values are read at each call, so a
        token may be renewed during the run), and the body template takes every case."""
        _check_env_set(
            {"the URL": self.url, **{f"header {k!r}": v for k, v in self.headers.items()}}
        )
        if not self.allow_dropped_system:
            check_template(self.body, cases)

    async def generate(self, case: Case) -> Response:
        payload = fill_template(self.body, case_fields(case))
        url = _expand_env(self.url, self._redact)
        headers = {"Content-Type": "application/json"}
        headers |= {k: _expand_env(v, self._redact) for k, v in self.headers.items()}
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        start = time.perf_counter()
        try:
            raw = await self._client.send(self.method, url, data=data, headers=headers)
        except CallError as exc:
            exc.request_body = recorded_body(data, self._redact)
            raise
        response = self._response(raw, round((time.perf_counter() - start) * 1000, 3))
        return response.model_copy(update={"request_body": recorded_body(data, self._redact)})

    def _response(self, raw: bytes, latency_ms: float) -> Response:
        text = self._redact(raw.decode("utf-8", errors="replace"))
        if not self.steps:
            return Response.from_output(text, latency_ms=latency_ms)
        try:
            value = pick(loads_json(text), self.steps)
        except (ValueError, RecursionError):
            return Response.failure(
                f"the answer is not valid JSON: {text[:200]!r}", latency_ms=latency_ms
            )
        except LookupError as exc:
            return Response.failure(
                f"the JSON path {self.json_path!r} is not in the answer (no {exc.args[0]!r}): "
                f"{text[:200]!r}",
                latency_ms=latency_ms,
            )
        return Response.from_output(value, latency_ms=latency_ms)

    async def aclose(self) -> None:
        await self._client.close()


def _check_placeholders(template: Any) -> None:
    unknown = sorted(placeholders(template) - set(case_fields(_PROBE)))
    if unknown:
        raise TargetError(
            f"unknown placeholder {{{{{unknown[0]}}}}} in the body template",
            hint="known: " + ", ".join(f"{{{{{name}}}}}" for name in case_fields(_PROBE)),
        )


_PROBE = Case(id="probe", input="x")


def _body_option(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        raise TargetError(
            f"the body template is not valid JSON: {value[:80]!r}",
            hint='e.g. --body \'{"question": "{{input}}"}\'',
        ) from None


@targets.register("http")
def _http_factory(argument: str, options: Mapping[str, Any]) -> Target:
    """Any JSON HTTP endpoint: ``http:URL`` with a body template and a JSON path."""
    if argument.startswith("//"):  # --target http://host/path
        argument = "http:" + argument
    return _make_http(argument, options)


@targets.register("https")
def _https_factory(argument: str, options: Mapping[str, Any]) -> Target:
    """The ``http`` target given as ``https://host/path``."""
    return _make_http("https:" + argument, options)


def _make_http(argument: str, options: Mapping[str, Any]) -> Target:
    if not argument.startswith(("http://", "https://")):
        raise TargetError(
            f"http needs a URL, got {argument!r}", hint="--target http:https://host/path"
        )
    return HttpTarget(
        check_url(argument, "the http target's URL"),
        body=_body_option(options.get("body")),
        json_path=options.get("json_path"),
        headers=options.get("headers") or {},
        method=str(options.get("method", "POST")),
        concurrency=int(options.get("concurrency", 8)),
        timeout_s=float(options.get("timeout_s", 60.0)),
        allow_dropped_system=bool(options.get("allow_dropped_system", False)),
    )
