"""The judge's target, built from the judge settings alone (the key was resolved at the edge)."""

from __future__ import annotations

from typing import Any

from failproof.config import JudgeSettings
from failproof.errors import ConfigError
from failproof.guard._json import JsonObject
from failproof.targets import OpenAITarget, Target, create_target
from failproof.targets._aio import check_url
from failproof.targets._base import parse_target_spec
from failproof.targets._openai import OPENAI_URL, OpenAIConnection

__all__ = ["constrained", "judge_target", "schema_format"]


def constrained(settings: JudgeSettings) -> bool:
    """Whether the judge is sent the verdict's JSON schema (``response_format``)."""
    if settings.response_format == "auto":
        return bool(settings.spec) and parse_target_spec(settings.spec or "")[0] == "local"
    return settings.response_format == "schema"


def schema_format(name: str, schema: JsonObject) -> JsonObject:
    """The ``response_format`` parameter that asks for JSON matching ``schema``."""
    return {"type": "json_schema", "json_schema": {"name": name, "schema": schema, "strict": True}}


def _params(settings: JudgeSettings, response_format: JsonObject | None) -> JsonObject:
    params: dict[str, Any] = {"temperature": 0, "max_tokens": settings.max_tokens}
    if response_format is not None:
        params["response_format"] = response_format
    return params


def _connection(settings: JudgeSettings) -> OpenAIConnection:
    base_url = settings.base_url or OPENAI_URL
    key = settings.api_key.get_secret_value() if settings.api_key else None
    env_name = settings.api_key_env or "OPENAI_API_KEY"
    if key is None and base_url.rstrip("/") == OPENAI_URL:
        raise ConfigError(
            f"no API key for the judge: the environment variable {env_name} is not set",
            hint=f"export {env_name}=..., or point --judge-base-url at a server that needs none",
        )
    return OpenAIConnection(check_url(base_url, "--judge-base-url"), key, env_name)


def judge_target(settings: JudgeSettings, response_format: dict[str, Any] | None = None) -> Target:
    """The target the judge is asked through: temperature 0, at most ``max_tokens``, and the
    ``response_format`` when given."""
    if not settings.spec:
        raise ConfigError("no judge configured", hint="give --judge SPEC (e.g. openai:gpt-4o-mini)")
    scheme, argument = parse_target_spec(settings.spec)
    if scheme == "openai":
        if not argument:
            raise ConfigError("the judge openai: needs a model", hint="--judge openai:gpt-4o-mini")
        return OpenAITarget(
            argument,
            _connection(settings),
            params=_params(settings, response_format),
            concurrency=settings.concurrency,
            timeout_s=settings.timeout_s,
        )
    options: dict[str, Any] = {
        "params": _params(settings, response_format),
        "concurrency": settings.concurrency,
        "timeout_s": settings.timeout_s,
    }
    if settings.base_url:  # litellm:'s api_base, an http: app's URL, ...
        options["base_url"] = settings.base_url
    if settings.api_key_env:
        options["api_key_env"] = settings.api_key_env
    return create_target(settings.spec, options)
