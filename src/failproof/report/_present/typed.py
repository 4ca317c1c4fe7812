"""An extension section as the model its producer declared: built-in sections are read by
attribute, whether the report was just built (models) or read back from JSON (mappings)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from pydantic import BaseModel, ValidationError

__all__ = ["section_as"]

M = TypeVar("M", bound=BaseModel)


def section_as(model: type[M], data: object) -> M | None:
    """``data`` as ``model``: itself when it is one, validated when it is a mapping, else None
    (a section of another shape is drawn as generic tables instead)."""
    if isinstance(data, model):
        return data
    if not isinstance(data, Mapping) or isinstance(data, BaseModel):
        return None
    try:
        return model.model_validate(data)
    except ValidationError:
        return None
