"""The base of every model that holds data checked once at the boundary."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["Closed"]


class Closed(BaseModel):
    """A frozen model that refuses keys it does not declare: a misspelled key is an error."""

    model_config = ConfigDict(extra="forbid", frozen=True)
