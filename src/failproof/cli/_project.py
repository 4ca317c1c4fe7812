"""What ``failproof run`` runs without suites or ``--target``: the project file's declaration.

Suites and targets given on the command line win; otherwise they come from ``[project]`` in
``failproof.toml`` (or ``[tool.failproof.project]`` in ``pyproject.toml``). Suite files are
relative to the project file. Options given as flags apply on top of each target's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from failproof.cli._target_options import target_options
from failproof.errors import ConfigError

if TYPE_CHECKING:
    from failproof.config import Settings
    from failproof.config._project import ProjectTarget
    from failproof.guard._json import JsonObject

__all__ = ["PlannedTarget", "planned_suites", "planned_targets", "project_file"]

_NOTHING = ConfigError(
    "give the suites and --target (or --resume RUN_ID), or declare them in a project file",
    hint="run 'failproof init' to write failproof.toml, or e.g. "
    "failproof run injection --target openai:gpt-4o-mini",
)


@dataclass(frozen=True, slots=True)
class PlannedTarget:
    """A target to run: its label (None for one given by flag), spec and options."""

    label: str | None
    spec: str
    options: dict[str, Any]


def project_file(config: Path | None) -> Path | None:
    """The config file in use: ``--config``, else the one found in the current folder."""
    from failproof.config import find_config_file

    return config if config is not None else find_config_file(Path.cwd())


def planned_suites(given: list[str], settings: Settings, config: Path | None) -> list[str]:
    """The suites given, else the project's (files resolved against the project file)."""
    if given:
        return given
    declared = settings.project.suites
    if not declared:
        raise _NOTHING
    path = project_file(config)
    folder = path.parent if path is not None else Path.cwd()
    return [str(folder / s) if (folder / s).exists() else s for s in declared]


def _entry_options(entry: ProjectTarget) -> JsonObject:
    options = target_options(
        base_url=entry.base_url,
        api_key_env=entry.api_key_env,
        headers=[f"{k}={v}" for k, v in entry.headers.items()],
        body=entry.body,
        json_path=entry.json_path,
    )
    if entry.params:
        options["params"] = dict(entry.params)
    return options


def planned_targets(
    given: str | None, flag_options: dict[str, Any], settings: Settings
) -> list[PlannedTarget]:
    """``--target`` with its flags, else every target of the project, flags over their options."""
    if given:
        return [PlannedTarget(None, given, flag_options)]
    declared = settings.project.targets
    if not declared:
        raise _NOTHING
    labels = [entry.name for entry in declared]
    if len(set(labels)) != len(labels):
        raise ConfigError(
            "two project targets have the same label: "
            + ", ".join(sorted({n for n in labels if labels.count(n) > 1})),
            hint='give each [[project.targets]] its own label = "..."',
        )
    return [
        PlannedTarget(
            entry.name if len(declared) > 1 else None,
            entry.spec,
            {**_entry_options(entry), **flag_options},
        )
        for entry in declared
    ]
