"""The benchmarks failproof knows: where each file lives, its licence, how it converts."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Literal

from pydantic import Field

from failproof.core._closed import Closed
from failproof.errors import InputError
from failproof.guard import load_yaml

__all__ = ["DatasetFile", "DatasetSpec", "dataset_catalogue", "dataset_spec"]

_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class DatasetFile(Closed):
    """One file of a dataset: its name in the cache, its canonical URL, its pinned checksum."""

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]+$")
    url: str = Field(pattern=r"^https://")
    sha256: str | None = Field(default=None, pattern=_SHA256.pattern)
    role: Literal["harmful", "benign", "mixed"] = "mixed"


class DatasetSpec(Closed):
    """A dataset: its files, licence, home page and the converter that makes it a suite."""

    name: str
    title: str
    licence: str
    homepage: str
    converter: str
    weight: float = 1.0
    about: str = ""
    files: tuple[DatasetFile, ...] = Field(min_length=1)


@cache
def dataset_catalogue() -> dict[str, DatasetSpec]:
    """Every dataset failproof can pull, by name."""
    text = resources.files("failproof.datasets").joinpath("data/catalogue.yaml").read_text()
    raw = load_yaml(text, source="catalogue.yaml")
    return {
        name: DatasetSpec.model_validate({"name": name, **entry}) for name, entry in raw.items()
    }


def dataset_spec(name: str) -> DatasetSpec:
    """The dataset ``name``, or an error listing the known ones."""
    catalogue = dataset_catalogue()
    if name not in catalogue:
        raise InputError(f"unknown dataset {name!r}", hint="known: " + ", ".join(catalogue))
    return catalogue[name]
