"""The judge's options, shared by every command that can ask an LLM judge."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from failproof.cli._app import settings_from
from failproof.cli._target_options import role_option
from failproof.errors import ConfigError

if TYPE_CHECKING:
    from failproof.config import Settings

__all__ = [
    "JudgeBaseUrlOpt",
    "JudgeKeyEnvOpt",
    "JudgeOpt",
    "JudgeRoleOpt",
    "check_judge_role",
    "judge_flags",
    "judged_settings",
]

JudgeOpt = Annotated[
    str | None,
    typer.Option(
        "--judge",
        help="Also ask an LLM judge, through any target: openai:MODEL, local, replay:FILE "
        "(recorded verdicts), ... Cached in the store; --judge-role says what it counts for.",
    ),
]
JudgeBaseUrlOpt = Annotated[str | None, role_option("judge", "base-url")]
JudgeKeyEnvOpt = Annotated[str | None, role_option("judge", "api-key-env")]

JudgeRoleOpt = Annotated[
    str | None,
    typer.Option(
        "--judge-role",
        help="What the judge counts for: hybrid (default: the rules keep mechanical checks and "
        "firm refusals, the judge settles meaning), decide (the judge's answer is the verdict; "
        "the rules only where it failed), advise (a second opinion that changes no verdict).",
        metavar="advise|hybrid|decide",
    ),
]


def judge_flags(
    spec: str | None,
    base_url: str | None,
    api_key_env: str | None,
    role: str | None = None,
) -> dict[str, object]:
    """The judge flags as settings overrides (the settings refuse a base URL with a password,
    and a role that is not one of the three)."""
    return {
        "judge__spec": spec,
        "judge__base_url": base_url,
        "judge__api_key_env": api_key_env,
        "judge__role": role,
    }


def check_judge_role(role: str | None, spec: str | None) -> None:
    """A ``--judge-role`` with no judge to play it is a mistake to say, not a flag to ignore."""
    if role is not None and spec is None:
        raise ConfigError(
            f"--judge-role {role} needs a judge",
            hint="add --judge SPEC (or set judge.spec in the config), or drop --judge-role",
        )


def judged_settings(
    config: Path | None,
    judge: str | None,
    base_url: str | None,
    api_key_env: str | None,
    role: str | None = None,
    **flags: object,
) -> Settings:
    """The settings of a command that can ask a judge: its ``flags`` and the judge's on top,
    the judge's key read from its variable; a ``--judge-role`` with no judge is refused."""
    from failproof.config._settings import with_judge_key

    judging = judge_flags(judge, base_url, api_key_env, role)
    settings = with_judge_key(settings_from(config, **flags, **judging))
    check_judge_role(role, settings.judge.spec)
    return settings
