"""Public benchmarks on tap: fetched from their canonical locations at run time, verified by
SHA-256, cached, and converted to suites with the expectations each behaviour type needs."""

from typing import TYPE_CHECKING

from failproof._lazy import lazy_exports

if TYPE_CHECKING:
    from failproof.datasets._catalogue import (
        DatasetFile,
        DatasetSpec,
        dataset_catalogue,
        dataset_spec,
    )
    from failproof.datasets._convert import COPYRIGHT_MAX_CHARS
    from failproof.datasets._fetch import ChecksumError, fetch_file, sha256_of
    from failproof.datasets._pull import FileOutcome, PullOutcome, pull_dataset

__all__ = [
    "COPYRIGHT_MAX_CHARS",
    "ChecksumError",
    "DatasetFile",
    "DatasetSpec",
    "FileOutcome",
    "PullOutcome",
    "dataset_catalogue",
    "dataset_spec",
    "fetch_file",
    "pull_dataset",
    "sha256_of",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "._catalogue": ("DatasetFile", "DatasetSpec", "dataset_catalogue", "dataset_spec"),
        "._convert": ("COPYRIGHT_MAX_CHARS",),
        "._fetch": ("ChecksumError", "fetch_file", "sha256_of"),
        "._pull": ("FileOutcome", "PullOutcome", "pull_dataset"),
    },
)
