"""The judge's options, shared by every command that can ask an LLM judge."""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["JudgeBaseUrlOpt", "JudgeKeyEnvOpt", "JudgeOpt", "judge_flags"]

JudgeOpt = Annotated[
    str | None,
    typer.Option(
        "--judge",
        help="Also ask an LLM judge, through any target: openai:MODEL, local, ... "
        "(a second opinion beside the rules; cached in the store).",
    ),
]
JudgeBaseUrlOpt = Annotated[
    str | None,
    typer.Option("--judge-base-url", help="OpenAI-compatible server of the judge."),
]
JudgeKeyEnvOpt = Annotated[
    str | None,
    typer.Option(
        "--judge-api-key-env",
        help="Environment variable holding the judge's key (default OPENAI_API_KEY).",
    ),
]


def judge_flags(
    spec: str | None, base_url: str | None, api_key_env: str | None
) -> dict[str, object]:
    """The judge flags as settings overrides (the settings refuse a base URL with a password)."""
    return {
        "judge__spec": spec,
        "judge__base_url": base_url,
        "judge__api_key_env": api_key_env,
    }
