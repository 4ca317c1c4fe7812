"""Target options from the command line: ``--param``, ``--header``, ``--base-url`` and friends.

The options of the target under test are declared once here for every command that sends to
one; another model a command talks to (an attacker, a generator, a judge) gets the same three
options under its role's name (``--attacker-base-url``...) from `role_option`.

Nothing here may keep a secret: a header value, or the value of a parameter named as a secret
(``--param api_key=...``), that holds the value of an environment variable is stored as
``${NAME}`` (so ``--header "Authorization=Bearer ${TOKEN}"`` works whether or not the shell
expanded it; the target refuses a literal one), and a base URL with a password in it is refused.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlsplit

import typer

from failproof.errors import ConfigError
from failproof.guard._secrets import SECRET_NAME

if TYPE_CHECKING:
    from typer.models import OptionInfo

    from failproof.guard._json import JsonObject


__all__ = [
    "ApiKeyEnvOpt",
    "BaseUrlOpt",
    "ParamOpt",
    "TargetOpt",
    "ThreadsOpt",
    "parse_headers",
    "parse_params",
    "role_option",
    "target_options",
    "templatize_env",
]

TargetOpt = Annotated[
    str | None,
    typer.Option(
        "--target",
        "-t",
        help="openai:MODEL, litellm:PROVIDER/MODEL, http:URL, python:mod:fn, exec:CMD, "
        "local[:FILE.gguf], replay:FILE, mock.",
    ),
]
BaseUrlOpt = Annotated[
    str | None,
    typer.Option("--base-url", help="OpenAI-compatible server (else OPENAI_BASE_URL)."),
]
ApiKeyEnvOpt = Annotated[
    str | None,
    typer.Option("--api-key-env", help="Environment variable holding the key (OPENAI_API_KEY)."),
]
ParamOpt = Annotated[
    list[str] | None,
    typer.Option("--param", "-p", help="Model parameter key=value (JSON values); repeatable."),
]
ThreadsOpt = Annotated[
    int | None,
    typer.Option(
        "--threads", min=1, help="CPU threads of the local model (default: from the machine)."
    ),
]
_MIN_SECRET = 8

#: The options of another model a command talks to, by name; ``{role}`` is the model's role.
_ROLE_OPTIONS = {
    "base-url": "OpenAI-compatible server of the {role}.",
    "api-key-env": "Environment variable holding the {role}'s key (default OPENAI_API_KEY).",
    "param": "{Role} parameter key=value (JSON values); repeatable.",
}


def role_option(role: str, name: str) -> OptionInfo:
    """``--ROLE-NAME`` (``name`` is base-url, api-key-env or param): the option of the model
    playing ``role`` that ``--NAME`` is of the target."""
    text = _ROLE_OPTIONS[name].format(role=role, Role=role.capitalize())
    option: OptionInfo = typer.Option(f"--{role}-{name}", help=text)
    return option


def _pairs(items: Iterable[str], flag: str, separators: str = "=") -> Iterable[tuple[str, str]]:
    for item in items:
        cut = min((i for i in (item.find(s) for s in separators) if i > 0), default=-1)
        if cut <= 0:
            raise ConfigError(f"{flag} {item!r} is not key=value", hint=f"e.g. {flag} key=value")
        yield item[:cut].strip(), item[cut + 1 :].strip()


def parse_params(items: Sequence[str]) -> JsonObject:
    """``["temperature=0", "user=bob"]`` -> ``{"temperature": 0, "user": "bob"}`` (JSON values).

    A parameter named as a secret (``api_key``) keeps the value of an environment variable as
    ``${NAME}``, as a secret header does; the target refuses one given literally."""
    params: dict[str, Any] = {}
    for key, raw in _pairs(items, "--param"):
        try:
            params[key] = json.loads(raw)
        except ValueError:
            params[key] = templatize_env(raw) if SECRET_NAME.search(key) else raw
    return params


def templatize_env(value: str, environ: Mapping[str, str] | None = None) -> str:
    """``value`` with the value of any environment variable in it written as ``${NAME}``."""
    env = os.environ if environ is None else environ
    found = sorted(
        ((v, k) for k, v in env.items() if len(v) >= _MIN_SECRET and v in value),
        key=lambda pair: len(pair[0]),
        reverse=True,
    )
    for secret, name in found:
        value = value.replace(secret, "${" + name + "}")
    return value


def parse_headers(items: Sequence[str]) -> dict[str, str]:
    """``["Authorization=Bearer ${TOKEN}", "X-Team: red"]`` -> {name: template}."""
    return {name: templatize_env(value) for name, value in _pairs(items, "--header", "=:")}


def _check_base_url(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError as exc:
        raise ConfigError(
            f"--base-url is not an http(s) URL with a host: {url[:200]!r} ({exc})",
            hint="e.g. --base-url http://127.0.0.1:8000/v1",
        ) from None
    if parts.password:
        raise ConfigError(
            "the base URL carries a password; secrets must come from the environment",
            hint="use --api-key-env NAME",
        )
    return url


def target_options(
    *,
    base_url: str | None = None,
    api_key_env: str | None = None,
    params: Sequence[str] = (),
    headers: Sequence[str] = (),
    body: str | None = None,
    json_path: str | None = None,
    allow_dropped_system: bool = False,
) -> JsonObject:
    """The options stored with a run and handed to the target factory (None values left out)."""
    options: dict[str, Any] = {
        "base_url": _check_base_url(base_url) if base_url else None,
        "api_key_env": api_key_env,
        "params": parse_params(params) or None,
        "headers": parse_headers(headers) or None,
        "body": json.loads(body) if body and _is_json(body) else body,
        "json_path": _check_json_path(json_path) if json_path else None,
        "allow_dropped_system": True if allow_dropped_system else None,
    }
    return {k: v for k, v in options.items() if v is not None}


def _check_json_path(path: str) -> str:
    """``--json-path`` read as the http target reads it: a malformed path stops the command."""
    from failproof.targets._http import parse_json_path

    parse_json_path(path)
    return path


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
