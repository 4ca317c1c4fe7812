"""The configuration reference, generated from the settings models themselves."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from failproof.config._settings import Settings

__all__ = ["settings_reference"]


def _default(info: FieldInfo) -> str:
    value: Any = info.get_default(call_default_factory=True)
    if isinstance(value, BaseModel):
        return ""
    text = json.dumps(value, default=str)
    return f"`{text}`"


def _rows(model: type[BaseModel], prefix: str, env: str) -> list[str]:
    rows: list[str] = []
    for name, info in model.model_fields.items():
        if info.exclude:
            continue
        annotation = info.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            rows.extend(_rows(annotation, f"{prefix}{name}.", f"{env}{name.upper()}__"))
            continue
        description = (info.description or "").replace("|", "\\|")
        rows.append(
            f"| `{prefix}{name}` | `{env}{name.upper()}` | {_default(info)} | {description} |"
        )
    return rows


def settings_reference() -> str:
    """A Markdown table of every setting: TOML key, environment variable, default, meaning."""
    header = [
        "| setting (TOML key) | environment variable | default | meaning |",
        "| --- | --- | --- | --- |",
    ]
    return "\n".join(header + _rows(Settings, "", "FAILPROOF_")) + "\n"
