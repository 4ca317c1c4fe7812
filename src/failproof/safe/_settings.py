"""Where SAFE v0 settings come from: flags > ``SAFE_V0_*`` > ``safe.config.json`` > defaults.

Each source is a nested mapping spelled like ``safe.config.json``; they are deep-merged (a higher
source replaces only the keys it gives) and validated once, into a frozen `SafeConfig`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import ValidationError

from failproof.config import SafeConfig
from failproof.config._settings import deep_merge, drop_none
from failproof.errors import ConfigError
from failproof.guard._json import DuplicateKeyError, unique_object
from failproof.safe._jsonc import strip_json_comments

__all__ = ["CONFIG_ENV", "CONFIG_FILE_NAME", "ENV_VARIABLES", "EnvVariable", "load_safe_config"]

CONFIG_FILE_NAME = "safe.config.json"
CONFIG_ENV = "SAFE_V0_CONFIG"
_PREFIX = "SAFE_V0_"


class EnvVariable(NamedTuple):
    """One ``SAFE_V0_*`` variable: the setting it sets and how its text is read."""

    path: tuple[str, ...]
    parse: Callable[[str], object]
    help: str


def _bool(text: str) -> bool:
    value = text.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ValueError(f"expected true or false, got {text!r}")


def _csv(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def _threshold_vars() -> dict[str, EnvVariable]:
    out: dict[str, EnvVariable] = {}
    for metric in ("CR", "AH", "AC"):
        for bound in ("pass", "review"):
            out[f"{_PREFIX}{metric}_{bound.upper()}"] = EnvVariable(
                ("thresholds", metric, bound), float, f"{metric} {bound} threshold"
            )
        out[f"{_PREFIX}{metric}_WEIGHT"] = EnvVariable(
            ("weights", metric), float, f"{metric} weight in the composite"
        )
    return out


#: Every ``SAFE_V0_*`` variable and the setting it sets (``SAFE_V0_CONFIG`` names the file).
ENV_VARIABLES: dict[str, EnvVariable] = {
    **_threshold_vars(),
    f"{_PREFIX}AH_STRICT": EnvVariable(("strictAH",), _bool, "binary AH scoring"),
    f"{_PREFIX}REPORT_DIR": EnvVariable(("reportDir",), str, "folder of the reports"),
    f"{_PREFIX}DATA_DIR": EnvVariable(("dataDir",), str, "folder of <concern_id>/ batches"),
    f"{_PREFIX}FORMATS": EnvVariable(("reportFormats",), _csv, "report formats, comma list"),
    f"{_PREFIX}MATCH": EnvVariable(("match",), str, "exact or semantic"),
    f"{_PREFIX}SIMILARITY": EnvVariable(("similarity",), float, "semantic match threshold"),
    f"{_PREFIX}SEED": EnvVariable(("seed",), int, "seed of intervals and tests"),
}


def _set_path(target: dict[str, Any], path: tuple[str, ...], value: object) -> None:
    for key in path[:-1]:
        target = target.setdefault(key, {})
    target[path[-1]] = value


def _env_values(environ: Mapping[str, str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name, text in sorted(environ.items()):
        if not name.startswith(_PREFIX) or name == CONFIG_ENV:
            continue
        variable = ENV_VARIABLES.get(name)
        if variable is None:
            known = ", ".join(sorted([*ENV_VARIABLES, CONFIG_ENV]))
            raise ConfigError(f"unknown environment variable {name}", hint=f"known: {known}")
        try:
            _set_path(values, variable.path, variable.parse(text))
        except ValueError as exc:
            raise ConfigError(f"environment variable {name}={text!r} is invalid: {exc}") from None
    return values


def _config_path(config_file: Path | None, environ: Mapping[str, str], cwd: Path) -> Path | None:
    """The config file to read: the one asked for (it must exist), else ./safe.config.json."""
    if config_file is not None:
        return config_file
    if environ.get(CONFIG_ENV):
        return Path(environ[CONFIG_ENV])
    default = cwd / CONFIG_FILE_NAME
    return default if default.is_file() else None


def _file_values(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise ConfigError(
            f"SAFE config file {path} does not exist", hint="check --config and SAFE_V0_CONFIG"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read SAFE config file {path}: {exc}") from None
    try:
        data = json.loads(strip_json_comments(text), object_pairs_hook=unique_object)
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"{path}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}",
            hint="safe.config.json is JSON; // and /* */ comments are allowed",
        ) from None
    except DuplicateKeyError as exc:
        raise ConfigError(
            f"{path}: {exc}", hint="give each setting once; the second would replace the first"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise ConfigError(f"{path}: not usable JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the SAFE config must be a JSON object")
    return data


def _has_path(values: Mapping[str, Any], path: tuple[str, ...]) -> bool:
    node: Any = values
    for key in path:
        if not isinstance(node, Mapping) or key not in node:
            return False
        node = node[key]
    return True


def _source(path: tuple[str, ...], layers: list[tuple[str, dict[str, Any]]]) -> str:
    for prefix_len in range(len(path), 0, -1):
        for name, values in layers:
            if _has_path(values, path[:prefix_len]):
                return name
    return "the defaults"


def load_safe_config(
    flags: Mapping[str, Any] | None = None,
    *,
    config_file: Path | None = None,
    environ: Mapping[str, str] | None = None,
    cwd: Path | None = None,
) -> SafeConfig:
    """The SAFE v0 configuration: ``flags`` > environment > config file > defaults.

    ``flags`` is nested like ``safe.config.json`` (``{"strictAH": True}``); ``None`` values fall
    through. The config file is ``config_file``, else ``$SAFE_V0_CONFIG``, else
    ``./safe.config.json`` when it exists.
    """
    env = os.environ if environ is None else environ
    path = _config_path(config_file, env, cwd or Path.cwd())
    file_values = _file_values(path) if path is not None else {}
    env_values = _env_values(env)
    flag_values = drop_none(flags or {})
    defaults = SafeConfig().model_dump(mode="json", by_alias=True)
    merged = deep_merge(deep_merge(deep_merge(defaults, file_values), env_values), flag_values)
    try:
        return SafeConfig.model_validate(merged)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = tuple(str(part) for part in first["loc"])
        layers = [
            ("the command line", flag_values),
            ("the SAFE_V0_* environment", env_values),
            (f"config file {path}", file_values),
        ]
        message = str(first["msg"]).removeprefix("Value error, ")
        where = ".".join(loc) or "config"
        raise ConfigError(
            f"invalid SAFE v0 setting {where}: {message} (from {_source(loc, layers)})",
            hint="docs/safe_v0.md lists every setting",
        ) from None
