"""The typer application and the options shared by several commands."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from failproof.config import Settings

__all__ = [
    "ConfigOpt",
    "FailUnderOpt",
    "FormatOpt",
    "OutputOpt",
    "PatternsOpt",
    "QuietOpt",
    "SuitesArg",
    "VerboseOpt",
    "app",
    "command_line",
    "remember_command_line",
    "scoring_flags",
    "settings_from",
]

_INVOKED: list[str] = []


def remember_command_line(args: list[str]) -> None:
    """Keep the arguments failproof was started with (`command_line` repeats them)."""
    _INVOKED[:] = args


def command_line() -> str:
    """The command as it was typed, quoted for a shell: what to run again to finish a job."""
    import shlex

    return shlex.join(["failproof", *_INVOKED])


app = typer.Typer(
    name="failproof",
    help=(
        "Stress-test large language models and score what breaks.\n\n"
        "Exit codes: 0 everything passed (or the --fail-under gate was met); 1 at least one "
        "failure; 2 no failure but at least one Review; 3 configuration, input or runtime error."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


@app.callback()
def _group() -> None:
    # A callback keeps the app a group of commands even when only one command is loaded
    # (`failproof.cli._commands`); the help text above is the group's.
    return None


FormatOpt = Annotated[
    str | None,
    typer.Option(
        "--format",
        "-f",
        help="Report format(s): console, json, html, markdown, junit; a comma list, or 'all'.",
    ),
]
OutputOpt = Annotated[
    Path | None,
    typer.Option(
        "--output",
        "-o",
        help="A file when one format is asked for, a folder otherwise "
        "(default: failproof-results/<run_id>/).",
    ),
]
FailUnderOpt = Annotated[
    float | None,
    typer.Option(
        "--fail-under",
        min=0.0,
        max=1.0,
        help="Exit 0 when the overall run score is at least X, else 1.",
    ),
]
ConfigOpt = Annotated[
    Path | None,
    typer.Option("--config", help="Config file (default: ./failproof.toml or pyproject.toml)."),
]
PatternsOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--patterns",
        help="Signal-pattern YAML file that extends or overrides the built-in library "
        "(a reused id overrides); repeatable.",
    ),
]
VerboseOpt = Annotated[
    bool, typer.Option("--verbose", "-v", help="Show details, and tracebacks on errors.")
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress output.")]
ForceOpt = Annotated[
    bool,
    typer.Option("--force", help="Replace the output file if it exists (never a file read)."),
]
SuitesArg = Annotated[list[str] | None, typer.Argument(help="Suite files or built-in suite names.")]


def settings_from(config: Path | None, **flags: object) -> Settings:
    """Settings with the command's flags on top (flags left at None fall through)."""
    from failproof.config import load_settings
    from failproof.signals._folder import use_cache_folder

    nested: dict[str, dict[str, object]] = {}
    for key, value in flags.items():
        section, _, name = key.partition("__")
        nested.setdefault(section, {})[name] = value
    settings = load_settings(nested, config_file=config)
    use_cache_folder(settings.cache_folder)
    return settings


def scoring_flags(fail_under: float | None, patterns: list[Path] | None) -> dict[str, object]:
    """The flags of every command that scores (``--fail-under``, ``--patterns``) as settings
    overrides."""
    paths = [str(p) for p in patterns] if patterns else None
    return {"run__fail_under": fail_under, "probe__patterns": paths}
