"""Settings and where they come from.

Precedence, highest first: command-line flags (passed as ``overrides``), environment variables
(``FAILPROOF_*``), a config file (``failproof.toml``, or ``[tool.failproof]`` in
``pyproject.toml``),
then the defaults. Secrets never live here: API keys are read from the environment by the target
that needs them; the one exception, the judge's key, is resolved at the command line, held as a
secret and left out of every dump.
"""

from __future__ import annotations

import os
import sys
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

from failproof.config._project import ProjectSettings
from failproof.config._sections import (
    ClassifierSettings,
    JudgeSettings,
    ProbeSettings,
    ReportSettings,
    RunSettings,
)
from failproof.config._toml_lines import line_of
from failproof.errors import ConfigError
from failproof.guard import UnreadableInput, add_secret
from failproof.guard._input import decode_text, read_limited

__all__ = [
    "Settings",
    "deep_merge",
    "drop_none",
    "find_config_file",
    "load_settings",
    "with_judge_key",
]


class Settings(BaseSettings):
    """Everything configurable in failproof, as one frozen value passed down explicitly."""

    model_config = SettingsConfigDict(
        env_prefix="FAILPROOF_",
        env_nested_delimiter="__",
        extra="forbid",
        frozen=True,
    )

    home: Path = Field(
        default=Path(".failproof"), description="Folder of the results store (failproof.db)."
    )
    cache_dir: Path | None = Field(
        default=None,
        description="Folder of what only saves time (the checked signal library). Unset: "
        "`cache` under `home` when `home` is set, else the user's cache folder.",
    )
    run: RunSettings = Field(default_factory=RunSettings)
    classifier: ClassifierSettings = Field(default_factory=ClassifierSettings)
    probe: ProbeSettings = Field(default_factory=ProbeSettings)
    report: ReportSettings = Field(default_factory=ReportSettings)
    judge: JudgeSettings = Field(default_factory=JudgeSettings)
    project: ProjectSettings = Field(default_factory=ProjectSettings)

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],  # noqa: ARG003 (signature fixed by pydantic-settings)
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,  # noqa: ARG003
        file_secret_settings: PydanticBaseSettingsSource,  # noqa: ARG003
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # flags (init) > environment > config file (passed through init as _file_values)
        return (init_settings, env_settings)

    @property
    def db_path(self) -> Path:
        return self.home / "failproof.db"

    @property
    def cache_folder(self) -> Path:
        """``cache_dir``; unset, ``home/cache`` when ``home`` was given, else the platform's
        user cache folder (``$XDG_CACHE_HOME/failproof``, ``~/Library/Caches/failproof``, ...)."""
        if self.cache_dir is not None:
            return self.cache_dir
        if "home" in self.model_fields_set:
            return self.home / "cache"
        return user_cache_folder()


def user_cache_folder() -> Path:
    """failproof's folder in the user's cache folder, by the platform's convention."""
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(local) / "failproof" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "failproof"
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    return (Path(xdg) if os.path.isabs(xdg) else Path.home() / ".cache") / "failproof"


def find_config_file(cwd: Path) -> Path | None:
    """``failproof.toml`` in ``cwd``, else ``pyproject.toml`` if it has ``[tool.failproof]``."""
    own = cwd / "failproof.toml"
    if own.is_file():
        return own
    pyproject = cwd / "pyproject.toml"
    if pyproject.is_file() and "failproof" in _read_toml(pyproject).get("tool", {}):
        return pyproject
    return None


#: Largest config file read (a real one is a few kilobytes).
MAX_CONFIG_BYTES = 1 << 20


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        text = decode_text(read_limited(path, MAX_CONFIG_BYTES), source=str(path))
        return tomllib.loads(text)
    except UnreadableInput as exc:
        raise ConfigError(f"cannot read config file: {exc}") from None
    except RecursionError:  # tomllib recurses into nested arrays and inline tables
        raise ConfigError(f"{path}: cannot read config file: nested too deeply") from None
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read config file: {exc}") from exc


def _file_values(path: Path) -> dict[str, Any]:
    data = _read_toml(path)
    if path.name == "pyproject.toml":
        section = data.get("tool", {}).get("failproof", {})
        return dict(section) if isinstance(section, dict) else {}
    return data


def deep_merge(base: Mapping[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    """``top`` over ``base``; nested mappings merge key by key."""
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def load_settings(
    overrides: Mapping[str, Any] | None = None,
    *,
    config_file: Path | None = None,
    cwd: Path | None = None,
) -> Settings:
    """Build the settings: ``overrides`` (flags) > environment > config file > defaults.

    ``overrides`` is nested like the settings (``{"run": {"concurrency": 4}}``); ``None`` values
    are ignored so that unset flags fall through to the next source.
    """
    path = config_file or find_config_file(cwd or Path.cwd())
    file_values = _file_values(path) if path else {}
    flags = drop_none(overrides or {})
    try:
        env_only = Settings()  # environment over defaults
        env_values = env_only.model_dump(exclude_unset=True)
        merged = deep_merge(deep_merge(file_values, env_values), flags)
        return Settings(**merged)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ConfigError(
            f"{_place(path, file_values, first['loc'])}invalid setting {where}: {first['msg']}",
            hint="see docs/configuration.md for every setting and its environment variable",
        ) from None


def _written(values: Mapping[str, Any], loc: tuple[str | int, ...]) -> bool:
    """Whether the config file gave the first key of ``loc`` (else a flag or variable did)."""
    return bool(loc) and isinstance(loc[0], str) and loc[0] in values


def _place(path: Path | None, values: Mapping[str, Any], loc: tuple[str | int, ...]) -> str:
    """``FILE:LINE: `` for an error in the config file, ``FILE: `` when no line is known."""
    if path is None or not _written(values, loc):
        return ""
    prefix: tuple[str | int, ...] = ("tool", "failproof") if path.name == "pyproject.toml" else ()
    try:
        line = line_of(decode_text(path.read_bytes(), source=str(path)), (*prefix, *loc))
    except (OSError, UnreadableInput):
        line = None
    return f"{path}:{line}: " if line else f"{path}: "


def drop_none(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` without its None leaves (and without mappings left empty): unset flags."""
    out: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, Mapping):
            inner = drop_none(value)
            if inner:
                out[key] = inner
        elif value is not None:
            out[key] = value
    return out


def with_judge_key(settings: Settings, environ: Mapping[str, str] | None = None) -> Settings:
    """``settings`` with the judge's key read from the variable ``judge.api_key_env`` names,
    and the judge's cache in the results store unless one is set.

    Called at the edge (the command line) only. Nothing changes without a judge or when the key
    is already set. A variable named explicitly but unset is an error; the default
    ``OPENAI_API_KEY`` may be unset (a local server needs no key).
    """
    judge = settings.judge
    if not judge.spec:
        return settings
    if judge.cache_path is None:
        judge = judge.model_copy(update={"cache_path": str(settings.db_path)})
    if judge.api_key is not None:
        return settings.model_copy(update={"judge": judge})
    env = os.environ if environ is None else environ
    name = judge.api_key_env or "OPENAI_API_KEY"
    key = env.get(name) or None
    if key is None and judge.api_key_env:
        raise ConfigError(
            f"no API key for the judge: the environment variable {name} is not set",
            hint=f"export {name}=... or leave out --judge-api-key-env",
        )
    if key is None:
        return settings.model_copy(update={"judge": judge})
    add_secret(key)  # redacted from everything failproof writes or prints
    keyed = judge.model_copy(update={"api_key": SecretStr(key)})
    return settings.model_copy(update={"judge": keyed})
